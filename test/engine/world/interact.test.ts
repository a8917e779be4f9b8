// Interact (docs/engine.md, "Worlds": Interact): an action's appraisal and stimulus reach the target
// persona as a percept of kind action; the exchange is logged under the action's name.
import { describe, expect, it } from 'vitest';
import { actionOrFail, allActions, chat, createAction, deleteAction, interact } from '../../../reference/engine/world/index.ts';
import { errorCode, harbour, persona, snapshotText, T0 } from './helpers.ts';

const act = (w: ReturnType<typeof harbour>, id: string, target = 'mara', actor = 'visitor') => interact(w, actionOrFail(w, id), { actor, target });

describe('interact', () => {
  it('the default actions', () => {
    const w = harbour();
    expect(allActions(w).map((a) => a.id)).toEqual(['greet', 'compliment', 'comfort', 'gift', 'ignore', 'insult', 'threaten']);
    expect(allActions(w).every((a) => a.custom === false)).toBe(true);
  });

  it('the target perceives the action with its appraisal; it is logged under the action name and counted', () => {
    const w = harbour();
    const r = act(w, 'greet');
    expect(r.result).toMatchObject({ actionId: 'greet', entityName: 'mara', affected: [] });
    expect(r.result.response.memoryEpisode).toMatchObject({
      context: 'A friendly greeting.', sourceEntity: 'ent-4', timestamp: T0,
      appraisal: { goal_relevance: 0.3, goal_congruence: 0.3, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0.5 },
    });
    expect(r.logged).toEqual([expect.objectContaining({ type: 'greet', spaceId: 'dock', sourceEntity: 'visitor', targetEntity: 'mara', payload: { actionId: 'greet' } })]);
    expect(w.progression.eventCounts).toEqual({ greet: 1 });
    // Bystanders do not react to an action.
    expect(persona(w, 'olek').state.emotion_history).toHaveLength(1);
  });

  it('pleasant actions raise valence, hostile ones lower it', () => {
    for (const [id, sign] of [['greet', 1], ['compliment', 1], ['comfort', 1], ['gift', 1], ['ignore', -1], ['insult', -1], ['threaten', -1]] as const) {
      const w = harbour();
      const v = act(w, id).result.response.emotion.V;
      expect(Math.sign(v), id).toBe(sign);
    }
  });

  it('an action is caused by its actor: an insult angers (dominance up) as an insulting chat does; a threat, out of control, frightens', () => {
    const dominance = (run: (w: ReturnType<typeof harbour>) => { result: { response: { emotion: { D: number } } } }) => {
      const w = harbour();
      return { before: persona(w, 'mara').state.emotion.D, after: run(w).result.response.emotion.D };
    };
    const insult = dominance((w) => act(w, 'insult'));
    expect(insult.after).toBeGreaterThan(insult.before);
    const said = dominance((w) => chat(w, { from: 'visitor', to: 'mara', message: 'You are a stupid, worthless idiot and I hate you.' }));
    expect(said.after).toBeGreaterThan(said.before);
    const threat = dominance((w) => act(w, 'threaten'));
    expect(threat.after).toBeLessThan(threat.before);
  });

  it('the stimulus acts: compliment feeds competence and relatedness, threaten drains the body budget', () => {
    const w = harbour();
    act(w, 'compliment', 'mara');
    expect(persona(w, 'mara').state.need_state.competence).toBeGreaterThan(0.69);
    expect(persona(w, 'mara').state.need_state.relatedness).toBeGreaterThan(0.69);
    act(w, 'threaten', 'olek');
    expect(persona(w, 'olek').state.body_budget).toBeLessThan(0.9);
  });

  it('a custom action works like a default one and can be deleted; defaults cannot', () => {
    const w = harbour();
    const hug = createAction(w, { name: 'hug', description: 'A warm hug.', appraisal: { goal_congruence: 0.9 } });
    expect(hug).toMatchObject({ id: 'act-5', custom: true, appraisal: {
      goal_congruence: 0.9, goal_relevance: 0.5, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0,
    } });
    const r = act(w, 'act-5');
    expect(r.logged[0].type).toBe('hug');
    expect(r.result.response.emotion.V).toBeGreaterThan(0);
    expect(errorCode(() => deleteAction(w, 'greet'))).toBe('ACTION_NOT_DELETABLE');
    deleteAction(w, 'act-5');
    expect(errorCode(() => actionOrFail(w, 'act-5'))).toBe('ACTION_NOT_FOUND');
  });

  it('unknown actor: ENTITY_NOT_FOUND; a user target: VALIDATION_ERROR; nothing moves', () => {
    const w = harbour();
    const before = snapshotText(w);
    expect(errorCode(() => act(w, 'greet', 'mara', 'ghost'))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => act(w, 'greet', 'ghost'))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => act(w, 'greet', 'visitor'))).toBe('VALIDATION_ERROR');
    expect(snapshotText(w)).toBe(before);
  });
});
