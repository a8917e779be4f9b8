// Every view of a world compared with the model after a command: GET /worlds/{id} (the World), the
// list (the same World, listed once, or not at all when soft-deleted), query and snapshot (the
// progression state, entities, spaces). Only what SPEC.md determines is compared; the rest is left.
import type { Reply } from '../suite/http/client.ts';
import { accepted, is2xx, predict, read, resultOf, shortText, type Real } from './real.ts';
import { countRange, elapsedFits, expectedElapsed, fired, learnRate, phases, rateUnknown, type WorldModel } from './world.ts';
import type { ModelState } from './state.ts';
import { compareGetParts, compareQueryParts, compareSnapshotParts } from './world-parts.ts';

const keyOf = (real: Real, w: WorldModel) => (w.tenant === 'main' ? real.keys.main : real.keys.second);
const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/** The World of GET or of a list compared with the model: id, createdAt, name, physics, engineVersion. */
function compareWorld(w: WorldModel, world: any, view: string, reply: Reply): void {
  predict(world?.id === w.id, 'created', `${view} shows the world's id`, w.id, () => json(world?.id), reply);
  predict(world?.createdAt === w.createdAt, 'sameRecord', `${view} shows the createdAt POST /worlds answered`, String(w.createdAt), () => json(world?.createdAt), reply);
  predict(typeof world?.engineVersion === 'string', 'engineVersion', `${view} shows an engineVersion string`, 'a string', () => json(world?.engineVersion), reply);
  predict(world?.definition?.identity?.name === w.name, w.patched ? 'patched' : 'definitionKept', `${view} shows definition.identity.name`, json(w.name), () => json(world?.definition?.identity?.name), reply);
  const physics = world?.definition?.rules?.physics;
  const differing = Object.entries(w.physics).filter(([k, v]) => physics?.[k] !== v);
  predict(!differing.length, w.physicsPatched ? 'patched' : 'definitionKept', `${view} shows rules.physics as ${w.physicsPatched ? 'the last PATCH set it' : 'given'}`, json(w.physics), () => json(physics), reply);
}

/** The progression state of query or snapshot compared with the model. */
function compareProgression(w: WorldModel, p: any, view: string, reply: Reply): void {
  predict(!!p && typeof p === 'object', 'eventCounts', `${view} has a progression object`, 'an object', () => json(p), reply);
  learnRate(w, p.elapsedTime);
  predict(typeof p.elapsedTime === 'number' && elapsedFits(w, p.elapsedTime), 'elapsedTime', `${view} progression.elapsedTime`, expectedElapsed(w), () => json(p.elapsedTime), reply);
  const counts = p.eventCounts ?? {};
  const types = new Set([...Object.keys(w.dispatched), ...w.triggers.map((t) => t.eventType)]);
  for (const type of types) {
    const [lo, hi] = countRange(w, type);
    const got = counts[type] ?? 0;
    predict(got >= lo && got <= hi, 'eventCounts', `${view} progression.eventCounts[${json(type)}]`, lo === hi ? String(lo) : `${lo} to ${hi}`, () => `${json(counts[type])} (eventCounts ${json(counts)})`, reply);
  }
  const { must, may } = fired(w);
  const ids: unknown = p.firedTriggerIds;
  predict(Array.isArray(ids), 'triggerRecord', `${view} progression.firedTriggerIds is an array`, 'an array', () => json(ids), reply);
  const list = ids as unknown[];
  const missing = must.filter((id) => !list.includes(id));
  const extra = w.triggers.map((t) => t.id).filter((id) => list.includes(id) && !may.includes(id));
  predict(!missing.length && !extra.length, 'triggerRecord', `${view} progression.firedTriggerIds`,
    `every trigger whose count reached its threshold before a tick (${json(must)}), none whose count did not (${json(w.triggers.map((t) => t.id).filter((id) => !may.includes(id)))})`, () => json(ids), reply);
  const history = Array.isArray(p.phaseHistory) ? p.phaseHistory : [];
  const recorded = history.map((h: any) => h?.triggerId);
  const unrecorded = must.filter((id) => !recorded.includes(id));
  const unfired = w.triggers.map((t) => t.id).filter((id) => recorded.includes(id) && !may.includes(id));
  predict(!unrecorded.length && !unfired.length, 'triggerRecord', `${view} progression.phaseHistory entries' triggerId`,
    `an entry for each of ${json(must)}, none for a trigger whose count did not reach its threshold`, () => json(p.phaseHistory), reply);
  const possible = phases(w);
  if (possible) predict(possible.has(p.currentPhase), 'triggerPhase', `${view} progression.currentPhase`, [...possible].map(json).join(' or '), () => json(p.currentPhase), reply);
}

