// Every file the project names, in its docs, comments and tests, is one the project has: a reader
// who follows `suite/scenario/check.ts` or `docs/self-test.md` finds it. A path from the root
// (suite/…, docs/…, test/…) must exist; a bare capitalised name (SPEC.md, README.md) must be the
// name of one of the project's files. Paths with a placeholder (`reports/load-<tier>.json`) are left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', 'reports', '.git', '.tmp', 'dist']);
const TOPS = ['suite', 'cli', 'contract', 'reference', 'scenarios', 'fixtures', 'load', 'docs', 'test', 'bench', 'bin'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : /\.(ts|md|js|mjs|yml|yaml)$/.test(e.name) ? [path] : [];
  });
}

const ROOTED = new RegExp(String.raw`(?<![\w/.-])((?:${TOPS.join('|')})/[\w./-]*\w\.(?:jsonl|json|ts|md|mjs|js|yml|yaml))\b`, 'g');
const BARE = /(?<![\w/.-])([A-Z][A-Z_]+\.md)\b/g;

/** Every name of a file that does not exist, with where it is named. */
export function missingReferences(list: readonly string[], exists: (path: string) => boolean, names: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  for (const file of list) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const where = `${relative(ROOT, file)}:${i + 1}`;
      for (const [, path] of line.matchAll(ROOTED)) if (!exists(path)) missing.push(`${where}: ${path}`);
      for (const [, name] of line.matchAll(BARE)) if (!names.has(name)) missing.push(`${where}: ${name}`);
    });
  }
  return missing;
}

describe('the files the project names', () => {
  const all = files(ROOT);
  const names = new Set(all.map((f) => f.split('/').pop()!));
  const exists = (path: string) => existsSync(join(ROOT, path));

  it('all exist in the project', () => {
    expect(all.length).toBeGreaterThan(200);
    expect(missingReferences(all, exists, names)).toEqual([]);
  });

  it('are told apart from names of files the project lacks', () => {
    const probe = join(ROOT, 'test/install/file-references.test.ts');
    expect(missingReferences([probe], () => false, new Set()).length).toBeGreaterThan(3);
  });
});
