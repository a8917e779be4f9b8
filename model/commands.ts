// The commands of the model run (fast-check `fc.commands`): every operation the model predicts, with
// the inputs bugs hide behind: near variants of known identifiers, boundaries (`limit` 0, 1, 100, 101;
// fractional seconds; `false` in rules.physics), second instances (two triggers on one type, several
// pages, two relationships of one source), another tenant's resources, and the inputs lenient parsers
// take where SPEC.md's types make the refusal certain. Each command sends, compares the answer with the
// model's prediction, updates the model, and reads every view of what it touched.
import fc from 'fast-check';
import type { Reply } from '../suite/http/client.ts';
import { accepted, is2xx, Mismatch, predict, refused, resultOf, send, shortText, type Real } from './real.ts';
import { dispatch, newWorld, phases, tick, type TriggerSpec, type WorldModel } from './world.ts';
import { personaAt, worldAt, type ModelState } from './state.ts';
import { near, nearKey, NEAR_KINDS, type NearKind } from './near.ts';
import { learnRateNow, observe, viewList, walk } from './views.ts';
import { imported } from './world-parts.ts';
import { partCommands } from './world-parts-commands.ts';
import { personaArbitraries, personaDeleted, viewPersona, viewPersonas } from './personas.ts';
import { chatArbitrary } from './chat.ts';
import { originsArbitrary } from './origins.ts';
import { routeArbitraries } from './routes.ts';

export type Cmd = fc.AsyncCommand<ModelState, Real>;
const json = (v: unknown) => JSON.stringify(v);
const keyOf = (real: Real, tenant: 'main' | 'second') => (tenant === 'main' ? real.keys.main : real.keys.second);
const otherTenant = (t: 'main' | 'second') => (t === 'main' ? 'second' : 'main');

/** Mismatches seen on a world after a snapshot import are the import's (SIM-10 / MODEL-3), not the sentence they would break otherwise; `carried`: the import carried what is compared (MODEL-3). */
export async function afterImport(w: WorldModel, look: () => Promise<void>, carried = false): Promise<void> {
  try {
    await look();
  } catch (err) {
    if (!(err instanceof Mismatch) || err.sentence === 'imported' || err.sentence === 'roundTrip') throw err;
    throw new Mismatch(carried || w.importedSpaces || w.relationships ? 'imported' : 'roundTrip', `after a snapshot import, ${err.init.title.replace(/^model: /, '')}`,
      `${err.init.expected} (as before the import)`, err.init.received ?? '', err.init.exchange);
  }
}
const look = (real: Real, w: WorldModel, snapshot = true) => observe(real, w, { snapshot });

// ---- Worlds ----

/** Progression shapes: one trigger; two on one event type (second instance); two on two types. Types carry a capital so that case matters. */
const SHAPES: Record<string, (th: number) => TriggerSpec[]> = {
  one: (th) => [{ id: 'cf-to-storm', eventType: 'cf-Thunder', threshold: th, targetPhase: 'storm' }],
  'two-on-one-type': (th) => [
    { id: 'cf-to-storm', eventType: 'cf-Thunder', threshold: th, targetPhase: 'storm' },
    { id: 'cf-to-flood', eventType: 'cf-Thunder', threshold: th + 1, targetPhase: 'flood' },
  ],
  'two-types': (th) => [
    { id: 'cf-to-storm', eventType: 'cf-Thunder', threshold: th, targetPhase: 'storm' },
    { id: 'cf-to-rain', eventType: 'cf-Rain', threshold: 1, targetPhase: 'rain' },
  ],
};
const PHYSICS: Array<Record<string, boolean>> = [{ gravity: true }, { gravity: true, magic: false }, { gravity: false, teleport: true }];
const ENTITIES = [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }];

export function worldBody(real: Real, name: string, physics: Record<string, unknown>, triggers: TriggerSpec[]) {
  const phases = Object.fromEntries(['calm', ...triggers.map((t) => t.targetPhase)].map((p) => [p, { description: p, normMapOverride: {} }]));
  return {
    definition: {
      identity: { name, description: 'made by the conformance suite (model)' },
      rules: { physics },
      progression: {
        initialPhase: 'calm', phases,
        triggers: triggers.map((t) => ({ id: t.id, condition: { type: 'event_count', eventType: t.eventType, threshold: t.threshold }, targetPhase: t.targetPhase, oneShot: true })),
      },
    },
    entities: ENTITIES,
    personaConfigs: { ana: { identity: { name: 'Ana' } } },
  };
}

