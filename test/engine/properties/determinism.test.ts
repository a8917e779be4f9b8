// Determinism: the same configuration, seed and inputs give byte-identical outputs (JSON.stringify
// equal), also when the snapshot makes a JSON round trip between operations. For personas
// (psyche operations) and for worlds (world operations; the round trip is export → JSON → import).
import { describe, expect, it } from 'vitest';
import { exportWorld } from '../../../reference/engine/world/index.ts';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { apply, check, config, jsonClone, newPersona, opsArb, type Op } from './arbitraries.ts';
import { applyWorld, buildWorld, roundTripWorld, setupArb, WORLD_ID, worldOpsArb, type WorldOp, type WorldSetup } from './world-arbitraries.ts';
import type { PersonaConfig } from '../../../contract/resources.ts';
import { commit, thaw } from '../../../reference/store/shared.ts';

/**
 * How the state is carried between operations: as is, through a JSON round trip, or as the store
 * does it in either freeze mode (committed after each operation, thawed before the next: array
 * items shared and frozen; with 'deep' the containers were frozen too).
 */
type Carry = 'direct' | 'roundTrip' | 'deep' | 'items';

function personaRun(cfg: PersonaConfig, ops: Op[], carry: Carry, seed = 'prop-seed'): string[] {
  const p = newPersona(jsonClone(cfg), seed);
  const outs = ops.map((o) => {
    if (carry === 'roundTrip') p.snap = jsonClone(p.snap);
    if (carry === 'deep' || carry === 'items') p.snap = thaw(commit(p.snap, carry));
    return JSON.stringify(apply(p, o) ?? null);
  });
  return [...outs, JSON.stringify(p.snap)];
}

function worldRun(setup: WorldSetup, ops: WorldOp[], carry: Carry, form: (x: unknown) => unknown = (x) => x): string[] {
  let w = buildWorld(jsonClone(setup));
  const outs = ops.map((o) => {
    if (carry === 'roundTrip') roundTripWorld(w);
    if (carry === 'deep' || carry === 'items') w = thaw(commit(w, carry));
    return JSON.stringify(form(applyWorld(w, jsonClone(o)) ?? null));
  });
  return [...outs, JSON.stringify(form(exportWorld(w, WORLD_ID)))];
}

/** Sorted keys: the same content whatever the order of members. */
const canonical = (x: unknown): unknown => (Array.isArray(x) ? x.map(canonical)
  : x && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, canonical((x as Record<string, unknown>)[k])])) : x);

/** Throws with the first output that differs, around its first differing character. */
function same(a: string[], b: string[]): void {
  const i = a.findIndex((x, k) => x !== b[k]);
  if (i < 0) return;
  let j = 0;
  while (a[i][j] === b[i]?.[j]) j++;
  const cut = (x: string) => x.slice(Math.max(0, j - 200), j + 200);
  throw new Error(`output ${i} of ${a.length} differs at character ${j}:\n  ${cut(a[i])}\n  ${cut(b[i] ?? '')}`);
}

type Case = [title: string, seed: number, runs: number, a: Carry, b: Carry];

// The store hands out drafts whose array items are shared and frozen (Store.edit): an operation
// that modified an item in place would throw in the 'deep' and 'items' runs instead of behaving as
// on a plain object.
const PERSONA_CASES: Case[] = [
  ['two runs of the same inputs give byte-identical outputs and snapshots', 0xde7e01, 150, 'direct', 'direct'],
  ['a JSON round trip of the snapshot before every operation changes nothing', 0xde7e02, 150, 'direct', 'roundTrip'],
  ['operating on store drafts (freeze deep) gives the same outputs', 0xde7e06, 150, 'direct', 'deep'],
  ['operating on store drafts (freeze items) gives the same outputs', 0xde7e08, 100, 'direct', 'items'],
];
const WORLD_CASES: Array<[...Case, form?: (x: unknown) => unknown]> = [
  ['two runs of the same inputs give byte-identical results and snapshots', 0xde7e03, 50, 'direct', 'direct'],
  ['export → JSON → import of the snapshot before every operation changes nothing', 0xde7e04, 50, 'direct', 'roundTrip'],
  ['the same, member order aside (the content of every result survives the round trips)', 0xde7e05, 50, 'direct', 'roundTrip', canonical],
  ['operating on store drafts (freeze deep) gives the same results', 0xde7e07, 50, 'direct', 'deep'],
  ['operating on store drafts (freeze items) gives the same results', 0xde7e09, 30, 'direct', 'items'],
];

describe('determinism (fast-check)', () => {
  it.each(PERSONA_CASES)('persona: %s', (title, seed, runs, a, b) => {
    check(`persona: ${title}`, seed, runs, [config, opsArb(20)], (cfg, ops) => {
      same(personaRun(cfg, ops, a), personaRun(cfg, ops, b));
    });
  });

  it.each(WORLD_CASES)('world: %s', (title, seed, runs, a, b, form) => {
    check(`world: ${title}`, seed, runs, [setupArb, worldOpsArb(12)], (setup, ops) => {
      same(worldRun(setup, ops, a, form), worldRun(setup, ops, b, form));
    });
  });

  it('the seed matters: another seed draws other reply templates (the comparison is not vacuous)', () => {
    const cfg = psyche.normalizeConfig({}, 'ada');
    const ops: Op[] = Array.from({ length: 8 }, (_, i) => ({ op: 'perceive' as const, p: { kind: 'chat' as const, type: 'chat', source: 'bob', text: i % 2 ? 'hate idiot' : 'great thanks', dtMs: 10 } }));
    const texts = (seed: string) => personaRun(cfg, ops, 'direct', seed).slice(0, -1).map((o) => (JSON.parse(o) as { text: string }).text);
    expect(texts('a')).toEqual(texts('a'));
    expect(texts('a')).not.toEqual(texts('b'));
  });
});
