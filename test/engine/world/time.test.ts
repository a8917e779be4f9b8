// World time, tick steps and time-jumps (docs/engine.md, "Worlds": Time, Events).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { advance, dispatchEvent, worldPersona } from '../../../reference/engine/world/index.ts';
import { worldTime } from '../../../reference/engine/world/progression.ts';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { harbour, persona, T0 } from './helpers.ts';

// The steps each persona feels, read from the calls the world makes to the psyche (elapse to a
// time, perceive at a time), in call order; 0 is the persona's creation. (The emotion history no
// longer shows every step: time records a sample only when the emotion moved.)
let elapse: ReturnType<typeof vi.spyOn>, perceive: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  elapse = vi.spyOn(psyche, 'elapse');
  perceive = vi.spyOn(psyche, 'perceive');
});
afterEach(() => vi.restoreAllMocks());
const stamps = (_w: ReturnType<typeof harbour>, name: string): number[] => {
  const calls: Array<[number, number]> = [];
  elapse.mock.calls.forEach((c: unknown[], i: number) => {
    if ((c[1] as { identity: { name: string } }).identity.name === name) calls.push([elapse.mock.invocationCallOrder[i], (c[3] as number) - T0]);
  });
  perceive.mock.calls.forEach((c: unknown[], i: number) => {
    if ((c[1] as { identity: { name: string } }).identity.name === name) calls.push([perceive.mock.invocationCallOrder[i], (c[2] as { timestamp: number }).timestamp - T0]);
  });
  return [0, ...calls.sort((a, b) => a[0] - b[0]).map((c) => c[1])];
};
const strongBad = { goal_relevance: 1, goal_congruence: -1, expectedness: 0.5, controllability: 0.5, agency: 0, norm_compatibility: 0 };

describe('world time', () => {
  it('world time = createdAt + 1000 · elapsedTime; a tick advances by seconds × ratio', () => {
    const w = harbour({ time: { type: 'realtime', ratio: 2.5 } });
    expect(worldTime(w)).toBe(T0);
    const r = advance(w, 40, 'tick').result;
    expect(r.elapsedTime).toBe(100);
    expect(w.progression.elapsedTime).toBe(100);
    expect(worldTime(w)).toBe(T0 + 100_000);
    advance(w, 4, 'jump');
    expect(w.progression.elapsedTime).toBe(110);
    expect(persona(w, 'mara').state.lastUpdated).toBe(T0 + 110_000);
  });

  it('a ratio of 0 or below counts as 1', () => {
    for (const ratio of [0, -3]) {
      const w = harbour({ time: { type: 'realtime', ratio } });
      expect(advance(w, 30, 'tick').result.elapsedTime).toBe(30);
      expect(advance(w, 30, 'jump').result.elapsedTime).toBe(60);
    }
  });

  it('a tick moves in steps of at most 60 s: every persona feels each step', () => {
    const w = harbour();
    advance(w, 150, 'tick');
    for (const name of ['mara', 'olek', 'ines']) expect(stamps(w, name)).toEqual([0, 60_000, 120_000, 150_000]);
  });

  it('a long tick moves in steps of advance/100', () => {
    const w = harbour();
    advance(w, 10_000, 'tick');
    const s = stamps(w, 'mara');
    expect(s).toHaveLength(101); // creation and 100 steps
    expect(s.at(-1)).toBe(10_000_000);
    expect(s.at(-2)).toBe(9_900_000);
    expect(s[1]).toBe(100_000);
    // A persona at rest does not move: its history records no step at all.
    expect(persona(w, 'mara').state.emotion_history).toHaveLength(1);
  });

  it('a time-jump is one elapse of the whole advance', () => {
    const w = harbour();
    advance(w, 10_000, 'jump');
    expect(stamps(w, 'mara')).toEqual([0, 10_000_000]);
  });

  it('advance of 0 s moves nothing', () => {
    const w = harbour();
    const r = advance(w, 0, 'tick').result;
    expect(r).toEqual({ affected: [], events: [], elapsedTime: 0 });
    expect(stamps(w, 'mara')).toEqual([0]);
  });
});

