// Actions an entity performs on a persona (interact). Defaults exist in every world; custom ones are
// stored per world. Each carries the appraisal and stimulus it applies.
import type { Appraisal, Stimulus } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { DERIVE } from '../psyche/index.ts';
import { nextId } from './entities.ts';
import { fail } from './fail.ts';
import type { ActionRecord, WorldDoc } from './model.ts';

// An action is caused by its actor, another than the persona that perceives it: agency is the
// psyche's own value for an action by another (docs/engine.md, appraisal derivation).
const appraisal = (congruence: number, norm: number, relevance = 0.6): Appraisal => ({
  goal_relevance: relevance, goal_congruence: congruence, expectedness: 0.5, controllability: 0.5,
  agency: DERIVE.AGENCY_OTHER.action, norm_compatibility: norm,
});
const def = (id: string, description: string, a: Appraisal, stimulus: Stimulus = {}): ActionRecord =>
  ({ id, name: id, description, custom: false, appraisal: a, stimulus });

export const DEFAULT_ACTIONS: readonly ActionRecord[] = [
  def('greet', 'A friendly greeting.', appraisal(0.3, 0.5, 0.3)),
  def('compliment', 'Sincere praise.', appraisal(0.7, 0.6), { needsDelta: { autonomy: 0, competence: 0.1, relatedness: 0.1 } }),
  def('comfort', 'Consolation and support.', appraisal(0.6, 0.7), { needsDelta: { autonomy: 0, competence: 0, relatedness: 0.15 } }),
  def('gift', 'A present.', appraisal(0.8, 0.5, 0.5)),
  def('ignore', 'Deliberately ignoring the persona.', appraisal(-0.4, -0.3, 0.4), { needsDelta: { autonomy: 0, competence: 0, relatedness: -0.1 } }),
  def('insult', 'A personal insult.', appraisal(-0.8, -0.8, 0.8), { needsDelta: { autonomy: 0, competence: -0.1, relatedness: -0.1 } }),
  def('threaten', 'A threat of harm.', { ...appraisal(-0.9, -0.9, 0.9), controllability: 0.1 }, { bodyBudgetDelta: -0.1 }),
];

export function allActions(world: WorldDoc): ActionRecord[] {
  return [...DEFAULT_ACTIONS, ...world.customActions];
}

export function actionOrFail(world: WorldDoc, id: string): ActionRecord {
  const action = allActions(world).find((a) => a.id === id);
  if (!action) throw fail('ACTION_NOT_FOUND', `action '${id}' does not exist in this world`);
  return action;
}

export function createAction(world: WorldDoc, body: {
  name: string; description?: string; appraisal?: DeepPartial<Appraisal>; stimulus?: DeepPartial<Stimulus>;
}): ActionRecord {
  const action: ActionRecord = {
    id: nextId(world, 'act'), name: body.name, description: body.description ?? '', custom: true,
    // Members not given are filled once, here, with fixed values: the stored action is complete.
    appraisal: { ...appraisal(0, 0, 0.5), ...body.appraisal } as Appraisal,
    stimulus: (body.stimulus ?? {}) as Stimulus,
  };
  world.customActions.push(action);
  return action;
}

export function deleteAction(world: WorldDoc, id: string): void {
  if (DEFAULT_ACTIONS.some((a) => a.id === id)) throw fail('ACTION_NOT_DELETABLE', `action '${id}' is a default action`);
  const before = world.customActions.length;
  world.customActions = world.customActions.filter((a) => a.id !== id);
  if (world.customActions.length === before) throw fail('ACTION_NOT_FOUND', `action '${id}' does not exist in this world`);
}
