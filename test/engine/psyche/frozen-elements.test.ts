// The store shares the elements of a document's arrays between versions (deep-frozen); only
// containers reached through object members are copied for the next change. So the psyche may push
// to, splice and replace the elements of its arrays (histories, episodes, goals, arcs, …) but must
// never write into an element once it is in an array. Every element of every array is deep-frozen
// between two calls here; a write into one throws (ES modules are strict).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { internals } from '../../../reference/engine/psyche/internals.ts';
import { NARRATIVE } from '../../../reference/engine/psyche/narrative.ts';
import type { EntityResponse, PersonaSnapshot } from '../../../contract/resources.ts';
import { apply, config as configArb, newPersona, opsArb, type Persona } from '../properties/arbitraries.ts';
import { chat, event, persona, T0 } from './helpers.ts';
import { commit } from '../../../reference/store/shared.ts';

/** Deep-freezes every element of every array (the containers stay open), as a store edit commits. */
const freezeElements = (snap: PersonaSnapshot) => commit(snap, 'items');

/** What the runs went through, so the test can tell it reached the interesting cases. */
interface Seen { goalChanges: number; extendedArcs: number; strategiesEnded: number; calls: number }
const seen = (): Seen => ({ goalChanges: 0, extendedArcs: 0, strategiesEnded: 0, calls: 0 });

function note(s: Seen, snap: PersonaSnapshot, r: unknown): void {
  s.calls++;
  const g = (r as EntityResponse | undefined)?.goalChanges;
  if (g) s.goalChanges += g.achieved.length + g.abandoned.length + g.activated.length;
  if (snap.narrative.arcs.some((a) => a.episodeIds.length > NARRATIVE.ARC_WINDOW)) s.extendedArcs++;
  s.strategiesEnded = Math.max(s.strategiesEnded, snap.state.regulation.effectiveness_history.length);
}

describe('the psyche never writes into an array element', () => {
  it('random sequences of perceive, elapse, override and witness on frozen elements', () => {
    const s = seen();
    const configs = fc.sample(configArb, { seed: 4242, numRuns: 60 });
    const runs = fc.sample(opsArb(40), { seed: 4343, numRuns: 60 });
    runs.forEach((ops, n) => {
      const p: Persona = newPersona(configs[n], `frozen-${n}`);
      for (const o of ops) {
        freezeElements(p.snap);
        let r: unknown;
        expect(() => { r = apply(p, o); }).not.toThrow();
        note(s, p.snap, r);
      }
    });
    expect(s.calls).toBeGreaterThan(500);
    expect(s.extendedArcs).toBeGreaterThan(0);
    expect(s.strategiesEnded).toBeGreaterThan(0);
  });

  it('goals achieved, abandoned and activated, arcs extended, on frozen elements', () => {
    const s = seen();
    const { config, snap } = persona({
      personality: { N: 0.8, A: 0.3 },
      goals: [
        { id: 'garden', content: 'water the garden', priority: 0.9 },
        { id: 'letter', content: 'write letter friend', priority: 0.6, status: 'dormant' },
        { id: 'boat', content: 'sail boat harbour', priority: 0.5, mutable: true },
        { id: 'music', content: 'play music loud', priority: 0.4, status: 'dormant' },
      ],
      reflection: { turnFallback: 3 },
    }, 'frozen-goals');
    const texts = [
      'I love the garden, watering the garden is wonderful and I am grateful!',
      'The harbour boat is awful, sailing that boat is terrible, I hate the harbour.',
      'Write a letter to a friend, a wonderful kind letter for my friend.',
      'You are a stupid worthless idiot and I hate you.',
      'Thank you, you did a wonderful job. I admire you!',
      'Play the music loud, wonderful music, I love music!',
    ];
    let now = T0;
    for (let i = 0; i < 120; i++) {
      freezeElements(snap);
      now += 30_000;
      const text = texts[(i * 5 + Math.floor(i / 7)) % texts.length];
      let r: unknown;
      expect(() => {
        if (i % 11 === 10) psyche.elapse(snap, config, 600, now);
        else if (i % 13 === 12) r = psyche.witness(snap, config, { V: -0.8, A: 0.7, D: -0.2 }, 0.5, now);
        else if (i % 17 === 16) psyche.override(snap, { V: -0.9, A: 0.8 }, now);
        else r = psyche.perceive(snap, config, i % 4 === 3 ? event('storm', { timestamp: now, text }) : chat(text, 'bob', { timestamp: now }));
      }).not.toThrow();
      note(s, snap, r);
    }
    expect(s.goalChanges).toBeGreaterThan(0);
    expect(snap.goals.some((g) => g.status !== 'active' && g.status !== 'dormant')).toBe(true);
    expect(internals(snap).episodes.length).toBeGreaterThan(0);
  });
});
