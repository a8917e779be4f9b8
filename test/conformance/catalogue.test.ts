// The requirement catalogue and the scenarios agree: ids are unique, every requirement is covered by
// at least one check, and every check names requirements that exist.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { REQUIREMENTS, idsInTitle, requirementById } from '../../contract/requirements.ts';

const PER_RESPONSE = ['ENV-1', 'ENV-2', 'ENV-3', 'CONTRACT-1', 'CONTRACT-2'];
const dir = new URL('../../scenarios/', import.meta.url);
const titles = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).flatMap((f) => {
  const text = readFileSync(new URL(f, dir), 'utf8');
  return [...text.matchAll(/\bit\(\s*[`'"](\[[^\]]+\][^`'"]*)/g)].map((m) => ({ file: f, title: m[1] }));
});

describe('requirement catalogue', () => {
  it('has unique ids, a level and a clause for every entry', () => {
    expect(new Set(REQUIREMENTS.map((r) => r.id)).size).toBe(REQUIREMENTS.length);
    for (const r of REQUIREMENTS) {
      expect(['MUST', 'SHOULD']).toContain(r.level);
      expect(r.clause.length).toBeGreaterThan(10);
    }
  });

  it('every scenario check names existing requirements', () => {
    expect(titles.length).toBeGreaterThan(40);
    for (const t of titles) {
      const ids = idsInTitle(t.title);
      expect(ids.length, `${t.file}: ${t.title}`).toBeGreaterThan(0);
      for (const id of ids) expect(requirementById.has(id), `${t.file}: unknown requirement ${id}`).toBe(true);
    }
  });

  it('every requirement is covered by a check (the per-response ones by the client)', () => {
    const covered = new Set([...PER_RESPONSE, ...titles.flatMap((t) => idsInTitle(t.title))]);
    expect(REQUIREMENTS.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
  });
});
