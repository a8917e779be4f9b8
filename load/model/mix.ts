// What the load is made of: the operations users hit, with weights, and the request each needs,
// built from seeded data (fixtures/) and the ids the setup created. Tags and reports name each
// operation by its operationId. Method and path are repeated from contract/operations.ts so that
// the k6 bundle does not carry the contract's schema library; a test keeps them equal.
import type { CreateWorldBody } from '../../fixtures/worlds.ts';
import type { PersonaConfigInput } from '../../fixtures/personas.ts';
import type { EventInput } from '../../fixtures/events.ts';

/** Seeded request data, made before the run (load/data.ts; baked into the k6 bundle at build). */
export interface SeedData {
  seed: number;
  worlds: CreateWorldBody[];
  personas: PersonaConfigInput[];
  messages: string[];
  /** Events valid for each world (its entity names), by world index. */
  worldEvents: EventInput[][];
  /** Events for standalone personas (no entity names). */
  personaEvents: EventInput[];
}

/** What the setup created: ids, and the entity names each world was created with. */
export interface Fixture {
  worlds: Array<{ id: string; users: string[]; personas: string[] }>;
  personaIds: string[];
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LoadRequest {
  operationId: string;
  method: Method;
  /** Path with parameters filled in and the query string, e.g. /worlds/w-1/chat. */
  path: string;
  body?: unknown;
}

export interface MixEntry {
  operationId: string;
  method: Method;
  /** The contract's path template. */
  path: string;
  /** Share of the requests, out of the sum of all weights. */
  weight: number;
  /** Why this share: what a user of the service does. */
  why: string;
  build(k: number, data: SeedData, fx: Fixture): { params: Record<string, string>; query?: Record<string, string>; body?: unknown };
}

const at = <T>(list: readonly T[], k: number): T => list[k % list.length];
const worldOf = (fx: Fixture, k: number) => at(fx.worlds, k);
const worldIndex = (fx: Fixture, k: number) => k % fx.worlds.length;

export const MIX: readonly MixEntry[] = [
  {
    operationId: 'chat', method: 'POST', path: '/worlds/{id}/chat', weight: 24,
    why: 'the product: a user talks to a character',
    build: (k, d, fx) => {
      const w = worldOf(fx, k);
      return { params: { id: w.id }, body: { from: w.users[0], to: at(w.personas, k >> 1), message: at(d.messages, k) } };
    },
  },
  {
    operationId: 'worldContext', method: 'POST', path: '/worlds/{id}/context', weight: 12,
    why: 'fetched before most LLM turns',
    build: (k, _d, fx) => { const w = worldOf(fx, k); return { params: { id: w.id }, body: { entityName: at(w.personas, k >> 1) } }; },
  },
  {
    operationId: 'getWorld', method: 'GET', path: '/worlds/{id}', weight: 10,
    why: 'clients re-read the world they show',
    build: (k, _d, fx) => ({ params: { id: worldOf(fx, k).id } }),
  },
  {
    operationId: 'dispatchEvent', method: 'POST', path: '/worlds/{id}/events', weight: 8,
    why: 'game logic pushes events to characters',
    build: (k, d, fx) => ({ params: { id: worldOf(fx, k).id }, body: at(d.worldEvents[worldIndex(fx, k)], k >> 1) }),
  },
  {
    operationId: 'queryWorld', method: 'POST', path: '/worlds/{id}/query', weight: 8,
    why: 'dashboards and agents read the world state',
    build: (k, _d, fx) => ({ params: { id: worldOf(fx, k).id }, body: {} }),
  },
  {
    operationId: 'getPersonaState', method: 'GET', path: '/personas/{id}/state', weight: 8,
    why: 'UIs poll a character\'s mood',
    build: (k, _d, fx) => ({ params: { id: at(fx.personaIds, k) } }),
  },
  {
    operationId: 'tickWorld', method: 'POST', path: '/worlds/{id}/tick', weight: 6,
    why: 'a game loop advances time',
    build: (k, _d, fx) => ({ params: { id: worldOf(fx, k).id }, body: { seconds: 1 + (k % 30) } }),
  },
  {
    operationId: 'listWorlds', method: 'GET', path: '/worlds', weight: 6,
    why: 'the first screen of every client',
    build: () => ({ params: {}, query: { limit: '20' } }),
  },
  {
    operationId: 'perceive', method: 'POST', path: '/personas/{id}/perceive', weight: 5,
    why: 'standalone characters react to events',
    build: (k, d, fx) => ({ params: { id: at(fx.personaIds, k) }, body: at(d.personaEvents, k >> 1) }),
  },
  {
    operationId: 'tickPersona', method: 'POST', path: '/personas/{id}/tick', weight: 5,
    why: 'standalone characters cool down over time',
    build: (k, _d, fx) => ({ params: { id: at(fx.personaIds, k) }, body: { seconds: 1 + (k % 60) } }),
  },
  {
    operationId: 'promptContext', method: 'POST', path: '/personas/{id}/prompt-context', weight: 4,
    why: 'the system prompt before each standalone LLM turn',
    build: (k, _d, fx) => ({ params: { id: at(fx.personaIds, k) } }),
  },
  {
    operationId: 'listWorldEvents', method: 'GET', path: '/worlds/{id}/events', weight: 4,
    why: 'history views read the event log',
    build: (k, _d, fx) => ({ params: { id: worldOf(fx, k).id }, query: { limit: '20' } }),
  },
];

export const MIX_TOTAL_WEIGHT = MIX.reduce((n, e) => n + e.weight, 0);

/**
 * The mix as a repeating sequence of entry indexes (smooth weighted round-robin): each cycle of
 * MIX_TOTAL_WEIGHT slots holds every entry exactly `weight` times, spread out, so any stretch
 * of the run (a phase, a second) carries the mix, not a random draw of it.
 */
export const MIX_CYCLE: readonly number[] = (() => {
  const current = MIX.map(() => 0);
  const cycle: number[] = [];
  for (let slot = 0; slot < MIX_TOTAL_WEIGHT; slot++) {
    let best = 0;
    MIX.forEach((e, i) => { current[i] += e.weight; if (current[i] > current[best]) best = i; });
    current[best] -= MIX_TOTAL_WEIGHT;
    cycle.push(best);
  }
  return cycle;
})();

const expand = (template: string, params: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));

/** Request k of the run: which operation (by the cycle) and its data (by k). */
export function requestAt(k: number, data: SeedData, fx: Fixture): LoadRequest {
  const entry = MIX[MIX_CYCLE[k % MIX_CYCLE.length]];
  // Data rotates by how many times this entry has come round, not by k, so that consecutive
  // requests of one operation use different worlds, personas and messages.
  const turn = Math.floor(k / MIX_CYCLE.length) * entry.weight + occurrencesBefore(k % MIX_CYCLE.length);
  const { params, query, body } = entry.build(turn, data, fx);
  const qs = query ? '?' + Object.keys(query).map((q) => `${encodeURIComponent(q)}=${encodeURIComponent(query[q])}`).join('&') : '';
  return { operationId: entry.operationId, method: entry.method, path: expand(entry.path, params) + qs, ...(body !== undefined ? { body } : {}) };
}

/** For slot s of the cycle: how many earlier slots hold the same entry. */
const OCCURRENCE: readonly number[] = MIX_CYCLE.map((entry, s) => MIX_CYCLE.slice(0, s).filter((e) => e === entry).length);
function occurrencesBefore(slot: number): number {
  return OCCURRENCE[slot];
}