export class CreateWorld implements Cmd {
  /** `cap`: the worlds a sequence holds at most (the tour makes a fourth: three of one tenant for the cursor walks). */
  constructor(readonly tenant: 'main' | 'second', readonly shape: string, readonly threshold: number, readonly physics: number, readonly cap = 3) {}
  check = (m: Readonly<ModelState>) => m.worlds.length < this.cap;
  async run(m: ModelState, real: Real) {
    const key = keyOf(real, this.tenant);
    if (!key) return;
    const name = real.named(`model ${m.worlds.length + 1}`);
    const triggers = SHAPES[this.shape](this.threshold);
    const physics = PHYSICS[this.physics % PHYSICS.length];
    const reply = await send(real, this.toString(), 'createWorld', { key, body: worldBody(real, name, physics, triggers) });
    const result = accepted(reply, 'created', 'POST /worlds');
    predict(typeof result.worldId === 'string' && result.worldId !== '' && typeof result.createdAt === 'number', 'created', 'POST /worlds answers {worldId, createdAt}', '{"worldId": string, "createdAt": number}', () => shortText(reply), reply);
    const w = newWorld({ slot: m.worlds.length, id: result.worldId, tenant: this.tenant, createdAt: result.createdAt, name, physics, entities: ENTITIES, initialPhase: 'calm', triggers });
    m.worlds.push(w);
    await observe(real, w, { snapshot: true });
    await viewList(real, m);
  }
  toString = () => `create a world (${this.tenant} tenant; triggers ${this.shape}, threshold ${this.threshold}; physics ${json(PHYSICS[this.physics % PHYSICS.length])})`;
}

/** POST /worlds with a body a lenient parser would take: refused, nothing made. */
const LENIENT_CREATE: Array<[string, (real: Real) => unknown]> = [
  ['physics value "true" (a string for a boolean)', (real) => worldBody(real, real.named('model lenient'), { gravity: 'true' }, [])],
  ['physics value 1 (a number for a boolean)', (real) => worldBody(real, real.named('model lenient'), { gravity: 1 }, [])],
  ['physics value null', (real) => worldBody(real, real.named('model lenient'), { gravity: null }, [])],
  ['physics as a one-element array', (real) => worldBody(real, real.named('model lenient'), [{ gravity: true }] as never, [])],
  ['definition as a JSON string', (real) => ({ ...worldBody(real, real.named('model lenient'), { gravity: true }, []), definition: JSON.stringify({ identity: { name: real.named('model lenient') } }) })],
  ['entities as an object', (real) => ({ ...worldBody(real, real.named('model lenient'), { gravity: true }, []), entities: { name: 'ana', type: 'persona' } })],
];
export class CreateLenient implements Cmd {
  check = () => true;
  async run(_m: ModelState, real: Real) {
    for (const [what, body] of LENIENT_CREATE) {
      const reply = await send(real, `create a world with ${what}`, 'createWorld', { body: body(real) });
      refused(reply, 'invalidBody', `POST /worlds with ${what}`, 'VALIDATION_ERROR', 400);
    }
  }
  toString = () => 'create worlds with bodies a lenient parser takes (each refused)';
}

