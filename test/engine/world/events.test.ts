// Event dispatch (docs/engine.md, "Worlds": Events): recipients, validation before anything moves,
// what the recipient perceives (text, source, world-level trust, the current norm map).
import { describe, expect, it } from 'vitest';
import { dispatchEvent, mutate, upsertRelationship } from '../../../reference/engine/world/index.ts';
import { errorCode, harbour, names, persona, snapshotText, T0, WID } from './helpers.ts';

describe('event recipients', () => {
  it('targetEntity: only that persona', () => {
    const w = harbour();
    const r = dispatchEvent(w, { type: 'letter', targetEntity: 'ines', spaceId: 'dock' }).result;
    expect(names(r.affected)).toEqual(['ines']);
  });

  it('a target may be named by its id', () => {
    const w = harbour();
    expect(names(dispatchEvent(w, { type: 'letter', targetEntity: 'ent-2' }).result.affected)).toEqual(['olek']);
  });

  it('spaceId without target: every persona in that space (users are not recipients)', () => {
    const w = harbour();
    expect(names(dispatchEvent(w, { type: 'wave', spaceId: 'dock' }).result.affected)).toEqual(['mara', 'olek']);
    expect(names(dispatchEvent(w, { type: 'wave', spaceId: 'market' }).result.affected)).toEqual(['ines']);
    expect(dispatchEvent(w, { type: 'wave', spaceId: 'tower' }).result.affected).toEqual([]);
  });

  it('neither: every persona of the world', () => {
    const w = harbour();
    expect(names(dispatchEvent(w, { type: 'eclipse' }).result.affected)).toEqual(['mara', 'olek', 'ines']);
  });

  it('every recipient perceives it: one memory episode each, the event logged and counted once', () => {
    const w = harbour();
    const r = dispatchEvent(w, { type: 'eclipse' });
    expect(r.logged).toHaveLength(1);
    expect(r.result.events).toEqual(r.logged);
    expect(w.progression.eventCounts).toEqual({ eclipse: 1 });
    for (const n of ['mara', 'olek', 'ines']) expect((persona(w, n) as unknown as { psyche: { turn: number } }).psyche.turn).toBe(1);
  });
});

describe('event validation', () => {
  it('unknown source or target is ENTITY_NOT_FOUND, unknown space VALIDATION_ERROR, a user target VALIDATION_ERROR; nothing moves', () => {
    const w = harbour();
    const before = snapshotText(w);
    expect(errorCode(() => dispatchEvent(w, { type: 'x', sourceEntity: 'ghost' }))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => dispatchEvent(w, { type: 'x', targetEntity: 'ghost' }))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => dispatchEvent(w, { type: 'x', spaceId: 'moon' }))).toBe('VALIDATION_ERROR');
    expect(errorCode(() => dispatchEvent(w, { type: 'x', targetEntity: 'visitor' }))).toBe('VALIDATION_ERROR');
    // Checked before scheduling too.
    expect(errorCode(() => dispatchEvent(w, { type: 'x', targetEntity: 'ghost', timestamp: T0 + 60_000 }))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => dispatchEvent(w, { type: 'x', spaceId: 'moon', sourceEntity: 'mara' }))).toBe('VALIDATION_ERROR');
    expect(snapshotText(w)).toBe(before);
    expect(w.pendingEvents).toEqual([]);
  });
});

describe('what the recipient perceives', () => {
  it('text: the payload description, else the type; source: the source entity', () => {
    const w = harbour();
    const a = dispatchEvent(w, { type: 'storm_warning', targetEntity: 'mara', sourceEntity: 'visitor', payload: { description: 'A storm is coming tonight.' } }).result;
    expect(a.affected[0].response.memoryEpisode).toMatchObject({ context: 'A storm is coming tonight.', sourceEntity: 'ent-4' });
    const b = dispatchEvent(w, { type: 'storm_warning', targetEntity: 'mara' }).result;
    expect(b.affected[0].response.memoryEpisode).toMatchObject({ context: 'storm_warning', sourceEntity: 'world' });
    // A social percept: mara now has a persona-level relationship with the visitor.
    expect(Object.keys(persona(w, 'mara').relationships)).toEqual(['visitor']);
  });

  it('given appraisal members are honoured; the stimulus acts (vadOverride)', () => {
    const w = harbour();
    const r = dispatchEvent(w, {
      type: 'news', targetEntity: 'olek',
      appraisal: { goal_relevance: 0.9, goal_congruence: 0.7, expectedness: 0.2, controllability: 0.8, agency: 0, norm_compatibility: 0.4 },
      stimulus: { vadOverride: { V: 0.5, A: -0.25, D: 0.125 } },
    }).result;
    expect(r.affected[0].response.memoryEpisode!.appraisal).toEqual({ goal_relevance: 0.9, goal_congruence: 0.7, expectedness: 0.2, controllability: 0.8, agency: 0, norm_compatibility: 0.4 });
    expect(r.affected[0].response.emotion).toMatchObject({ V: 0.5, A: -0.25 });
  });

  it('the world-level trust of the source toward the recipient colours the appraisal', () => {
    const appraisalWith = (trust: number | undefined) => {
      const w = harbour();
      if (trust !== undefined) upsertRelationship(w, 'visitor', 'mara', { trust });
      // No affective word: the congruence is only the trust colouring, 0.35·(2·trust − 1).
      return dispatchEvent(w, { type: 'knock', sourceEntity: 'visitor', targetEntity: 'mara', payload: { description: 'a knock at the door' } })
        .result.affected[0].response.memoryEpisode!.appraisal.goal_congruence;
    };
    // First contact: no persona-level relationship yet, so trust is the world trust mapped to [0, 1].
    expect(appraisalWith(undefined)).toBe(0); // neither: 0.5
    expect(appraisalWith(0)).toBe(0); // the stranger default 0 is neutral
    expect(appraisalWith(1)).toBeCloseTo(0.35, 6);
    expect(appraisalWith(-1)).toBeCloseTo(-0.35, 6);
    expect(appraisalWith(0.5)).toBeCloseTo(0.35 * (2 * 0.75 - 1), 6);
  });

  it('the norm map of the culture, with the current phase override, gives norm_compatibility', () => {
    const w = harbour({
      progression: {
        initialPhase: 'calm',
        phases: { calm: { description: '' }, storm: { description: '', normMapOverride: { theft: -0.2 } } },
        triggers: [{ id: 't', condition: { type: 'event_count', eventType: 'thunder', threshold: 1 }, targetPhase: 'storm', oneShot: true }],
      },
    });
    const norm = () => dispatchEvent(w, { type: 'theft', targetEntity: 'mara' }).result.affected[0].response.memoryEpisode!.appraisal.norm_compatibility;
    expect(norm()).toBe(-0.9);
    expect(dispatchEvent(w, { type: 'thunder' }).result.phaseChanged).toBe('storm');
    expect(norm()).toBe(-0.2);
  });

  it('an event in a world that has no personas reaches nobody but is still logged and counted', () => {
    const w = harbour();
    mutate(w, WID, ['mara', 'olek', 'ines'].map((name) => ({ op: 'remove_entity', name })));
    const r = dispatchEvent(w, { type: 'silence' });
    expect(r.result.affected).toEqual([]);
    expect(r.logged.map((e) => e.type)).toEqual(['silence']);
    expect(w.progression.eventCounts.silence).toBe(1);
  });
});
