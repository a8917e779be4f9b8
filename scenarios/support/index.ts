// What a scenario file imports: check() and the expectations of the suite's core (suite/scenario/check.ts), the
// client, and the run's own data (named with the run id), made here so that each file makes its own.
import { Client } from '../../suite/http/client.ts';
import { expectFor, ok } from '../../suite/scenario/check.ts';
import { suiteConfig, type SuiteConfig } from '../../suite/data/config.ts';
import { nextCursor, pageSize, pagingOf } from './paging.ts';
import { documents } from '../../suite/checks/documents.ts';

export { Client, type Reply } from '../../suite/http/client.ts';
export { check, setup, ok, fails, expectFor, expectAlso, requires, notRun, skip } from '../../suite/scenario/check.ts';
export { bodyFor, minimalBody, role, servedBody, servedBodyWith, servedBodyProblem, unusable, type Role } from '../../suite/bodies/served.ts';
export { pagingOf, pageSize } from './paging.ts';
export const api = () => new Client();
export { excerpt } from '../../suite/data/exchange.ts';
export const config = (): SuiteConfig => suiteConfig();

/** A name that says which run made it, so leftovers can be traced and cleaned. */
export const named = (label: string) => `cf-${suiteConfig().runId} ${label}`;

/**
 * The items of a list result: the result itself when it is an array, else its one array member that
 * the served document names (or, where the document is silent, the only array member it has).
 * SPEC.md names the member only for GET /worlds (`worlds`); GET /personas is "list of personas".
 * Undefined when no list can be found: the caller fails or says "not run", never passes.
 */
export function listItems(operationId: string, result: unknown): unknown[] | undefined {
  if (Array.isArray(result)) return result;
  if (!result || typeof result !== 'object') return undefined;
  const op = documents().bundled.operation(operationId);
  const served = op && documents().served.operationAt(op.method, op.path);
  const key = served && documents().served.successKey(served.operationId);
  const declared = served && key ? documents().served.responseSchema(served.operationId, key) : undefined;
  const resultSchema = declared?.properties?.result;
  const named = Object.entries<Record<string, unknown>>(resultSchema?.properties ?? {}).filter(([, v]) => v?.type === 'array').map(([k]) => k);
  const arrays = Object.entries(result as Record<string, unknown>).filter(([, v]) => Array.isArray(v)).map(([k]) => k);
  const member = named.find((k) => arrays.includes(k)) ?? (arrays.length === 1 ? arrays[0] : undefined);
  return member ? ((result as Record<string, unknown[]>)[member]) : undefined;
}

/** Requests a check may have in flight at once when they do not depend on each other (all paced by the one pacer per key). */
export const IN_FLIGHT = 4;

/**
 * `fn` over every item, at most `limit` at a time, results in the items' order: a check of many
 * independent requests is bound by the target's latency divided by `limit`, not multiplied by its count.
 */
export async function inFlight<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, limit = IN_FLIGHT): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The id a listed record carries (`id`, or `worldId` / `personaId`). */
export const idOf = (x: unknown): string => {
  const r = (x ?? {}) as Record<string, unknown>;
  return [r.id, r.worldId, r.personaId].find((v): v is string => typeof v === 'string') ?? '';
};

export interface Walk {
  ids: string[]; pages: number; repeated: string[]; complete: boolean;
  /** The records listed, each once (the first time its id was listed). */
  items: unknown[];
  /** Why the walk could not go on where the deployment gave a next page: its document names no parameter to ask for it (a gap of the document, not a fault seen). */
  unfollowable?: string;
}

/**
 * Every record of a list, page after page, as the list pages (SPEC.md for GET /worlds, the served
 * document for GET /personas: scenarios/support/paging.ts). A result with no list in it fails the
 * check: never a pass. `complete` is false when the walk stopped at its page bound.
 */
export async function walkList(client: Client, operationId: 'listWorlds' | 'listPersonas', options: { key?: string; size?: number; maxPages?: number } = {}): Promise<Walk> {
  const paging = pagingOf(operationId);
  const walk: Walk = { ids: [], pages: 0, repeated: [], complete: false, items: [] };
  let cursor: string | undefined;
  for (; walk.pages < (options.maxPages ?? 200);) {
    const query: Record<string, string> = {};
    if (paging.sizeParam) query[paging.sizeParam] = String(pageSize(paging, options.size ?? 100));
    if (cursor && paging.cursorParam) query[paging.cursorParam] = cursor;
    const reply = await client.call(operationId, { key: options.key, query });
    const result = ok(reply, operationId);
    const items = listItems(operationId, result);
    expectFor(reply, items !== undefined, { title: `${operationId}: no list found in the result`, expected: 'the result, or one array member of it, listing the records', received: reply.text.slice(0, 300) });
    walk.pages += 1;
    for (const item of items!) {
      const id = idOf(item);
      if (walk.ids.includes(id)) walk.repeated.push(id);
      else { walk.ids.push(id); walk.items.push(item); }
    }
    // No next page given back: the list is complete. One given that the document names no parameter
    // to send it with: the walk cannot go on (not complete).
    cursor = nextCursor(paging, result);
    if (!cursor) { walk.complete = true; break; }
    if (!paging.cursorParam) { walk.unfollowable = `the served document of ${operationId} gives a next page (${paging.nextMember}) but declares no query parameter to ask for it`; break; }
  }
  return walk;
}

/** A world with two personas and a user, and a trigger that moves to `storm` after 3 `thunder` events. */
export function worldBody(label = 'world', extra: Record<string, unknown> = {}) {
  return {
    definition: {
      identity: { name: named(label), description: 'made by the conformance suite' },
      rules: { physics: { gravity: true } },
      progression: {
        initialPhase: 'calm',
        phases: { calm: { description: 'calm', normMapOverride: {} }, storm: { description: 'storm', normMapOverride: {} } },
        triggers: [{ id: 'to-storm', condition: { type: 'event_count', eventType: 'thunder', threshold: 3 }, targetPhase: 'storm', oneShot: true }],
      },
      ...extra,
    },
    entities: [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }],
    personaConfigs: { ana: { identity: { name: 'Ana', speakingStyle: 'plain' } } },
  };
}

export async function createWorld(client: Client, label = 'world', extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await client.call('createWorld', { body: worldBody(label, extra) });
  const result = ok<{ worldId: unknown }>(reply, 'creating a world');
  // Without an id nothing else can be checked: the target's fault, said here rather than later.
  expectFor(reply, typeof result?.worldId === 'string' && result.worldId !== '', { title: 'creating a world: the result has no worldId string', expected: '{"result": {"worldId": "…"}}', received: reply.text.slice(0, 300) });
  return result.worldId as string;
}

export async function createPersona(client: Client, label = 'persona', config: Record<string, unknown> = {}): Promise<string> {
  const reply = await client.call('createPersona', { body: { config: { identity: { name: named(label) }, ...config } } });
  const result = ok<{ personaId: unknown }>(reply, 'creating a persona');
  expectFor(reply, typeof result?.personaId === 'string' && result.personaId !== '', { title: 'creating a persona: the result has no personaId string', expected: '{"result": {"personaId": "…"}}', received: reply.text.slice(0, 300) });
  return result.personaId as string;
}

/** The operations of the bundled contract that pass the filter. */
export function operationsOf(filter: (op: { operationId: string; method: string; path: string }) => boolean) {
  return documents().bundled.operations()
    .map((o) => ({ operationId: o.operationId, method: o.method.toUpperCase(), path: o.path, security: o.secured }))
    .filter(filter);
}
