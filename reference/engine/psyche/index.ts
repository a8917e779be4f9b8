// The emotion model of one persona (see model.ts for the boundary and docs/engine.md for the rules).
import type { PsycheModel } from './model.ts';
import { ENGINE_VERSION, normalizeConfig } from './defaults.ts';
import { create } from './create.ts';
import { perceive } from './perceive.ts';
import { witness } from './contagion.ts';
import { override } from './dynamics.ts';
import { elapse } from './elapse.ts';
import { labelOf } from './discrete.ts';
import { view, contextState, promptLines, brief } from './views.ts';

export const psyche: PsycheModel = {
  version: ENGINE_VERSION,
  normalizeConfig,
  create,
  perceive,
  elapse,
  override,
  witness,
  discrete: labelOf,
  view,
  contextState,
  promptLines,
  brief,
};

export type { Percept, PerceiveOutcome, PersonaBrief, PsycheModel } from './model.ts';
export type { BriefWorld } from './views.ts';
export { repair } from './create.ts';
export { DERIVE } from './appraisal.ts';