/** The limits at the edges of "default 20, maximum 100", each asked once by every list command. */
const BOUNDARIES = [undefined, '0', '1', '100', '101'];
export class ListWorlds implements Cmd {
  /** `boundaries`: the limits at the edges (BOUNDARIES) first, one page each. */
  constructor(readonly limit: string | undefined, readonly pages: number, readonly boundaries = true) {}
  check = (m: Readonly<ModelState>) => m.worlds.length > 0;
  async run(m: ModelState, real: Real) {
    if (this.boundaries) for (const limit of BOUNDARIES) await this.walk(real, limit, 1);
    const refusedOnce = await this.walk(real, this.limit, this.pages);
    if (!refusedOnce) await viewList(real, m);
  }
  /** Pages along nextCursor at `limit`: each within its bound; true when the limit was refused (allowed for 0 and over 100). */
  private async walk(real: Real, limit: string | undefined, pages: number): Promise<boolean> {
    const self = { limit, pages, toString: () => `list worlds${limit === undefined ? '' : ` with limit ${limit}`}${pages > 1 ? ` (${pages} pages along nextCursor)` : ''}` };
    return ListWorlds.page.call(self, real);
  }
  private static async page(this: { limit: string | undefined; pages: number; toString(): string }, real: Real): Promise<boolean> {
    const n = this.limit === undefined ? 20 : Number(this.limit);
    const mayRefuse = this.limit === '0' || n > 100;
    const max = this.limit === '0' ? 20 : Math.min(n, 100);
    let refusedOnce = false;
    await walk(real, real.keys.main, this.limit, this.pages, (reply: Reply, page: number) => {
      if (page === 0) real.steps.push({ command: this.toString(), exchange: reply.exchange });
      if (mayRefuse && !is2xx(reply)) { refused(reply, 'pageMax', `GET /worlds?limit=${this.limit}`, 'VALIDATION_ERROR', 400); refusedOnce = true; return; }
      const worlds = accepted(reply, 'pageLimit', `GET /worlds${this.limit === undefined ? '' : `?limit=${this.limit}`}`).worlds;
      predict(Array.isArray(worlds), 'pageLimit', 'GET /worlds answers {worlds: World[]}', 'an array', () => shortText(reply), reply);
      predict(worlds.length <= max, n > 100 ? 'pageMax' : 'pageLimit', `GET /worlds${this.limit === undefined ? ' without a limit' : `?limit=${this.limit}`} page ${page + 1}`,
        `at most ${max} worlds${this.limit === '0' ? ' (0, or the default 20)' : ''}`, () => `${worlds.length} worlds`, reply);
    });
    return refusedOnce;
  }
  toString = () => `list worlds${this.limit === undefined ? '' : ` with limit ${this.limit}`} (${this.pages} page${this.pages > 1 ? 's' : ''} along nextCursor)`;
}

export class PatchWorld implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const name = real.named(`model renamed ${w.slot + 1}.${(w.renames = (w.renames ?? 0) + 1)}`);
    const body = real.patchBody?.(name);
    if (body === undefined) return;
    const reply = await send(real, this.toString(), 'updateWorld', { params: { id: w.id }, key: keyOf(real, w.tenant), body });
    accepted(reply, 'patched', 'PATCH /worlds/{id}');
    w.name = name;
    w.patched = true;
    await look(real, w, false);
    await viewList(real, m);
  }
  toString = () => `rename world #${this.slot} with PATCH /worlds/{id}`;
}

export class DeleteWorld implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const reply = await send(real, this.toString(), 'deleteWorld', { params: { id: w.id }, key: keyOf(real, w.tenant) });
    predict(is2xx(reply), 'softDeleteWorld', 'DELETE /worlds/{id} of an active world', 'a 2xx', () => shortText(reply), reply);
    w.deleted = true;
    await observe(real, w);
    await viewList(real, m);
  }
  toString = () => `soft-delete world #${this.slot}`;
}

export class RestoreWorld implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot)?.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const reply = await send(real, this.toString(), 'restoreWorld', { params: { id: w.id }, key: keyOf(real, w.tenant) });
    predict(is2xx(reply), 'softDeleteWorld', 'POST /worlds/{id}/restore of a soft-deleted world', 'a 2xx', () => shortText(reply), reply);
    w.deleted = false;
    w.restored = true;
    await look(real, w);
    await viewList(real, m);
  }
  toString = () => `restore world #${this.slot}`;
}

/** Seconds a tick sends: at least 1 (any number; SPEC.md's range is not shown, so below 1 a refusal is allowed too). */
const SECONDS = [1, 2, 1.5, 3.75, 10, 0.5, 0.25, 0.1];
export class Tick implements Cmd {
  constructor(readonly slot: number, readonly seconds: number[]) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    for (const seconds of this.seconds) {
      const reply = await send(real, `tick world #${this.slot} by ${seconds} s`, 'tickWorld', { params: { id: w.id }, key: keyOf(real, w.tenant), body: { seconds } });
      if (seconds < 1 && !is2xx(reply)) refused(reply, 'invalidBody', `POST /worlds/{id}/tick {seconds: ${seconds}}`, 'VALIDATION_ERROR', 400);
      else {
        const result = accepted(reply, 'elapsedTime', `POST /worlds/{id}/tick {seconds: ${seconds}}`);
        tick(w, seconds, byType(result.events));
        await learnRateNow(real, w);
      }
    }
    await look(real, w);
  }
  toString = () => `tick world #${this.slot} by ${this.seconds.join(' s, then ')} s`;
}

