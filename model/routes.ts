// Every route that takes an identifier, on every near kind of it (model/near.ts) and with the other
// tenant's key: the world routes the lookup tables of commands.ts and world-parts-commands.ts do not
// hold (DELETE, restore, chat, the events list, context, the snapshot import, the time jump, the parts'
// creations and their {pid}, {aid}, {rid} routes), a persona's snapshot import, a world persona's {pid}
// on GET and DELETE, and the names a body carries (chat `from` and `to`, an event's ends, a relationship's ends). Each
// near variant is "does not exist" (Errors), and the views after show that nothing changed. A bug on one
// route and one near kind is then found by the tour, at every seed. Bodies are valid ones (the world's
// own names, its own export), so that the identifier is the only thing a deployment can refuse.
import fc from 'fast-check';
import { codeOf, is2xx, predict, refused, send, shortText, type Real } from './real.ts';
import { personaAt, worldAt, type ModelState } from './state.ts';
import { near, NEAR_KINDS, type NearKind } from './near.ts';
import { observe, viewList } from './views.ts';
import { hasEntity, partsOf, refusedUnknownEnd, viewActions, viewPersonas, viewRelationships, type End } from './world-parts.ts';
import { viewPersona } from './personas.ts';
import type { Cmd } from './commands.ts';
import { PersonaLenient, WorldLenient } from './lenient.ts';
import type { Tenant, WorldModel } from './world.ts';

const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const keyOf = (real: Real, t: Tenant) => (t === 'main' ? real.keys.main : real.keys.second);
const otherTenant = (t: Tenant): Tenant => (t === 'main' ? 'second' : 'main');
type Variant = NearKind | 'other-tenant';
const VARIANTS: readonly Variant[] = [...NEAR_KINDS, 'other-tenant'];

/** What a route's request needs beyond the world id: the world's export (for the import), its names. */
interface Known { exported?: any; user: string; persona: string }
/** A world route: its other path parameters and its body (undefined: the served document cannot shape it, or nothing to name: not sent). */
interface WorldRoute { op: string; params?: (w: WorldModel) => Record<string, string> | undefined; body?: (real: Real, w: WorldModel, k: Known, id: string) => unknown }

const endOf = (w: WorldModel, name: string): End => ({ name, id: w.parts?.ids[name] });
const livePid = (w: WorldModel) => w.parts?.personas.find((p) => !p.removed && p.pid !== undefined)?.pid;

/** The world routes beyond the lookup tables (LOOKUPS, PART_LOOKUPS), each with a valid body. interact (billable) is not sent. */
export const WORLD_ROUTES: readonly WorldRoute[] = [
  { op: 'deleteWorld' }, { op: 'restoreWorld' }, { op: 'listWorldEvents' },
  { op: 'chat', body: (_r, _w, k) => ({ from: k.user, to: k.persona, message: 'Hello, who is there?' }) },
  { op: 'worldContext', body: (_r, _w, k) => ({ entityName: k.persona }) },
  // The export, its id the one sent (a deployment may compare the two before looking the world up).
  { op: 'putWorldSnapshot', body: (_r, _w, k, id) => (k.exported ? { snapshot: { ...k.exported, id } } : undefined) },
  { op: 'timeJump', body: (real) => real.parts?.timeJump?.(1).body },
  { op: 'addWorldPersona', body: (real) => real.parts?.addPersona?.('cfnever', 'Never of the model') },
  { op: 'createAction', body: (real) => real.parts?.createAction?.('cf-never-action') },
  { op: 'upsertRelationship', body: (real, w, k) => real.parts?.upsertRelationship?.(endOf(w, k.user), endOf(w, k.persona), 0.5) },
  // A part's own routes under a near world id: its real key.
  { op: 'getWorldPersona', params: (w) => (livePid(w) ? { pid: livePid(w)! } : undefined) },
  { op: 'removeWorldPersona', params: (w) => (livePid(w) ? { pid: livePid(w)! } : undefined) },
  { op: 'deleteAction', params: (w) => { const aid = w.parts?.actions.find((a) => !a.deleted && a.aid !== undefined)?.aid; return aid ? { aid } : undefined; } },
  { op: 'deleteRelationship', params: (w) => { const rid = w.parts?.relationships.find((r) => r.rid !== undefined)?.rid; return rid ? { rid } : undefined; } },
];

