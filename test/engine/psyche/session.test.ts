// Every layer alive: in the realistic 200-turn session of session.ts, each layer of the snapshot
// must move (take more than one value), the slow ones must reach their events (a stage change, a
// goal achieved or abandoned, a dormant goal activated, a reflection from prediction error), a day
// tick must leave the history meaningful, and nothing may pin at the bounds.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { runSession, type Sample } from './session.ts';

const samples: Sample[] = [];
runSession((s) => samples.push(s));

type Internal = { psyche: { goalProgress: Record<string, number> } };
const LAYERS: Array<[string, (s: Sample) => unknown]> = [
  ['emotion', (s) => s.snap.state.emotion],
  ['discrete label', (s) => s.view.emotion.discrete.primary],
  ['mood', (s) => s.snap.mood],
  ['soul stage', (s) => s.snap.state.soul_stage.id],
  ['goal status', (s) => s.snap.goals.map((g) => g.status).join()],
  ['goal progress', (s) => (s.snap as unknown as Internal).psyche.goalProgress],
  ['selfConcept', (s) => s.snap.selfConcept],
  ['selfEsteem.global', (s) => s.snap.selfEsteem.global],
  ['selfEsteem.contingencies', (s) => s.snap.selfEsteem.contingencies],
  ['somatic list (GET state)', (s) => s.view.somatic],
  ['narrative tone', (s) => s.snap.narrative.tone],
  ['narrative agency', (s) => s.snap.narrative.agency],
  ['narrative coherence.causal', (s) => s.snap.narrative.coherence.causal],
  ['relationships', (s) => s.snap.relationships],
  ['mortality salience', (s) => s.snap.tmt.mortalitySalience],
  ['mask', (s) => s.snap.maskIntegrity],
  ['regulation strategy', (s) => s.snap.state.regulation.active_strategy?.strategy ?? 'none'],
  ['body budget', (s) => s.snap.state.body_budget],
  ['needs', (s) => s.snap.state.need_state],
  ['catastrophe alpha', (s) => s.snap.state.catastrophe.alpha],
  ['affect dynamics', (s) => s.snap.state.affect_dynamics],
  ['self-awareness', (s) => s.snap.state.metacog.self_awareness],
];

const distinct = (f: (s: Sample) => unknown) => new Set(samples.map((s) => JSON.stringify(f(s)))).size;

describe('a realistic 200-turn session', () => {
  it('moves every layer of the snapshot', () => {
    const table = LAYERS.map(([name, f]) => `${name}: ${distinct(f)}`);
    // The liveness table (distinct values over the 200 turns), for the record.
    console.log(`layers (distinct values in 200 turns): ${table.join(', ')}`);
    for (const [name, f] of LAYERS) expect(distinct(f), name).toBeGreaterThan(1);
    expect(new Set(samples.map((s) => s.view.emotion.discrete.primary)).size).toBeGreaterThanOrEqual(4);
  });

  it('reaches the slow events: a stage change, goals closed and activated, a reflection from prediction error', () => {
    expect(new Set(samples.map((s) => s.snap.state.soul_stage.id)).size).toBeGreaterThan(1);
    const statuses = new Set(samples.flatMap((s) => s.snap.goals.map((g) => `${g.id}:${g.status}`)));
    expect([...statuses].some((x) => x.endsWith(':achieved') || x.endsWith(':abandoned'))).toBe(true);
    expect(statuses.has('boat:dormant') && statuses.has('boat:active')).toBe(true);
    expect(samples.some((s) => s.reflected?.startsWith('Why now: an unexpected turn'))).toBe(true);
    expect(samples.some((s) => s.view.somatic.length > 0)).toBe(true);
  });

  it('keeps meaningful history after a day tick, and pins nothing at the bounds', () => {
    for (const s of samples.filter((x) => x.turn % 40 === 0)) {
      // A day of decay does not flood the history: the samples before it survive.
      expect(s.snap.state.affect_dynamics.variability, `turn ${s.turn}`).toBeGreaterThan(0.01);
    }
    for (const s of samples) {
      for (const m of ['V', 'A', 'D'] as const) expect(Math.abs(s.snap.state.emotion[m]), `turn ${s.turn} ${m}`).toBeLessThan(0.95);
    }
  });
});

describe('a long conversation without ticks', () => {
  it('does not pile emotion up at the bounds: 60 identical messages in a row', () => {
    for (const text of ['You did a really great job today!', 'You are a useless idiot.', 'If you cross me again I will hurt you.', 'I feel so sad and lonely since my dog died.']) {
      const config = psyche.normalizeConfig({}, 'ada');
      const snap = psyche.create(config, 's', 0);
      let peak = 0;
      for (let i = 0; i < 60; i++) {
        const e = psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source: 'bo', text, timestamp: 0 }).emotion;
        peak = Math.max(peak, Math.abs(e.V), Math.abs(e.A), Math.abs(e.D));
      }
      expect(peak, text).toBeLessThan(0.9);
    }
  });
});
