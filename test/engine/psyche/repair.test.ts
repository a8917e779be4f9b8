// repair() returns a whole snapshot at once (the compiled isWhole check) and fills every member that
// is missing or of the wrong kind: the check must see each member a fresh snapshot has.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { isWhole, repair } from '../../../reference/engine/psyche/create.ts';
import type { PersonaSnapshot } from '../../../contract/resources.ts';
import { chat, INSULT, persona, PRAISE } from './helpers.ts';

const isObj = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** Every member path of `x` that fill walks (object members, recursively; arrays are leaves). */
function paths(x: Record<string, unknown>, prefix: string[] = []): string[][] {
  return Object.entries(x).flatMap(([k, v]) => [[...prefix, k], ...(isObj(v) && Object.keys(v).length ? paths(v, [...prefix, k]) : [])]);
}

function edit(s: PersonaSnapshot, path: string[], change: (o: Record<string, unknown>, k: string) => void): PersonaSnapshot {
  const copy = structuredClone(s) as unknown as Record<string, unknown>;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string, unknown>;
  change(o, path[path.length - 1]);
  return copy as unknown as PersonaSnapshot;
}

describe('repair', () => {
  it('a created snapshot, and one after percepts and a JSON round trip, is whole', () => {
    const { config, snap } = persona({ goals: [{ id: 'g', content: 'garden' }] });
    expect(isWhole(snap)).toBe(true);
    psyche.perceive(snap, config, chat(INSULT));
    psyche.perceive(snap, config, chat(PRAISE));
    psyche.elapse(snap, config, 600, snap.state.lastUpdated + 600_000);
    expect(isWhole(JSON.parse(JSON.stringify(snap)))).toBe(true);
    expect(repair(snap, config)).toBe(snap);
  });

  it('every member missing or of the wrong kind is seen, and repaired', () => {
    const { config, snap } = persona();
    const all = paths(snap as unknown as Record<string, unknown>);
    expect(all.length).toBeGreaterThan(100);
    for (const path of all) {
      const value = path.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], snap);
      const wrong = typeof value === 'string' ? 5 : typeof value === 'number' ? (path.length % 2 ? NaN : 'x') : 'x';
      for (const broken of [edit(snap, path, (o, k) => { delete o[k]; }), edit(snap, path, (o, k) => { o[k] = wrong; })]) {
        expect(isWhole(broken), path.join('.')).toBe(false);
        repair(broken, config);
        expect(isWhole(broken), path.join('.')).toBe(true);
      }
    }
  });

  it('a value that is not an object is not whole', () => {
    for (const x of [undefined, null, 3, 'snap', [] as unknown]) expect(isWhole(x)).toBe(false);
  });
});