/**
 * Every route of WORLD_ROUTES on every near variant of world #slot's id and with the other tenant's key:
 * 404 WORLD_NOT_FOUND; then every view of the world (GET, the list, query, snapshot, its parts) as the
 * model has it. `every`: the routes sent on every kind (the others one kind each, cycling; all: undefined).
 */
export class WorldRoutes implements Cmd {
  constructor(readonly slot: number, readonly every?: readonly string[]) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const key = keyOf(real, w.tenant);
    if (!key) return;
    const personas = w.entities.filter((e) => e.type === 'persona').map((e) => e.name);
    const k: Known = { user: w.entities.find((e) => e.type === 'user')?.name ?? personas[1], persona: personas[0] };
    if (!w.deleted) {
      // The query shows the entities' ids (a relationship body may name an end by id); the export is the import's body.
      if (real.parts && !Object.keys(partsOf(w).ids).length) await observe(real, w);
      const exported = await send(real, `export world #${this.slot} (the body of the imports below)`, 'getWorldSnapshot', { params: { id: w.id }, key });
      k.exported = is2xx(exported) ? structuredClone(exported.body?.result) : undefined;
    }
    for (const [i, route] of WORLD_ROUTES.entries()) {
      const params = route.params ? route.params(w) : {};
      if (!params) continue;
      const variants = !this.every || this.every.includes(route.op) ? VARIANTS : [NEAR_KINDS[i % NEAR_KINDS.length], 'other-tenant' as const];
      for (const kind of variants) {
        const other = kind === 'other-tenant';
        const id = other ? w.id : near(w.id, kind);
        const sendKey = other ? keyOf(real, otherTenant(w.tenant)) : key;
        if (!id || !sendKey || (other && w.deleted) || (!other && m.worlds.some((x) => x.id === id))) continue;
        const body = route.body?.(real, w, k, id);
        if (route.body && body === undefined) break;
        const reply = await send(real, `${route.op} on ${other ? "another tenant's key for" : `a ${kind} variant of the id of`} world #${this.slot}`, route.op, { params: { id, ...params }, key: sendKey, body });
        refused(reply, other ? 'otherTenantWorld' : 'unknownWorld', `${route.op} on ${other ? "another tenant's world" : `${json(id)}, a near variant (${kind}) of world #${this.slot}'s id`}`, 'WORLD_NOT_FOUND', 404);
      }
    }
    // Nothing changed: every view of the world, its parts' lists too.
    await observe(real, w, { snapshot: !w.deleted });
    await viewList(real, m);
    if (!w.deleted && w.parts && real.parts) {
      await viewPersonas(real, w);
      if (w.parts.actions.length) await viewActions(real, w);
      if (w.parts.relationships.length) await viewRelationships(real, w);
    }
  }
  toString = () => `${WORLD_ROUTES.map((r) => r.op).join(', ')} on ${this.every ? `near variants (every one on ${this.every.join(', ')})` : 'every near variant'} of world #${this.slot}'s id and with the other tenant's key`;
}

/**
 * GET and DELETE /worlds/{id}/personas/{pid} on every near variant of an added persona's key: a 4xx with
 * PERSONA_NOT_FOUND ("persona does not exist", status not shown) or 404 ENTITY_NOT_FOUND; the persona is
 * then still listed, readable and an entity.
 */
export class WorldPersonaRoutes implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const p = w.parts?.personas.find((x) => !x.removed && x.pid !== undefined);
    const key = keyOf(real, w.tenant);
    if (!p || !key || !real.parts) return;
    for (const op of ['getWorldPersona', 'removeWorldPersona']) {
      for (const kind of NEAR_KINDS) {
        const pid = near(p.pid!, kind);
        if (!pid || hasEntity(w, pid) || w.parts!.personas.some((x) => x.pid === pid)) continue;
        const reply = await send(real, `${op} on a ${kind} variant of persona ${json(p.pid)} of world #${this.slot}`, op, { params: { id: w.id, pid }, key });
        const what = `${op === 'getWorldPersona' ? 'GET' : 'DELETE'} /worlds/{id}/personas/${json(pid)} (a ${kind} variant of ${json(p.pid)})`;
        if (codeOf(reply) === 'ENTITY_NOT_FOUND') refused(reply, 'unknownWorldPersona', what, 'ENTITY_NOT_FOUND', 404);
        else refused(reply, 'unknownWorldPersona', what, 'PERSONA_NOT_FOUND');
      }
    }
    // Still there: listed, readable, an entity of query.
    await viewPersonas(real, w);
    await observe(real, w);
  }
  toString = () => `GET and DELETE /worlds/{id}/personas/{pid} on every near variant of a persona added to world #${this.slot}`;
}