describe('pending events', () => {
  it('an event stamped later is scheduled, not delivered, counted or logged', () => {
    const w = harbour();
    const r = dispatchEvent(w, { type: 'bell', spaceId: 'dock', timestamp: T0 + 90_000 });
    expect(r.result).toMatchObject({ type: 'bell', affected: [], scheduled: true, recipients: ['mara', 'olek'] });
    expect(r.logged).toEqual([]);
    expect(w.pendingEvents).toHaveLength(1);
    expect(w.progression.eventCounts).toEqual({});
    expect(w.recentEvents).toEqual([]);
  });

  it('a tick stops at the due time: the event is felt at its own time, with time before and after it', () => {
    const w = harbour();
    dispatchEvent(w, { type: 'bell', targetEntity: 'mara', timestamp: T0 + 90_000, appraisal: strongBad });
    expect(advance(w, 60, 'tick').result.events).toEqual([]);
    const r = advance(w, 240, 'tick').result;
    expect(r.events.map((e) => e.type)).toEqual(['bell']);
    expect(r.affected.map((a) => a.entityName)).toEqual(['mara']);
    expect(r.affected[0].response.memoryEpisode!.timestamp).toBe(T0 + 90_000);
    // Steps: 60 (first tick), then 90 (due time), the event itself, 150, …, 300.
    expect(stamps(w, 'mara')).toEqual([0, 60_000, 90_000, 90_000, 150_000, 210_000, 270_000, 300_000]);
    expect(w.pendingEvents).toEqual([]);
    expect(w.progression.eventCounts).toEqual({ bell: 1 });
  });

  it('a time-jump stops where an event comes due: it is felt at its time, in order, and then decays like a tick', () => {
    const ticked = harbour(), jumped = harbour();
    for (const w of [ticked, jumped]) dispatchEvent(w, { type: 'bell', targetEntity: 'mara', timestamp: T0 + 60_000, appraisal: strongBad });
    advance(ticked, 1800, 'tick');
    elapse.mockClear();
    perceive.mockClear(); // from here the calls are the jump's
    const r = advance(jumped, 1800, 'jump').result;
    expect(r.events.map((e) => e.type)).toEqual(['bell']);
    // Felt at its due time, then time went on to the end: the history runs forward.
    expect(stamps(jumped, 'mara')).toEqual([0, 60_000, 60_000, 1_800_000]); // elapse to the bell, the bell, elapse to the end
    const vTick = persona(ticked, 'mara').state.emotion.V, vJump = persona(jumped, 'mara').state.emotion.V;
    // The response is the moment of the bell; by the end of the jump the feeling has recovered.
    expect(vJump).toBeGreaterThan(r.affected[0].response.emotion.V + 0.02);
    expect(Math.abs(vJump - vTick)).toBeLessThan(0.02); // fewer steps than a tick, same dynamics
  });

  it('pending events are delivered in timestamp order, whatever the order of dispatch', () => {
    const w = harbour();
    dispatchEvent(w, { type: 'late', timestamp: T0 + 120_000 });
    dispatchEvent(w, { type: 'early', timestamp: T0 + 30_000 });
    dispatchEvent(w, { type: 'middle', timestamp: T0 + 60_000 });
    dispatchEvent(w, { type: 'never', timestamp: T0 + 900_000 });
    const r = advance(w, 200, 'jump').result;
    expect(r.events.map((e) => e.type)).toEqual(['early', 'middle', 'late']);
    expect(w.recentEvents.map((e) => e.type)).toEqual(['early', 'middle', 'late']);
    expect(w.pendingEvents.map((e) => e.type)).toEqual(['never']);
    expect(r.affected).toHaveLength(9); // three events × three personas
  });

  it('an event stamped in the past or now is delivered at once', () => {
    const w = harbour();
    advance(w, 100, 'jump');
    const r = dispatchEvent(w, { type: 'echo', targetEntity: 'olek', timestamp: T0 + 10_000 }).result;
    expect(r.affected.map((a) => a.entityName)).toEqual(['olek']);
    expect(r.affected[0].response.memoryEpisode!.timestamp).toBe(T0 + 10_000);
    expect(dispatchEvent(w, { type: 'now' }).result.events[0].timestamp).toBe(T0 + 100_000);
    expect(worldPersona(w, 'olek').entityId).toBe('ent-2');
  });
});