export const byType = (events: unknown): Record<string, number> => {
  const out: Record<string, number> = {};
  if (Array.isArray(events)) for (const e of events) if (typeof e?.type === 'string') out[e.type] = (out[e.type] ?? 0) + 1;
  return out;
};

/** Event types a command dispatches: the world's trigger types, near variants of them, another type. */
const TYPE_CHOICES: Array<{ base: 'cf-Thunder' | 'cf-Rain' | 'cf-other'; kind?: NearKind }> = [
  { base: 'cf-Thunder' }, { base: 'cf-Thunder' }, { base: 'cf-Thunder' }, { base: 'cf-Rain' }, { base: 'cf-Rain' }, { base: 'cf-other' },
  { base: 'cf-Thunder', kind: 'lower' }, { base: 'cf-Thunder', kind: 'upper' }, { base: 'cf-Thunder', kind: 'trailing-space' }, { base: 'cf-Rain', kind: 'cut-last' },
];
/** `times` events of one type, then one of a near variant of a trigger's type (`nearKind`, an index of NEAR_KINDS; every dispatch tries one). */
export class Dispatch implements Cmd {
  constructor(readonly slot: number, readonly choice: number, readonly times = 1, readonly nearKind?: number) {}
  get type() { const c = TYPE_CHOICES[this.choice % TYPE_CHOICES.length]; return c.kind ? near(c.base, c.kind)! : c.base; }
  get nearType() {
    const base = TYPE_CHOICES[this.choice % TYPE_CHOICES.length].base === 'cf-Rain' ? 'cf-Rain' : 'cf-Thunder';
    return this.nearKind === undefined ? undefined : near(base, NEAR_KINDS[this.nearKind % NEAR_KINDS.length]);
  }
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const types = [...Array<string>(this.times).fill(this.type), ...(this.nearType ? [this.nearType] : [])];
    for (const type of types) {
      const reply = await send(real, `dispatch an event of type ${json(type)} to world #${this.slot}`, 'dispatchEvent', { params: { id: w.id }, key: keyOf(real, w.tenant), body: { type } });
      const result = accepted(reply, 'eventCounts', `POST /worlds/{id}/events {type: ${json(type)}}`);
      dispatch(w, type, byType(result.events)[type] ?? 0);
    }
    await look(real, w, false);
  }
  toString = () => `dispatch ${this.times} event${this.times > 1 ? 's' : ''} of type ${json(this.type)}${this.nearType ? `, then one of ${json(this.nearType)}` : ''} to world #${this.slot}`;
}

/** Bodies of tick and events that a lenient parser takes, of a type SPEC.md's types refuse for certain. */
const LENIENT: Array<{ op: 'tickWorld' | 'dispatchEvent'; what: string; body: unknown }> = [
  { op: 'tickWorld', what: '{seconds: "60"} (a numeric string)', body: { seconds: '60' } },
  { op: 'tickWorld', what: '{seconds: "1.5"}', body: { seconds: '1.5' } },
  { op: 'tickWorld', what: '{seconds: [1]} (a one-element array)', body: { seconds: [1] } },
  { op: 'tickWorld', what: '{seconds: true}', body: { seconds: true } },
  { op: 'tickWorld', what: '{seconds: {"value": 1}}', body: { seconds: { value: 1 } } },
  { op: 'dispatchEvent', what: '{type: 12}', body: { type: 12 } },
  { op: 'dispatchEvent', what: '{type: ["cf-Thunder"]}', body: { type: ['cf-Thunder'] } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", payload: "{}"} (a JSON string for an object)', body: { type: 'cf-Thunder', payload: '{}' } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", payload: [{}]} (an array for an object)', body: { type: 'cf-Thunder', payload: [{}] } },
];
export class Lenient implements Cmd {
  constructor(readonly slot: number, readonly op: 'tickWorld' | 'dispatchEvent') {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const verb = this.op === 'tickWorld' ? 'tick' : 'dispatch to';
    for (const l of LENIENT.filter((x) => x.op === this.op)) {
      const reply = await send(real, `${verb} world #${this.slot} with ${l.what}`, l.op, { params: { id: w.id }, key: keyOf(real, w.tenant), body: l.body });
      refused(reply, 'invalidBody', `${l.op === 'tickWorld' ? 'POST /worlds/{id}/tick' : 'POST /worlds/{id}/events'} ${l.what}`, 'VALIDATION_ERROR', 400);
    }
    // Nothing was counted, no time passed.
    await look(real, w, false);
  }
  toString = () => `${this.op === 'tickWorld' ? 'tick' : 'dispatch to'} world #${this.slot} with bodies a lenient parser takes (each refused)`;
}