/** GET /worlds/{id}: the World when active; not readable when soft-deleted (a SHOULD). */
async function viewGet(real: Real, w: WorldModel): Promise<void> {
  const reply = await read(real, 'getWorld', { params: { id: w.id }, key: keyOf(real, w) });
  if (w.deleted) {
    predict(!is2xx(reply), 'softDeletedHidden', 'GET /worlds/{id} of a soft-deleted world', 'not a 2xx (404 or 410: either)', () => shortText(reply), reply);
    return;
  }
  const result = accepted(reply, w.restored ? 'softDeleteWorld' : 'created', 'GET /worlds/{id}');
  compareWorld(w, result.world, 'GET /worlds/{id}', reply);
  compareGetParts(w, result, reply);
}

async function viewQuery(real: Real, w: WorldModel): Promise<void> {
  const reply = await read(real, 'queryWorld', { params: { id: w.id }, key: keyOf(real, w), body: {} });
  const result = accepted(reply, w.restored ? 'softDeleteWorld' : 'entities', 'POST /worlds/{id}/query');
  compareProgression(w, result.progression, 'query', reply);
  const names = Array.isArray(result.entities) ? result.entities.map((e: any) => e?.name) : [];
  const missing = w.entities.filter((e) => !names.includes(e.name)).map((e) => e.name);
  predict(!missing.length, 'entities', 'query entities hold every entity the world was given', json(w.entities.map((e) => e.name)), () => json(names), reply);
  compareQueryParts(w, result, reply);
  const spaces = Array.isArray(result.spaces) ? result.spaces.map((s: any) => s?.id) : [];
  if (w.spaces) {
    const lost = w.spaces.filter((id) => !spaces.includes(id));
    predict(!lost.length, w.importedSpaces ? 'imported' : 'roundTrip', 'query spaces keep every space the world had', json(w.spaces), () => json(spaces), reply);
  } else w.spaces = spaces.filter((id: unknown): id is string => typeof id === 'string');
  if (w.relationships) {
    const rel = result.relationships ?? {};
    for (const [source, targets] of Object.entries(w.relationships)) {
      const bySource = rel[source.split('|')[0]] ?? rel[source.split('|')[1]];
      for (const [target, trust] of Object.entries(targets)) {
        const [id, name] = target.split('|');
        const r = bySource?.[id] ?? bySource?.[name];
        predict(r?.trust === trust, 'imported', `query relationships[${json(source.split('|')[1])}][${json(name)}].trust after the import`, String(trust), () => json(rel), reply);
      }
    }
  }
}

async function viewSnapshot(real: Real, w: WorldModel): Promise<void> {
  const reply = await read(real, 'getWorldSnapshot', { params: { id: w.id }, key: keyOf(real, w) });
  const result = accepted(reply, w.restored ? 'softDeleteWorld' : 'roundTrip', 'GET /worlds/{id}/snapshot');
  compareProgression(w, result.progression, 'snapshot', reply);
  predict(result.createdAt === w.createdAt, 'sameRecord', 'snapshot createdAt', String(w.createdAt), () => json(result.createdAt), reply);
  compareSnapshotParts(w, result, reply);
}

