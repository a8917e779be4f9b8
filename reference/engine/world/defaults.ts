// Defaults the reference fills where a request leaves members out (SPEC.md does not say which
// members are required). Each default is listed in docs/interface-choices.md.
import type { Environment, InteractionSettings, WorldDefinition } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { deleteOwn, getOwn, hasOwn, setOwn } from '../keyed.ts';

export const DEFAULT_SPACE_ID = 'main';
export const DEFAULT_SPACE_CAPACITY = 100;
export const DEFAULT_PHASE = 'beginning';

/** A full definition from a partial one. Facts without an id get `fact-N`, triggers without an id `trigger-N`. */
export function normalizeDefinition(input: DeepPartial<WorldDefinition>): WorldDefinition {
  const i = input ?? {};
  const knowledgeVisibility = i.knowledge?.defaultVisibility ?? 'public';
  const initialPhase = i.progression?.initialPhase ?? DEFAULT_PHASE;
  const phases = Object.fromEntries(Object.entries(i.progression?.phases ?? {}).map(([name, p]) => [name, {
    description: p?.description ?? '', normMapOverride: numbers(p?.normMapOverride),
  }]));
  if (!hasOwn(phases, initialPhase)) setOwn(phases, initialPhase, { description: '', normMapOverride: {} });
  const out: WorldDefinition = {
    ...i,
    identity: { ...i.identity, name: i.identity?.name ?? 'Untitled world', description: i.identity?.description ?? '' },
    rules: {
      physics: booleans(i.rules?.physics),
      social: {
        norms: strings(i.rules?.social?.norms), taboos: strings(i.rules?.social?.taboos),
        hierarchies: strings(i.rules?.social?.hierarchies),
      },
      narrative: { ...(i.rules?.narrative ?? {}) },
    },
    culture: {
      coreValues: strings(i.culture?.coreValues),
      normMap: numbers(i.culture?.normMap),
      socialProtocol: {
        greetingStyle: i.culture?.socialProtocol?.greetingStyle ?? 'neutral',
        addressSystem: i.culture?.socialProtocol?.addressSystem ?? 'first-name',
        tabooTopics: strings(i.culture?.socialProtocol?.tabooTopics),
      },
    },
    topology: {
      connections: (i.topology?.connections ?? []).map((c) => ({
        from: c?.from ?? DEFAULT_SPACE_ID, to: c?.to ?? DEFAULT_SPACE_ID, distance: c?.distance ?? 1,
        traversalTime: c?.traversalTime ?? 0, accessibility: c?.accessibility ?? 'open', bidirectional: c?.bidirectional ?? true,
      })),
    },
    time: { type: i.time?.type ?? 'realtime', ratio: i.time?.ratio ?? 1 },
    knowledge: {
      defaultVisibility: knowledgeVisibility,
      facts: (i.knowledge?.facts ?? []).map((f, n) => ({
        id: f?.id ?? `fact-${n + 1}`, content: f?.content ?? '', visibility: f?.visibility ?? knowledgeVisibility,
        knownBy: strings(f?.knownBy),
      })),
    },
    progression: {
      initialPhase,
      phases,
      triggers: (i.progression?.triggers ?? []).map((t, n) => ({
        id: t?.id ?? `trigger-${n + 1}`,
        condition: {
          type: t?.condition?.type ?? 'event_count', eventType: t?.condition?.eventType ?? '',
          threshold: t?.condition?.threshold ?? 1,
        },
        targetPhase: t?.targetPhase ?? initialPhase,
        oneShot: t?.oneShot ?? true,
      })),
    },
  };
  return out;
}

/**
 * PATCH semantics: JSON merge (RFC 7396) of the stored definition with the patch, then normalized.
 * Arrays replace; objects merge; null deletes a member of an open object.
 */
export function mergeDefinition(current: WorldDefinition, patch: DeepPartial<WorldDefinition>): WorldDefinition {
  return normalizeDefinition(mergePatch(current, patch) as DeepPartial<WorldDefinition>);
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlain(patch)) return patch;
  const out: Record<string, unknown> = isPlain(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) deleteOwn(out, k);
    else setOwn(out, k, mergePatch(getOwn(out, k), v));
  }
  return out;
}

export function defaultEnvironment(): Environment {
  return { atmosphere: 'calm', lighting: 'daylight', soundscape: [], weather: 'clear', timeOfDay: 'morning' };
}

export function defaultInteraction(): InteractionSettings {
  return { groupAwareness: true, emotionalContagion: false, propagation: 'none' };
}

export const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const numbers = (v: unknown): Record<string, number> =>
  Object.fromEntries(Object.entries(isPlain(v) ? v : {}).filter((e): e is [string, number] => typeof e[1] === 'number'));
const booleans = (v: unknown): Record<string, boolean> =>
  Object.fromEntries(Object.entries(isPlain(v) ? v : {}).filter((e): e is [string, boolean] => typeof e[1] === 'boolean'));