/** A world operation on a near variant of a known id, or on another tenant's world: WORLD_NOT_FOUND. */
export type Lookup = { op: string; body: unknown };
export const LOOKUPS: readonly Lookup[] = [
  { op: 'getWorld', body: undefined }, { op: 'queryWorld', body: {} }, { op: 'tickWorld', body: { seconds: 1 } },
  { op: 'dispatchEvent', body: { type: 'cf-Thunder' } }, { op: 'getWorldSnapshot', body: undefined }, { op: 'updateWorld', body: {} },
];
export class WorldLookup implements Cmd {
  constructor(readonly slot: number, readonly op: number, readonly table: readonly Lookup[] = LOOKUPS) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    for (const kind of [...NEAR_KINDS, 'other-tenant' as const]) await lookupOnce(m, real, w, this.table[this.op % this.table.length], kind);
    // Nothing changed: the world's views are as the model has them.
    await look(real, w, false);
  }
  toString = () => `${this.table[this.op % this.table.length].op} on near variants of world #${this.slot}'s id and with the other tenant's key`;
}

/**
 * Every operation of the tables on a near variant of the id (operation i the kind i + offset; `kinds` > 1:
 * the next kinds too, every kind on every operation at 7), and with the other tenant's key, in one command.
 */
export class WorldLookupSweep implements Cmd {
  constructor(readonly slot: number, readonly offset: number, readonly tables: ReadonlyArray<readonly Lookup[]>, readonly kinds = 1) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    for (const [i, l] of this.tables.flat().entries()) {
      const variants = Array.from({ length: Math.min(this.kinds, NEAR_KINDS.length) }, (_, k) => NEAR_KINDS[(i + this.offset + k) % NEAR_KINDS.length]);
      for (const kind of [...variants, 'other-tenant' as const]) await lookupOnce(m, real, w, l, kind);
    }
    await look(real, w, false);
  }
  toString = () => `${this.tables.flat().map((l) => l.op).join(', ')} on ${this.kinds >= NEAR_KINDS.length ? 'every near variant' : `near variants (${this.kinds} each, from the ${NEAR_KINDS[this.offset % NEAR_KINDS.length]} one on)`} of world #${this.slot}'s id and with the other tenant's key`;
}