/** PUT /personas/{id}/snapshot (the one persona route the lookup table lacks) on every near variant of persona #slot's id and with the other tenant's key. */
export class PersonaRoutes implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!personaAt(m as ModelState, this.slot) && !personaAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    const key = keyOf(real, p.tenant);
    if (!key) return;
    const exported = await send(real, `export persona #${this.slot} (the body of the imports below)`, 'getPersonaSnapshot', { params: { id: p.id }, key });
    const own = is2xx(exported) ? { snapshot: exported.body?.result } : undefined;
    // Its own export where the served schema takes it, else the empty snapshot.
    const body = own && !real.parts?.problem('putPersonaSnapshot', own) ? own : { snapshot: {} };
    if (real.parts?.problem('putPersonaSnapshot', body)) return;
    for (const kind of VARIANTS) {
      const other = kind === 'other-tenant';
      const id = other ? p.id : near(p.id, kind);
      const sendKey = other ? keyOf(real, otherTenant(p.tenant)) : key;
      if (!id || !sendKey || (!other && m.personas.some((x) => x.id === id))) continue;
      const reply = await send(real, `putPersonaSnapshot on ${other ? "another tenant's key for" : `a ${kind} variant of the id of`} persona #${this.slot}`, 'putPersonaSnapshot', { params: { id }, key: sendKey, body });
      refused(reply, other ? 'otherTenantPersona' : 'unknownPersona', `PUT /personas/{id}/snapshot on ${other ? "another tenant's persona" : `${json(id)}, a near variant (${kind}) of persona #${this.slot}'s id`}`, 'PERSONA_NOT_FOUND');
    }
    await viewPersona(real, p);
  }
  toString = () => `PUT /personas/{id}/snapshot on every near variant of persona #${this.slot}'s id and with the other tenant's key`;
}

/**
 * The names a body carries, each with every near kind: chat `from` and `to` (each side), an event's
 * `sourceEntity` and `targetEntity`, a relationship upsert's source and target: 404 ENTITY_NOT_FOUND ("the named entity does not exist in the world"; a
 * relationship may say PERSONA_NOT_FOUND too, refusedUnknownEnd; a relationship body the served schema
 * refuses: 400 VALIDATION_ERROR is its answer). Then every view.
 */