/** Every world of the tenant, page after page at `limit` (at most `maxPages`): the World as listed, each page's size. */
export async function walk(real: Real, key: string | undefined, limit: string | undefined, maxPages: number, onPage?: (reply: Reply, n: number) => void) {
  const seen = new Map<string, any>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query: Record<string, string> = {};
    if (limit !== undefined) query.limit = limit;
    if (cursor) query.cursor = cursor;
    const reply = await read(real, 'listWorlds', { query, key });
    onPage?.(reply, page);
    const result = resultOf(reply);
    if (!result || !Array.isArray(result.worlds)) return { seen, complete: false, reply };
    for (const world of result.worlds) {
      predict(!seen.has(world?.id), 'cursorWalk', `following nextCursor at limit ${limit ?? '(none)'} serves world ${json(world?.id)} again on page ${page + 1}`, 'every world once', () => `already on an earlier page`, reply);
      seen.set(world?.id, world);
    }
    cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (!cursor) return { seen, complete: true, reply };
  }
  return { seen, complete: false, reply: undefined };
}

/** The list view: each active world of the tenant listed once with the World GET shows, no soft-deleted one, no other tenant's. */
export async function viewList(real: Real, state: ModelState): Promise<void> {
  for (const tenant of ['main', 'second'] as const) {
    const key = tenant === 'main' ? real.keys.main : real.keys.second;
    const mine = state.worlds.filter((w) => w.tenant === tenant);
    if (!key || !mine.length) continue;
    // One page at a small odd limit first (a near input of every list view: the page's bound), then every page at 100.
    const small = String([1, 3, 7][state.worlds.length % 3]);
    await walk(real, key, small, 1, (page) => {
      const worlds = resultOf(page)?.worlds;
      predict(Array.isArray(worlds) && worlds.length <= Number(small), 'pageLimit', `GET /worlds?limit=${small}`, `at most ${small} worlds`, () => `${Array.isArray(worlds) ? worlds.length : json(worlds)} worlds`, page);
    });
    const { seen, complete, reply } = await walk(real, key, '100', 30);
    if (!complete || !reply) continue;
    for (const w of mine) {
      if (w.deleted) predict(!seen.has(w.id), 'softDeletedHidden', `GET /worlds lists soft-deleted world ${w.id}`, 'not listed', () => 'listed', reply);
      else {
        predict(seen.has(w.id), 'cursorWalk', `GET /worlds (every page at limit 100) lists world ${w.id}`, 'listed once', () => `not listed among ${seen.size} worlds`, reply);
        compareWorld(w, seen.get(w.id), 'GET /worlds', reply);
      }
    }
    const other = state.worlds.filter((w) => w.tenant !== tenant).map((w) => w.id).filter((id) => seen.has(id));
    predict(!other.length, 'otherTenantNotListed', `GET /worlds with the ${tenant} key lists another tenant's world`, 'none of the other tenant\'s worlds', () => json(other), reply);
  }
}

/** Reads elapsedTime once after the world's first accepted tick: the rate (ratio and unit, not shown) is then that of one tick alone. */
export async function learnRateNow(real: Real, w: WorldModel): Promise<void> {
  if (!rateUnknown(w)) return;
  const reply = await read(real, 'queryWorld', { params: { id: w.id }, key: keyOf(real, w), body: {} });
  const p = resultOf(reply)?.progression;
  if (typeof p?.elapsedTime === 'number') learnRate(w, p.elapsedTime);
}

/** Every view of one world after a command touched it. */
export async function observe(real: Real, w: WorldModel, views: { snapshot?: boolean } = {}): Promise<void> {
  await viewGet(real, w);
  if (w.deleted) return;
  await viewQuery(real, w);
  if (views.snapshot) await viewSnapshot(real, w);
}