/** One lookup: `l.op` on a near variant (`kind`) of w's id, or on w with the other tenant's key: WORLD_NOT_FOUND. */
async function lookupOnce(m: ModelState, real: Real, w: WorldModel, l: Lookup, kind: NearKind | 'other-tenant'): Promise<void> {
  if (l.op === 'updateWorld' && !real.patchBody) return;
  const body = l.op === 'updateWorld' ? real.patchBody!(real.named('model never')) : l.body;
  const other = kind === 'other-tenant';
  const id = other ? w.id : near(w.id, kind);
  const key = other ? keyOf(real, otherTenant(w.tenant)) : keyOf(real, w.tenant);
  if (!id || !key || (other && w.deleted) || (!other && m.worlds.some((x) => x.id === id))) return;
  const reply = await send(real, `${l.op} on ${other ? "another tenant's key for" : `a ${kind} variant of the id of`} world #${w.slot}`, l.op, { params: { id }, key, body });
  refused(reply, other ? 'otherTenantWorld' : 'unknownWorld', `${l.op} on ${other ? "another tenant's world" : `${json(id)}, a near variant (${kind}) of world #${w.slot}'s id`}`, 'WORLD_NOT_FOUND', 404);
}

/** Context of a persona entity by its exact name (whoAmI), or by a near variant of it (ENTITY_NOT_FOUND). */
export class Context implements Cmd {
  constructor(readonly slot: number, readonly entity: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    for (const kind of ['exact' as const, ...NEAR_KINDS]) await this.one(m, real, kind);
  }
  private async one(m: ModelState, real: Real, kind: NearKind | 'exact') {
    const w = worldAt(m, this.slot)!;
    const personas = w.entities.filter((e) => e.type === 'persona');
    const name = personas[this.entity % personas.length].name;
    const sent = kind === 'exact' ? name : near(name, kind);
    if (!sent || w.entities.some((e) => e.name === sent && kind !== 'exact')) return;
    const reply = await send(real, `context of ${json(sent)} in world #${this.slot}`, 'worldContext', { params: { id: w.id }, key: keyOf(real, w.tenant), body: { entityName: sent } });
    if (kind !== 'exact') refused(reply, 'unknownEntity', `POST /worlds/{id}/context {entityName: ${json(sent)}} (a ${kind} variant of ${json(name)})`, 'ENTITY_NOT_FOUND', 404);
    else {
      const result = accepted(reply, 'context', `POST /worlds/{id}/context {entityName: ${json(name)}}`);
      predict(result.whoAmI?.name === name, 'context', 'context whoAmI is the named entity', json(name), () => json(result.whoAmI), reply);
      const possible = phases(w);
      if (possible) predict(possible.has(result.currentPhase), 'triggerPhase', 'context currentPhase', [...possible].map(json).join(' or '), () => json(result.currentPhase), reply);
    }
  }
  toString = () => `context of persona entity ${this.entity % 2} of world #${this.slot}, by its name and near variants of it`;
}

/**
 * Export, change (nothing; or two spaces added and two relationships of one source: both second
 * instances in one import), import, and every view after.
 */
export class Snapshot implements Cmd {
  constructor(readonly slot: number, readonly change: 'none' | 'added') {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const key = keyOf(real, w.tenant);
    const exported = await send(real, `export world #${this.slot}`, 'getWorldSnapshot', { params: { id: w.id }, key });
    const snapshot = structuredClone(accepted(exported, 'roundTrip', 'GET /worlds/{id}/snapshot'));
    if (this.change === 'added') {
      const entities: any[] = Array.isArray(snapshot.entities) ? snapshot.entities : [];
      const [ana, ben, user] = ['ana', 'ben', 'user'].map((n) => entities.find((e) => e?.name === n));
      if (!Array.isArray(snapshot.spaces) || !ana?.id || !ben?.id || !user?.id) return;
      // Two: a second instance, where a bug keeps one.
      const ids = [1, 2].map((n) => `cf-space-${w.slot}-${snapshot.spaces.length + n}`);
      for (const id of ids) snapshot.spaces.push({ id, name: 'a space the model added', type: 'physical', capacity: 4 });
      w.spaces = [...(w.spaces ?? []), ...ids];
      w.importedSpaces = true;
      ana.relationships = [
        { targetId: ben.id, relationship: { type: 'stranger', strength: 0.25, trust: 0.375 } },
        { targetId: user.id, relationship: { type: 'stranger', strength: 0.5, trust: 0.625 } },
      ];
      w.relationships = { [`${ana.id}|ana`]: { [`${ben.id}|ben`]: 0.375, [`${user.id}|user`]: 0.625 } };
    }
    const reply = await send(real, `import it${this.change === 'none' ? ' unchanged' : ' with two spaces and two relationships of ana (to ben and to user) added'}`, 'putWorldSnapshot', { params: { id: w.id }, key, body: { snapshot } });
    const result = accepted(reply, 'snapshotShape', 'PUT /worlds/{id}/snapshot');
    predict(result?.ok === true, 'snapshotShape', 'PUT /worlds/{id}/snapshot answers {ok: true}', '{"ok": true}', () => shortText(reply), reply);
    imported(w, this.change === 'added');
    await afterImport(w, () => look(real, w));
  }
  toString = () => `export world #${this.slot}'s snapshot and import it ${this.change === 'none' ? 'unchanged' : 'with two spaces and two relationships of one source added'}`;
}

// ---- Standalone personas ----

export class CreatePersona implements Cmd {
  /** `cap`: the personas a sequence holds at most (the tour makes four: three of one tenant for the pages of 1 and 2). */
  constructor(readonly tenant: 'main' | 'second', readonly cap = 2) {}
  check = (m: Readonly<ModelState>) => m.personas.length < this.cap;
  async run(m: ModelState, real: Real) {
    const key = keyOf(real, this.tenant);
    if (!key) return;
    const name = real.named(`model persona ${m.personas.length + 1}`);
    const reply = await send(real, this.toString(), 'createPersona', { key, body: { config: { identity: { name } } } });
    const result = accepted(reply, 'personaCreated', 'POST /personas');
    predict(typeof result.personaId === 'string' && result.personaId !== '' && typeof result.createdAt === 'number', 'personaCreated', 'POST /personas answers {personaId, createdAt}', '{"personaId": string, "createdAt": number}', () => shortText(reply), reply);
    m.personas.push({ slot: m.personas.length, id: result.personaId, tenant: this.tenant, deleted: false, name });
    await viewPersona(real, m.personas[m.personas.length - 1]);
    await viewPersonas(real, m);
  }
  toString = () => `create a standalone persona (${this.tenant} tenant)`;
}

export class PersonaLookup implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!personaAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    for (const kind of ['exact' as const, ...NEAR_KINDS, 'other-tenant' as const]) await this.one(m, real, kind);
  }
  private async one(m: ModelState, real: Real, kind: NearKind | 'exact' | 'other-tenant') {
    const p = personaAt(m, this.slot)!;
    const other = kind === 'other-tenant';
    const id = kind === 'exact' || other ? p.id : near(p.id, kind);
    const key = other ? keyOf(real, otherTenant(p.tenant)) : keyOf(real, p.tenant);
    if (!id || !key || (kind !== 'exact' && !other && m.personas.some((x) => x.id === id))) return;
    const reply = await send(real, `GET /personas/{id} with ${kind === 'exact' ? 'the id' : other ? "the other tenant's key and the id" : `a ${kind} variant of the id`} of persona #${this.slot}`, 'getPersona', { params: { id }, key });
    if (kind === 'exact') {
      if (p.deleted) predict(!is2xx(reply), 'softDeletedPersonaHidden', 'GET /personas/{id} of a soft-deleted persona', 'not a 2xx', () => shortText(reply), reply);
      else accepted(reply, p.restored ? 'softDeletePersona' : 'personaCreated', 'GET /personas/{id}');
    } else if (other) {
      if (!p.deleted) refused(reply, 'otherTenantPersona', "GET /personas/{id} of another tenant's persona", 'PERSONA_NOT_FOUND');
    } else refused(reply, 'unknownPersona', `GET /personas/${id} (a ${kind} variant of persona #${this.slot}'s id)`, 'PERSONA_NOT_FOUND');
  }
  toString = () => `GET /personas/{id} of persona #${this.slot} by its id, near variants of it and with the other tenant's key`;
}

