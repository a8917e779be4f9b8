// Progression (docs/engine.md, "Worlds": Progression): every logged event counts; event_count
// triggers fire once (oneShot) or at every multiple of their threshold; firing toward the current
// phase changes nothing; a PATCH of the definition refreshes triggers and phases, keeps counts.
import { describe, expect, it } from 'vitest';
import {
  actionOrFail, advance, chat, context, dispatchEvent, interact, mergeDefinition, syncProgression,
} from '../../../reference/engine/world/index.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import type { Trigger } from '../../../contract/resources.ts';
import { harbour, T0 } from './helpers.ts';

const PHASES = { calm: { description: '' }, storm: { description: '', normMapOverride: { theft: -0.2 } }, flood: { description: '' } };
const world = (triggers: DeepPartial<Trigger>[]) => harbour({ progression: { initialPhase: 'calm', phases: PHASES, triggers } });
const trig = (id: string, eventType: string, threshold: number, targetPhase: string, oneShot: boolean): DeepPartial<Trigger> =>
  ({ id, condition: { type: 'event_count', eventType, threshold }, targetPhase, oneShot });
const send = (w: ReturnType<typeof harbour>, type: string) => dispatchEvent(w, { type, spaceId: 'tower' }).result.phaseChanged;

describe('progression', () => {
  it('every logged event counts: dispatched, chat, interact and delivered pending events', () => {
    const w = world([]);
    dispatchEvent(w, { type: 'bell' });
    chat(w, { from: 'visitor', to: 'mara', message: 'hi' });
    interact(w, actionOrFail(w, 'gift'), { actor: 'visitor', target: 'olek' });
    dispatchEvent(w, { type: 'bell', timestamp: T0 + 30_000 });
    expect(w.progression.eventCounts).toEqual({ bell: 1, chat: 1, gift: 1 });
    advance(w, 60, 'tick');
    expect(w.progression.eventCounts).toEqual({ bell: 2, chat: 1, gift: 1 });
  });

  it('oneShot: fires when the count first reaches the threshold, never again', () => {
    const w = world([trig('t-storm', 'thunder', 3, 'storm', true), trig('t-calm', 'sun', 1, 'calm', true)]);
    expect([send(w, 'thunder'), send(w, 'thunder')]).toEqual([undefined, undefined]);
    expect(send(w, 'thunder')).toBe('storm');
    const p = w.progression;
    expect(p.currentPhase).toBe('storm');
    expect(p.firedTriggerIds).toEqual(['t-storm']);
    expect(p.phaseHistory).toEqual([
      { phase: 'calm', enteredAt: T0, exitedAt: T0 },
      { phase: 'storm', enteredAt: T0, triggerId: 't-storm' },
    ]);
    expect(send(w, 'sun')).toBe('calm');
    for (let i = 0; i < 6; i++) expect(send(w, 'thunder')).toBeUndefined();
    expect(p.currentPhase).toBe('calm');
    expect(p.phaseHistory.map((h) => h.phase)).toEqual(['calm', 'storm', 'calm']);
    expect(p.firedTriggerIds).toEqual(['t-storm', 't-calm']);
  });

  it('entering and exit times are world times', () => {
    const w = world([trig('t-storm', 'thunder', 1, 'storm', true)]);
    advance(w, 120, 'jump');
    send(w, 'thunder');
    expect(w.progression.phaseHistory).toEqual([
      { phase: 'calm', enteredAt: T0, exitedAt: T0 + 120_000 },
      { phase: 'storm', enteredAt: T0 + 120_000, triggerId: 't-storm' },
    ]);
  });

  it('not oneShot: fires at every multiple of the threshold (N, 2N, …), re-arming', () => {
    const w = world([trig('t-flood', 'high', 2, 'flood', false), trig('t-calm', 'low', 2, 'calm', false)]);
    const seen: Array<string | undefined> = [];
    for (let n = 0; n < 8; n++) seen.push(send(w, n % 2 ? 'low' : 'high'));
    // high at n = 0, 2, 4, 6 (counts 1–4 → fires at 2 and 4); low likewise.
    expect(seen).toEqual([undefined, undefined, 'flood', 'calm', undefined, undefined, 'flood', 'calm']);
    expect(w.progression.firedTriggerIds).toEqual(['t-flood', 't-calm']); // recorded once each
    expect(w.progression.phaseHistory.map((h) => h.phase)).toEqual(['calm', 'flood', 'calm', 'flood', 'calm']);
    // Counts 5 and 7 are not multiples: no firing.
    send(w, 'high');
    expect(w.progression.currentPhase).toBe('calm');
  });

  it('firing toward the current phase changes nothing but records the trigger as fired', () => {
    const w = world([trig('t-same', 'bell', 1, 'calm', true), trig('t-again', 'bell', 2, 'calm', false)]);
    expect(send(w, 'bell')).toBeUndefined();
    expect(send(w, 'bell')).toBeUndefined();
    expect(w.progression.currentPhase).toBe('calm');
    expect(w.progression.phaseHistory).toEqual([{ phase: 'calm', enteredAt: T0 }]);
    expect(w.progression.firedTriggerIds).toEqual(['t-same', 't-again']);
  });

  it('a threshold of 0 or below never fires; other trigger types are ignored', () => {
    const w = world([trig('t-zero', 'bell', 0, 'storm', true), trig('t-neg', 'bell', -1, 'storm', false),
      { id: 't-other', condition: { type: 'time_elapsed', eventType: 'bell', threshold: 1 }, targetPhase: 'storm', oneShot: true }]);
    for (let i = 0; i < 3; i++) expect(send(w, 'bell')).toBeUndefined();
    expect(w.progression.firedTriggerIds).toEqual([]);
  });

  it('chat, interact and a tick delivering a pending event report phaseChanged', () => {
    const w = world([trig('t1', 'chat', 1, 'storm', true), trig('t2', 'gift', 1, 'flood', true), trig('t3', 'bell', 1, 'calm', true)]);
    expect(chat(w, { from: 'visitor', to: 'mara', message: 'hi' }).result.phaseChanged).toBe('storm');
    expect(interact(w, actionOrFail(w, 'gift'), { actor: 'visitor', target: 'olek' }).result.phaseChanged).toBe('flood');
    dispatchEvent(w, { type: 'bell', timestamp: T0 + 10_000 });
    expect(advance(w, 5, 'tick').result.phaseChanged).toBeUndefined();
    expect(advance(w, 60, 'tick').result.phaseChanged).toBe('calm');
  });

  it('the current phase\'s norm override shows in the context culture', () => {
    const w = world([trig('t-storm', 'thunder', 1, 'storm', true)]);
    expect(context(w, 'mara').worldCulture.normMap).toEqual({ theft: -0.9, gift: 0.6 });
    send(w, 'thunder');
    expect(context(w, 'mara').worldCulture.normMap).toEqual({ theft: -0.2, gift: 0.6 });
    expect(context(w, 'mara').currentPhase).toBe('storm');
  });

  it('PATCH of the definition (merge, then sync): triggers and phases refresh, counts and history stay', () => {
    const w = world([trig('t-storm', 'thunder', 5, 'storm', true)]);
    send(w, 'thunder');
    send(w, 'thunder');
    // The patch replaces the triggers (arrays replace) and adds a phase.
    w.definition = mergeDefinition(w.definition, {
      progression: { phases: { drought: { description: 'dry' } }, triggers: [trig('t-drought', 'thunder', 3, 'drought', true)] },
    });
    syncProgression(w);
    expect(w.progression.triggers.map((t) => t.id)).toEqual(['t-drought']);
    expect(Object.keys(w.progression.phases).sort()).toEqual(['calm', 'drought', 'flood', 'storm']);
    expect(w.progression.eventCounts).toEqual({ thunder: 2 });
    expect(w.progression.phaseHistory).toEqual([{ phase: 'calm', enteredAt: T0 }]);
    expect(send(w, 'thunder')).toBe('drought'); // count 3 reaches the new threshold
    expect(w.progression.eventCounts).toEqual({ thunder: 3 });
    // The old trigger is gone: its threshold (5) no longer fires.
    send(w, 'thunder');
    expect(send(w, 'thunder')).toBeUndefined();
    expect(w.progression.currentPhase).toBe('drought');
  });

  it('a oneShot trigger added after its threshold was passed fires at the next event of its type', () => {
    const w = world([]);
    for (let i = 0; i < 4; i++) send(w, 'thunder');
    w.definition = mergeDefinition(w.definition, { progression: { triggers: [trig('t-late', 'thunder', 2, 'storm', true)] } });
    syncProgression(w);
    expect(send(w, 'thunder')).toBe('storm');
  });
});
