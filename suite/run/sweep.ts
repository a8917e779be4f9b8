// What a run created, found by its name. Everything a run creates carries `cf-<run id>` in its name,
// so the list operations (GET /worlds, GET /personas) find it even where the ledger could not write
// it down (a create whose answer was cut, or whose envelope was broken) and where the run stopped
// between a create and its answer. A listed record is the run's when any of its text holds
// `cf-<run id>`; lists are read as loosely as a broken deployment may send them (in the `result`
// envelope, outside it or in another, the items under any array member, the next page under any
// `next…` member).
import { request } from 'undici';
import { DEFAULT_MAX_BODY_MB, mbToBytes, transport } from '../http/transport.ts';
import { AnswerTooHeavy, parseAnswer } from '../http/answer-weight.ts';
import { deadline } from '../http/deadline.ts';

export type Kind = 'world' | 'persona';

export interface SweepOptions {
  baseUrl: string;
  apiKey: string;
  runId: string;
  timeoutMs: number;
  /** Epoch ms: no request starts after it. */
  until: number;
  abandon?: AbortSignal;
  maxBodyBytes?: number;
}

export interface Listed { kind: Kind; id: string }

/** Pages read per list at most: 100 records a page, 5,000 per list (a staging tenant's worth). */
const MAX_PAGES = 50;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** GET a path; the parsed body, or why not. */
export async function getJson(o: SweepOptions, path: string): Promise<{ status: number; body?: unknown; why?: string }> {
  const left = o.until - Date.now();
  if (left <= 0 || o.abandon?.aborted) return { status: 0, why: 'out of time' };
  const timeoutMs = Math.max(1, Math.min(o.timeoutMs, left));
  const { signal, clear } = deadline(timeoutMs, o.abandon);
  try {
    const res = await request(o.baseUrl + path, { headers: { 'x-api-key': o.apiKey, accept: 'application/json' }, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...transport('GET', o.maxBodyBytes) });
    const text = await res.body.text();
    try { return { status: res.statusCode, body: parseAnswer(text, o.maxBodyBytes ?? mbToBytes(DEFAULT_MAX_BODY_MB)) }; } catch (err) { return { status: res.statusCode, why: err instanceof AnswerTooHeavy ? err.message : `${res.statusCode}, not JSON` }; }
  } catch (err) {
    return { status: 0, why: (err as Error).name === 'TimeoutError' ? 'no answer in time' : (err as Error).message };
  } finally {
    clear();
  }
}

/**
 * The objects of a list answer down to the list: the answer itself and the objects it nests (three
 * levels), never the listed records' insides (a world's entities are not worlds).
 */
function holders(body: unknown): { objects: Json[]; lists: unknown[][] } {
  const objects: Json[] = [];
  const lists: unknown[][] = [];
  let level: unknown[] = [body];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: unknown[] = [];
    for (const node of level) {
      if (Array.isArray(node)) { lists.push(node); continue; }
      if (!isObject(node)) continue;
      objects.push(node);
      next.push(...Object.values(node).filter((v) => Array.isArray(v) || isObject(v)));
    }
    level = next;
  }
  return { objects, lists };
}

/** The records of a list answer: every array of objects it holds, in or out of the `result` envelope. */
export function itemsOf(body: unknown): Json[] {
  return holders(body).lists.flatMap((list) => list.filter(isObject));
}

/** The id a listed record carries (`id`, `worldId`, `personaId`). */
export const idOf = (item: Json): string | undefined => [item.id, item.worldId, item.personaId].find((v): v is string => typeof v === 'string' && v !== '');

/** The query of the next page: `nextCursor: c` → `cursor=c`, `nextPageToken: t` → `pageToken=t`; undefined on the last page. */
export function nextPage(body: unknown): string | undefined {
  for (const holder of holders(body).objects) {
    for (const [name, value] of Object.entries(holder)) {
      if (!/^next/i.test(name) || (typeof value !== 'string' && typeof value !== 'number') || value === '') continue;
      const param = name.replace(/^next_?/i, '').replace(/^./, (c) => c.toLowerCase()) || 'cursor';
      return `${encodeURIComponent(param)}=${encodeURIComponent(String(value))}`;
    }
  }
  return undefined;
}

/** Every record of one list whose text holds the run's name, walking the pages (bounded). */
interface Trouble { problems: string[]; silent: boolean }

async function sweepList(o: SweepOptions, kind: Kind, trouble: Trouble): Promise<Listed[]> {
  const path = kind === 'world' ? '/worlds' : '/personas';
  const mark = `cf-${o.runId}`;
  const found: Listed[] = [];
  const seen = new Set<string>();
  let query = 'limit=100';
  for (let page = 0; page < MAX_PAGES; page++) {
    let answer = await getJson(o, `${path}?${query}`);
    // A deployment that pages by other names may refuse `limit`: ask again with no query.
    if (page === 0 && answer.status === 400) answer = await getJson(o, path);
    if (answer.why || answer.status >= 300) {
      trouble.problems.push(`GET ${path}: ${answer.why ?? answer.status}`);
      // No answer at all (not a status): the target stopped answering.
      trouble.silent ||= answer.status === 0;
      break;
    }
    for (const item of itemsOf(answer.body)) {
      const id = idOf(item);
      if (id && JSON.stringify(item).includes(mark)) found.push({ kind, id });
    }
    const next = nextPage(answer.body);
    if (!next || seen.has(next)) break;
    seen.add(next);
    query = `limit=100&${next}`;
  }
  return found;
}

/**
 * The worlds and personas the lists show with the run's name. `silent` when a list got no answer at
 * all: the target stopped answering, and the next list is not waited for too.
 */
export async function sweep(o: SweepOptions): Promise<{ found: Listed[]; problems: string[]; silent: boolean }> {
  const trouble: Trouble = { problems: [], silent: false };
  const found = await sweepList(o, 'world', trouble);
  if (!trouble.silent) found.push(...await sweepList(o, 'persona', trouble));
  return { found, ...trouble };
}

/**
 * The personas of a world (GET /worlds/{id}/personas), to remove one by one when the world itself
 * would not go: no persona the run made stays usable. Ids or names, as the deployment lists them.
 */
export async function worldPersonas(o: SweepOptions, worldId: string): Promise<string[]> {
  const answer = await getJson(o, `/worlds/${encodeURIComponent(worldId)}/personas`);
  if (answer.why || answer.status >= 300) return [];
  // Records with an id or a name (a world persona is known by its name).
  return itemsOf(answer.body).map((i) => idOf(i) ?? (typeof i.name === 'string' ? i.name : undefined)).filter((x): x is string => !!x);
}