export class PersonaDelete implements Cmd {
  /** `both`: an active persona is deleted and then restored in this one command (its restored state reached in every sequence that draws it). */
  constructor(readonly slot: number, readonly both = false) {}
  check = (m: Readonly<ModelState>) => !!personaAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    await this.toggle(m, real);
    if (this.both && personaAt(m, this.slot)!.deleted) await this.toggle(m, real);
  }
  private async toggle(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    const op = p.deleted ? 'restorePersona' : 'deletePersona';
    const reply = await send(real, this.toString(), op, { params: { id: p.id }, key: keyOf(real, p.tenant) });
    predict(is2xx(reply), 'softDeletePersona', `${p.deleted ? 'POST /personas/{id}/restore of a soft-deleted' : 'DELETE /personas/{id} of an active'} persona`, 'a 2xx', () => shortText(reply), reply);
    p.restored = p.deleted;
    p.deleted = !p.deleted;
    if (p.deleted) personaDeleted(p);
    const read = await send(real, 'read it', 'getPersona', { params: { id: p.id }, key: keyOf(real, p.tenant) });
    if (p.deleted) predict(!is2xx(read), 'softDeletedPersonaHidden', 'GET /personas/{id} of a soft-deleted persona', 'not a 2xx', () => shortText(read), read);
    else accepted(read, 'softDeletePersona', 'GET /personas/{id} after the restore');
    await viewPersona(real, p);
    await viewPersonas(real, m);
  }
  toString = () => `soft-delete${this.both ? ' and restore' : ' or restore'} persona #${this.slot}`;
}

// ---- Keys ----

