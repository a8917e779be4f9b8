// The parts of a world that SPEC.md knows only by method, path and purpose (its personas, actions,
// relationships) as the model keeps them, and the views that show them. Their request and response
// shapes are not shown: bodies come from the served document (scenarios/support/model-parts.ts builds them,
// `PartBodies`), lists and records are read defensively (a list is the result or its one array member;
// an id sits on the record or inside it). What SPEC.md fixes is compared: a persona added is an entity
// of type `persona`, its configuration under `personaConfigs`; a relationship is directed, and shown
// in query as a two-level map (source, then target) and in the snapshot as the source entity's
// {targetId, relationship}; what was removed is no longer shown. Ids, texts, emotions, order: never.
import type { Reply } from '../suite/http/client.ts';
import { accepted, codeOf, is2xx, predict, read, refused, shortText, type Real } from './real.ts';
import type { WorldModel } from './world.ts';

/** Bodies of the operations SPEC.md shows only by path, from the served document; one is undefined when the document names no member for a role. */
export interface PartBodies {
  /** POST /worlds/{id}/personas: the persona's name, and a config (`withConfig`: the document has a config member). */
  addPersona?: (name: string, displayName: string) => unknown;
  addPersonaWithConfig?: boolean;
  /** POST /worlds/{id}/actions: the action's name. */
  createAction?: (name: string) => unknown;
  /** PUT /worlds/{id}/relationships: source (actor), target (persona), trust; each end by name or, where the member names an id, by id. */
  upsertRelationship?: (source: End, target: End, trust: number) => unknown;
  /** POST /worlds/{id}/time-jump: a jump `times` the document's base amount; `amount` in the member's unit. */
  timeJump?: (times: number) => { body: unknown; amount: number };
  /** Why a body is not valid for the served document (a refusal 400 is then allowed too), or undefined. */
  problem: (operationId: string, body: unknown) => string | undefined;
  /** The suite's readings of records whose shape is not shown (scenarios/support/models.ts, tested on their own): a value anywhere in a record; a relationship's direction. */
  mentions: (value: unknown, text: string | undefined) => boolean;
  directed: (record: unknown, source: Array<string | undefined>, target: Array<string | undefined>) => boolean;
}

export interface End { name: string; id?: string }

export interface AddedPersona { name: string; displayName: string; pid?: string; removed: boolean }
export interface CustomAction { name: string; aid?: string; deleted: boolean }
export interface Upserted { source: string; target: string; trust: number; rid?: string }

export interface WorldParts {
  /** Entity ids by name, as query showed them (stable: an import keeps the exported ids). */
  ids: Record<string, string>;
  /** Personas added by POST /worlds/{id}/personas and not since made unknown by an import. */
  personas: AddedPersona[];
  /** Entities added by a batch mutation (add_entity), by name and type. */
  mutated: Array<{ name: string; type: string }>;
  actions: CustomAction[];
  /** The number of actions listed before any custom one (the defaults); unknown after an import. */
  defaults?: number;
  /** Upserted relationships that hold: one per directed pair. */
  relationships: Upserted[];
  /** Directed pairs deleted (and not upserted since): no longer shown. */
  gone: Array<{ source: string; target: string }>;
  /** Names made so far (each command takes fresh ones). */
  made: number;
}

export const partsOf = (w: WorldModel): WorldParts => (w.parts ??= { ids: {}, personas: [], mutated: [], actions: [], relationships: [], gone: [], made: 0 });

/** Names the model gives what it adds: none a near variant of another, nor of ana, ben or user. */
const NAMES = ['cara', 'dora', 'elif', 'finn', 'gus', 'hana', 'ivo', 'jun', 'kai', 'lev', 'mira', 'nils', 'oda', 'pim', 'quin', 'rolf'];
export const freshName = (w: WorldModel): string => {
  const n = partsOf(w).made++;
  return `${NAMES[n % NAMES.length]}${n >= NAMES.length ? `q${Math.floor(n / NAMES.length)}` : ''}`;
};

