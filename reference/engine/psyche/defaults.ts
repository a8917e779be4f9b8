// Defaults of a persona configuration (SPEC.md: PersonaConfig) and normalisation of client input.
import type { Goal, PersonaConfig } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { fin } from './util.ts';

export const ENGINE_VERSION = 'psyche-2.2.0';

export const DEFAULT_IDENTITY = {
  role: 'character',
  speakingStyle: 'plain',
  culturalIdentity: 'unspecified',
} as const;

/** Reflection triggers (see reflection.ts): change of VAD since the last reflection, prediction error, turns. */
export const DEFAULT_REFLECTION = { vadDeltaThreshold: 0.5, predictionErrorThreshold: 0.35, turnFallback: 10 } as const;

export const DEFAULT_GOAL_PRIORITY = 0.5;
export const GOAL_STATUS = { active: 'active', achieved: 'achieved', abandoned: 'abandoned', dormant: 'dormant' } as const;

const str = (x: unknown, fallback: string): string => (typeof x === 'string' ? x : fallback);
const strs = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);
const isObj = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

function goal(input: unknown, i: number): Goal {
  const g = isObj(input) ? input : {};
  return {
    id: str(g.id, `goal-${i + 1}`),
    content: str(g.content, ''),
    priority: fin(g.priority, DEFAULT_GOAL_PRIORITY),
    mutable: typeof g.mutable === 'boolean' ? g.mutable : true,
    status: str(g.status, GOAL_STATUS.active),
  };
}

/**
 * Fills every default. Members of closed objects are rebuilt from the known fields (unknown ones
 * dropped); the top level is open, so extra members the client sent are kept as they are.
 */
export function normalizeConfig(input: DeepPartial<PersonaConfig> | undefined, name: string): PersonaConfig {
  const src: Record<string, unknown> = isObj(input) ? { ...input } : {};
  const p = isObj(src.personality) ? src.personality : {};
  const id = isObj(src.identity) ? src.identity : {};
  const r = isObj(src.reflection) ? src.reflection : {};
  const trait = (k: string) => fin(p[k], 0.5);
  return {
    ...src,
    personality: { O: trait('O'), C: trait('C'), E: trait('E'), A: trait('A'), N: trait('N'), H: trait('H') },
    identity: {
      name: str(id.name, name),
      role: str(id.role, DEFAULT_IDENTITY.role),
      speakingStyle: str(id.speakingStyle, DEFAULT_IDENTITY.speakingStyle),
      culturalIdentity: str(id.culturalIdentity, DEFAULT_IDENTITY.culturalIdentity),
      coreValues: strs(id.coreValues),
    },
    goals: Array.isArray(src.goals) ? src.goals.map(goal) : [],
    type: str(src.type, 'persona'),
    reflection: {
      vadDeltaThreshold: fin(r.vadDeltaThreshold, DEFAULT_REFLECTION.vadDeltaThreshold),
      predictionErrorThreshold: fin(r.predictionErrorThreshold, DEFAULT_REFLECTION.predictionErrorThreshold),
      turnFallback: fin(r.turnFallback, DEFAULT_REFLECTION.turnFallback),
    },
  } as PersonaConfig;
}
