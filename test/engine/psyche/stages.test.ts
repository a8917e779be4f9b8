// Soul stages: forced stages, load climbing the ladder, rest stepping down.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { accumulate, MAX_STAGE, STAGES, stageState } from '../../../reference/engine/psyche/stages.ts';
import { chat, event, INSULT, persona, T0 } from './helpers.ts';

describe('soul stages', () => {
  it('soulStageForce sets the stage and reports the transition', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, event('trauma', { stimulus: { soulStageForce: 3 } }));
    expect(snap.state.soul_stage.id).toBe(3);
    expect(snap.state.soul_stage.name).toBe(STAGES[3].name);
    expect(snap.state.soul_stage.blend_table).toEqual(STAGES[3].blend_table);
    expect(r.stageTransition).toBe(`${STAGES[0].name} -> ${STAGES[3].name}`);
    const same = psyche.perceive(snap, config, event('again', { stimulus: { soulStageForce: 3 } }));
    expect(same.stageTransition).toBeUndefined();
    psyche.perceive(snap, config, event('big', { stimulus: { soulStageForce: 99 } }));
    expect(snap.state.soul_stage.id).toBe(MAX_STAGE);
    psyche.perceive(snap, config, event('neg', { stimulus: { soulStageForce: -5 } }));
    expect(snap.state.soul_stage.id).toBe(0);
  });

  it('a forced stage starts afresh, even the current one, and the forcing percept adds no load', () => {
    const { config, snap } = persona();
    psyche.perceive(snap, config, chat(INSULT));
    expect(snap.state.soul_stage.cumulative_load).toBeGreaterThan(0);
    expect(snap.state.soul_stage.turns_in_stage).toBe(1);
    // A shock that would add load, forcing the stage the persona is already in.
    psyche.perceive(snap, config, event('reset', { text: INSULT, stimulus: { soulStageForce: snap.state.soul_stage.id } }));
    expect(snap.state.soul_stage.cumulative_load).toBe(0);
    expect(snap.state.soul_stage.turns_in_stage).toBe(0);
    psyche.perceive(snap, config, event('up', { text: INSULT, stimulus: { soulStageForce: 2 } }));
    expect(snap.state.soul_stage).toMatchObject({ id: 2, cumulative_load: 0, turns_in_stage: 0 });
  });

  it('accumulated load climbs one stage at a time and counts turns', () => {
    let s = stageState(0);
    s = accumulate(s, 1, 0, true).stage;
    expect(s.turns_in_stage).toBe(1);
    expect(s.cumulative_load).toBe(1);
    const r = accumulate(s, 100, 0, true);
    expect(r.stage.id).toBe(1);
    expect(r.transition).toBe(`${STAGES[0].name} -> ${STAGES[1].name}`);
    expect(r.stage.cumulative_load).toBeLessThan(STAGES[1].tolerance);
    const down = accumulate(stageState(2, 0.1), 0, 1, false);
    expect(down.stage.id).toBe(1);
    expect(down.stage.cumulative_load).toBeCloseTo(STAGES[1].tolerance / 2, 6);
  });

  it('repeated insults move the persona up the ladder; rest brings it back down', () => {
    const { config, snap } = persona();
    const transitions: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = psyche.perceive(snap, config, chat(INSULT));
      if (r.stageTransition) transitions.push(r.stageTransition);
    }
    expect(transitions.length).toBeGreaterThan(0);
    expect(snap.state.soul_stage.id).toBeGreaterThan(0);
    const high = snap.state.soul_stage.id;
    psyche.elapse(snap, config, 7 * 86400, T0 + 1e9);
    expect(snap.state.soul_stage.id).toBeLessThan(high);
  });
});