/** An entity the world has (given, added, mutated), by name. */
export const hasEntity = (w: WorldModel, name: string) => w.entities.some((e) => e.name === name);
export const addEntity = (w: WorldModel, name: string, type: string) => { w.entities = [...w.entities, { name, type }]; };
export const dropEntity = (w: WorldModel, name: string) => { w.entities = w.entities.filter((e) => e.name !== name); };

/** After a snapshot import: what a snapshot does not carry (persona configs, actions) is no longer predicted; relationships of ana were replaced when `replaced`. */
export function imported(w: WorldModel, replaced: boolean): void {
  const p = w.parts;
  if (!p) return;
  p.personas = [];
  p.actions = [];
  p.defaults = undefined;
  if (replaced) {
    p.relationships = p.relationships.filter((r) => r.source !== 'ana');
    p.gone = p.gone.filter((g) => g.source !== 'ana');
  }
}

const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const keyOf = (real: Real, w: WorldModel) => (w.tenant === 'main' ? real.keys.main : real.keys.second);

/** The list in a result: the result itself, result[key], or its only array member; undefined when none. */
export function listIn(result: unknown, key: string): any[] | undefined {
  if (Array.isArray(result)) return result;
  const r = (result ?? {}) as Record<string, unknown>;
  if (Array.isArray(r[key])) return r[key] as any[];
  const arrays = Object.values(r).filter(Array.isArray);
  return arrays.length === 1 ? (arrays[0] as any[]) : undefined;
}

/** The record in a result: result[key] when it is an object, else the result itself. */
export const recordIn = (result: any, key: string): Record<string, any> =>
  (result && typeof result[key] === 'object' && !Array.isArray(result[key]) ? result[key] : result) ?? {};

/** The first string among a record's id members. */
export const idIn = (...records: any[]): string | undefined =>
  records.flatMap((r) => [r?.id, r?.entityId, r?.personaId, r?.actionId, r?.relationshipId]).find((x): x is string => typeof x === 'string' && x !== '');

/** Whether an object with numeric V, A, D (an emotion) appears anywhere in a JSON value. */
export function hasVad(value: unknown): boolean {
  if (!value || typeof value !== 'object') return false;
  const o = value as Record<string, unknown>;
  if (['V', 'A', 'D'].every((k) => typeof o[k] === 'number')) return true;
  return Object.values(o).some(hasVad);
}

const end = (p: WorldParts, name: string): Array<string | undefined> => [name, p.ids[name]];
const trustOf = (r: any) => r?.relationship?.trust ?? r?.trust;

// ---- Views: compared on the answers the model's views already read (no request of their own) ----

/** GET /worlds/{id}: each added persona's configuration under personaConfigs ("keyed by a name"). */
export function compareGetParts(w: WorldModel, result: any, reply: Reply): void {
  const live = w.parts?.personas.filter((p) => !p.removed && p.displayName) ?? [];
  const configs = result?.personaConfigs && typeof result.personaConfigs === 'object' ? Object.values<any>(result.personaConfigs) : [];
  for (const p of live) {
    predict(configs.some((c) => c?.identity?.name === p.displayName), 'worldPersonaConfig', `GET /worlds/{id} personaConfigs holds the configuration persona ${json(p.name)} was added with`,
      `a config with identity.name ${json(p.displayName)}`, () => json(result?.personaConfigs), reply);
  }
}