export class NearKey implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    for (const kind of [...NEAR_KINDS, 'other-prefix' as const]) {
      const key = nearKey(real.keys.main, kind);
      if (!key || key === real.keys.second || key === real.keys.main) continue;
      const reply = await send(real, `GET world #${this.slot} with a ${kind} variant of the main key`, 'getWorld', { params: { id: w.id }, key });
      refused(reply, 'invalidKey', `GET /worlds/{id} with a ${kind} variant of the key`, 'UNAUTHORIZED', 401);
    }
  }
  toString = () => `GET world #${this.slot} with near variants of the main key`;
}

/** Every command, weighted; `secondKey`: the other tenant's commands too. */
export function commandArbitraries(secondKey: boolean): { first: fc.Arbitrary<Cmd[]>; all: Array<fc.Arbitrary<Cmd>> } {
  const slot = fc.nat({ max: 2 });
  const tenant = secondKey ? fc.constantFrom<'main' | 'second'>('main', 'main', 'second') : fc.constant<'main'>('main');
  const createWorld = fc.tuple(tenant, fc.constantFrom(...Object.keys(SHAPES)), fc.integer({ min: 1, max: 3 }), fc.nat({ max: 2 })).map(([t, s, th, ph]) => new CreateWorld(t, s, th, ph) as Cmd);
  const tick = fc.tuple(slot, fc.array(fc.constantFrom(...SECONDS), { minLength: 1, maxLength: 3 })).map(([s, seconds]) => new Tick(s, seconds));
  const events = fc.tuple(slot, fc.nat({ max: TYPE_CHOICES.length - 1 }), fc.integer({ min: 1, max: 4 }), fc.nat({ max: NEAR_KINDS.length - 1 })).map(([s, c, n, k]) => new Dispatch(s, c, n, k));
  // Progression moves by ticks and events: they come most often.
  const all: Array<fc.Arbitrary<Cmd>> = [
    createWorld, tick, tick, events, events, events,
    fc.tuple(fc.constantFrom(undefined, '2', '3', '7', '20', '100'), fc.integer({ min: 1, max: 3 })).map(([l, p]) => new ListWorlds(l, p)),
    // A rename is seen in the list only by a later list view: twice the weight.
    slot.map((s) => new PatchWorld(s)), slot.map((s) => new PatchWorld(s)),
    slot.map((s) => new DeleteWorld(s)),
    slot.map((s) => new RestoreWorld(s)),
    fc.tuple(slot, fc.constantFrom<'tickWorld' | 'dispatchEvent'>('tickWorld', 'dispatchEvent')).map(([s, op]) => new Lenient(s, op)),
    fc.constant(new CreateLenient()),
    // Near ids of worlds, on every operation in turn: twice the weight.
    ...[1, 2].map(() => fc.tuple(slot, fc.nat({ max: LOOKUPS.length - 1 })).map(([s, o]) => new WorldLookup(s, o))),
    fc.tuple(slot, fc.nat({ max: 1 })).map(([s, e]) => new Context(s, e)), fc.tuple(slot, fc.nat({ max: 1 })).map(([s, e]) => new Context(s, e)),
    // An import is seen by the views after it: twice the weight, most of them with spaces and relationships added.
    ...[1, 2].map(() => fc.tuple(slot, fc.constantFrom<'none' | 'added'>('none', 'added', 'added', 'added')).map(([s, c]) => new Snapshot(s, c))),
    tenant.map((t) => new CreatePersona(t)),
    fc.nat({ max: 1 }).map((s) => new PersonaLookup(s)),
    // A persona's delete is seen by its reads and the list, its restore by every later view: twice the weight.
    ...[1, 2].map(() => fc.tuple(fc.nat({ max: 1 }), fc.constantFrom(false, true, true)).map(([s, both]) => new PersonaDelete(s, both))),
    slot.map((s) => new NearKey(s)),
    ...partCommands(slot),
    ...personaArbitraries(), chatArbitrary(), originsArbitrary(), ...routeArbitraries(slot),
  ];
  // Every sequence starts with a world and a persona of the main tenant, the commands that need one then
  // apply; the world has two triggers on one event type, both reached by the events that follow, and
  // a tick then makes the second firing (a second phaseHistory entry).
  const first = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.nat({ max: 2 }))
    .map(([th, ph]): Cmd[] => [new CreateWorld('main', 'two-on-one-type', th, ph), new CreatePersona('main'), new Dispatch(0, 0, th + 1), new Tick(0, [1])]);
  return { first, all };
}