export class NameRoutes implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const key = keyOf(real, w.tenant);
    if (!key) return;
    const personas = w.entities.filter((e) => e.type === 'persona').map((e) => e.name);
    const from = w.entities.find((e) => e.type === 'user')?.name ?? personas[1];
    const to = personas[0];
    const message = 'Hello, who is there?';
    for (const side of ['from', 'to'] as const) {
      const named = side === 'from' ? from : to;
      for (const kind of NEAR_KINDS) {
        const variant = near(named, kind);
        if (!variant || hasEntity(w, variant)) continue;
        const reply = await send(real, `chat ${side} ${json(variant)} (a ${kind} variant) in world #${this.slot}`, 'chat', { params: { id: w.id }, key, body: { from, to, message, [side]: variant } });
        refused(reply, 'unknownEntity', `POST /worlds/{id}/chat {${side}: ${json(variant)}} (a ${kind} variant of ${json(named)})`, 'ENTITY_NOT_FOUND', 404);
      }
    }
    // An event's ends (as errors.test.ts charges them: ERR-2); its type no trigger counts.
    for (const side of ['sourceEntity', 'targetEntity'] as const) {
      const named = side === 'sourceEntity' ? from : to;
      for (const kind of NEAR_KINDS) {
        const variant = near(named, kind);
        if (!variant || hasEntity(w, variant)) continue;
        const reply = await send(real, `dispatch an event whose ${side} is ${json(variant)} (a ${kind} variant) to world #${this.slot}`, 'dispatchEvent', { params: { id: w.id }, key, body: { type: 'cf-other', sourceEntity: from, targetEntity: to, [side]: variant } });
        refused(reply, 'unknownEntity', `POST /worlds/{id}/events {${side}: ${json(variant)}} (a ${kind} variant of ${json(named)})`, 'ENTITY_NOT_FOUND', 404);
      }
    }
    const upsert = real.parts?.upsertRelationship;
    if (upsert) {
      if (!Object.keys(partsOf(w).ids).length) await observe(real, w);
      for (const side of ['source', 'target'] as const) {
        const named = side === 'source' ? from : to;
        for (const kind of NEAR_KINDS) {
          const wrong: End = { name: near(named, kind) ?? `${named}x`, id: w.parts?.ids[named] === undefined ? undefined : near(w.parts.ids[named], kind) };
          if (hasEntity(w, wrong.name)) continue;
          const body = upsert(side === 'source' ? wrong : endOf(w, from), side === 'target' ? wrong : endOf(w, to), 0.5);
          const reply = await send(real, `upsert a relationship whose ${side} is a ${kind} variant of ${json(named)} in world #${this.slot}`, 'upsertRelationship', { params: { id: w.id }, key, body });
          if (codeOf(reply) === 'VALIDATION_ERROR' && real.parts!.problem('upsertRelationship', body)) continue;
          refusedUnknownEnd(reply, `PUT /worlds/{id}/relationships with the ${side} ${json(wrong.name)}${wrong.id ? ` (or ${json(wrong.id)})` : ''} (a ${kind} variant)`);
        }
      }
      await viewRelationships(real, w);
    }
    await observe(real, w, { snapshot: true });
  }
  toString = () => `chat, events and relationship upserts naming every near variant of either entity in world #${this.slot}`;
}

/**
 * A PATCH that sets rules.physics (every member the world has flipped, one added true where none was
 * false: a false and a true each time) with a new name; GET, the list and the snapshot then show both.
 * The whole map is sent, so a merge and a replace of it read back alike. Only where the served
 * document's PATCH body carries a definition with rules.
 */
export class PatchPhysics implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const name = real.named(`model renamed ${w.slot + 1}.${(w.renames ?? 0) + 1}`);
    const renamed = real.patchBody?.(name) as any;
    if (!renamed || typeof renamed.definition !== 'object' || renamed.definition === null) return;
    const physics: Record<string, boolean> = Object.fromEntries(Object.entries(w.physics).map(([k, v]) => [k, !v]));
    if (!Object.values(w.physics).includes(false)) physics.levitation = true;
    const body = { ...renamed, definition: { ...renamed.definition, rules: { physics } } };
    if (real.parts?.problem('updateWorld', body)) return;
    const reply = await send(real, `PATCH world #${this.slot}: a new name and rules.physics ${json(physics)}`, 'updateWorld', { params: { id: w.id }, key: keyOf(real, w.tenant), body });
    predict(is2xx(reply), 'patched', `PATCH /worlds/{id} setting rules.physics ${json(physics)}`, 'a 2xx', () => shortText(reply), reply);
    w.renames = (w.renames ?? 0) + 1;
    w.name = name;
    w.patched = true;
    w.physics = physics;
    w.physicsPatched = true;
    await observe(real, w, { snapshot: true });
    await viewList(real, m);
  }
  toString = () => `PATCH world #${this.slot}'s name and rules.physics (a member set false, another true)`;
}

/** The random draws of these commands (the tour sends each once): a PATCH of physics, a world persona's {pid}, the lenient bodies, in any order with the rest. */
export function routeArbitraries(slot: fc.Arbitrary<number>): Array<fc.Arbitrary<Cmd>> {
  return [
    slot.map((s) => new PatchPhysics(s)), slot.map((s) => new WorldPersonaRoutes(s)),
    slot.map((s) => new WorldLenient(s)), fc.nat({ max: 1 }).map((s) => new PersonaLenient(s)),
  ];
}