/** Query: added and mutated entities with their type; every relationship in the map, source then target, by id or name. */
export function compareQueryParts(w: WorldModel, result: any, reply: Reply): void {
  const p = partsOf(w);
  const entities: any[] = Array.isArray(result?.entities) ? result.entities : [];
  for (const e of entities) if (typeof e?.name === 'string' && typeof e?.id === 'string') p.ids[e.name] = e.id;
  for (const a of p.personas) {
    const e = entities.find((x) => x?.name === a.name);
    if (a.removed) predict(!e, 'worldPersonaRemoved', `query entities after persona ${json(a.name)} was removed from the world`, 'no entity of that name', () => json(e), reply);
    else predict(e?.type === 'persona', 'worldPersonas', `query entities: persona ${json(a.name)} added by POST /worlds/{id}/personas`, 'an entity of type "persona"', () => json(e ?? entities.map((x) => x?.name)), reply);
  }
  for (const m of p.mutated) {
    const e = entities.find((x) => x?.name === m.name);
    predict(e?.type === m.type, 'mutateApplied', `query entities: ${json(m.name)} added by the batch operation add_entity`, `an entity of type ${json(m.type)}`, () => json(e ?? entities.map((x) => x?.name)), reply);
  }
  const map = result?.relationships ?? {};
  for (const r of p.relationships) {
    const bySource = end(p, r.source).map((k) => (k === undefined ? undefined : map[k])).find((x) => x);
    const got = end(p, r.target).map((k) => (k === undefined ? undefined : bySource?.[k])).find((x) => x);
    predict(got?.trust === r.trust, 'relationships', `query relationships[${json(r.source)}][${json(r.target)}].trust (by name or entity id)`, String(r.trust), () => json(map), reply);
  }
  for (const g of p.gone) {
    const got = end(p, g.source).flatMap((s) => end(p, g.target).map((t) => (s === undefined || t === undefined ? undefined : map[s]?.[t]))).find((x) => x);
    predict(!got, 'relationships', `query relationships[${json(g.source)}][${json(g.target)}] after the relationship was deleted`, 'absent', () => json(map), reply);
  }
}

/** Snapshot: each relationship in its source entity's `relationships` as {targetId, relationship}. */
export function compareSnapshotParts(w: WorldModel, result: any, reply: Reply): void {
  const p = w.parts;
  if (!p?.relationships.length) return;
  const entities: any[] = Array.isArray(result?.entities) ? result.entities : [];
  for (const r of p.relationships) {
    const source = entities.find((e) => e?.name === r.source);
    const targets = end(p, r.target);
    const found = (Array.isArray(source?.relationships) ? source.relationships : []).find((x: any) => targets.includes(x?.targetId));
    predict(found?.relationship?.trust === r.trust, 'relationships', `snapshot entity ${json(r.source)}: relationships entry with targetId ${json(p.ids[r.target] ?? r.target)}`,
      `relationship.trust ${r.trust}`, () => json(source?.relationships), reply);
  }
}

// ---- Views of the parts' own lists (read after the commands that change them) ----

/** GET /worlds/{id}/personas and GET /worlds/{id}/personas/{pid}: added personas listed and readable with an emotional state; removed ones neither. */
export async function viewPersonas(real: Real, w: WorldModel): Promise<void> {
  const p = partsOf(w);
  const { mentions } = real.parts!;
  if (!p.personas.length) return;
  const reply = await read(real, 'listWorldPersonas', { params: { id: w.id }, key: keyOf(real, w) });
  const list = listIn(accepted(reply, 'worldPersonas', 'GET /worlds/{id}/personas'), 'personas');
  predict(!!list, 'worldPersonas', 'GET /worlds/{id}/personas answers a list', 'a list (the result or its one array member)', () => shortText(reply), reply);
  for (const a of p.personas) {
    const listed = list!.some((x) => mentions(x, a.name) || (a.pid !== undefined && mentions(x, a.pid)));
    predict(listed === !a.removed, a.removed ? 'worldPersonaRemoved' : 'worldPersonas', `GET /worlds/{id}/personas ${a.removed ? 'after removing' : 'lists'} persona ${json(a.name)}`,
      a.removed ? 'not listed' : 'listed', () => json(list), reply);
    if (a.pid === undefined) continue;
    const one = await read(real, 'getWorldPersona', { params: { id: w.id, pid: a.pid }, key: keyOf(real, w) });
    if (a.removed) predict(!is2xx(one), 'worldPersonaRemoved', `GET /worlds/{id}/personas/${a.pid} of a removed persona`, 'not a 2xx', () => shortText(one), one);
    else predict(hasVad(accepted(one, 'worldPersonas', `GET /worlds/{id}/personas/${a.pid}`)), 'worldPersonas', `GET /worlds/{id}/personas/${a.pid}: "Persona details and current emotional state"`, 'an emotion (V, A, D numbers)', () => shortText(one), one);
  }
}

/** GET /worlds/{id}/actions: the defaults and every custom action not deleted, once; a deleted one not listed. */
export async function viewActions(real: Real, w: WorldModel): Promise<void> {
  const p = partsOf(w);
  const { mentions } = real.parts!;
  const reply = await read(real, 'listActions', { params: { id: w.id }, key: keyOf(real, w) });
  const list = listIn(accepted(reply, 'actions', 'GET /worlds/{id}/actions'), 'actions');
  predict(!!list, 'actions', 'GET /worlds/{id}/actions answers a list', 'a list (the result or its one array member)', () => shortText(reply), reply);
  const live = p.actions.filter((a) => !a.deleted);
  const named = (a: CustomAction) => list!.filter((x) => (a.aid !== undefined && mentions(x, a.aid)) || mentions(x, a.name));
  for (const a of p.actions) {
    const n = named(a).length;
    predict(a.deleted ? n === 0 : n === 1, 'actions', `GET /worlds/{id}/actions ${a.deleted ? 'after deleting' : 'lists'} custom action ${json(a.name)}`, a.deleted ? 'not listed' : 'listed once', () => `${n} times in ${json(list)}`, reply);
  }
  if (p.defaults === undefined) { if (!p.actions.length) p.defaults = list!.length; return; }
  predict(list!.length === p.defaults + live.length, 'actions', 'GET /worlds/{id}/actions: "defaults and custom"', `${p.defaults} defaults and ${live.length} custom (${p.defaults + live.length})`, () => `${list!.length} actions`, reply);
}

/** GET /worlds/{id}/relationships: each directed pair once, with its trust. */
export async function viewRelationships(real: Real, w: WorldModel): Promise<void> {
  const p = partsOf(w);
  const { directed } = real.parts!;
  const reply = await read(real, 'listRelationships', { params: { id: w.id }, key: keyOf(real, w) });
  const list = listIn(accepted(reply, 'relationships', 'GET /worlds/{id}/relationships'), 'relationships');
  predict(!!list, 'relationships', 'GET /worlds/{id}/relationships answers a list', 'a list (the result or its one array member)', () => shortText(reply), reply);
  for (const r of p.relationships) {
    const records = list!.filter((x) => directed(x, end(p, r.source), end(p, r.target)));
    // A record that names its ends under no member read as source or target matches both directions: then only "one of them" is asked.
    const reverse = p.relationships.some((o) => o.source === r.target && o.target === r.source);
    predict(records.some((x) => trustOf(x) === r.trust) && (reverse || records.length === 1), 'relationships', `GET /worlds/{id}/relationships: ${json(r.source)} → ${json(r.target)}`,
      `one record with trust ${r.trust}`, () => json(records.length ? records : list), reply);
  }
  for (const g of p.gone) {
    if (p.relationships.some((o) => o.source === g.target && o.target === g.source)) continue;
    const records = list!.filter((x) => directed(x, end(p, g.source), end(p, g.target)));
    predict(!records.length, 'relationships', `GET /worlds/{id}/relationships after deleting ${json(g.source)} → ${json(g.target)}`, 'not listed', () => json(records), reply);
  }
}

/**
 * A relationship upsert naming an entity the world does not have: "the named entity does not exist in
 * the world" (ENTITY_NOT_FOUND 404) or, the relationship being "between an actor and a persona",
 * "persona does not exist" (PERSONA_NOT_FOUND, status not shown): either.
 */
export function refusedUnknownEnd(reply: Reply, what: string): void {
  if (codeOf(reply) === 'PERSONA_NOT_FOUND') refused(reply, 'unknownEntity', what, 'PERSONA_NOT_FOUND');
  else refused(reply, 'unknownEntity', what, 'ENTITY_NOT_FOUND', 404);
}
