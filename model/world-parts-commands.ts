// The commands of the model run on the parts of a world SPEC.md shows only by path (model/world-parts.ts):
// personas added to and removed from a world, custom actions, directed relationships, the time jump,
// and the batch mutation (whose shape SPEC.md does show). Each with the inputs bugs hide behind: second
// instances (two personas, two actions, two targets of one source, both directions of a pair, two
// operations of a batch and a failing one between), near variants of what the model knows, bodies a
// lenient parser takes. A command whose body the served document cannot shape does nothing.
import fc from 'fast-check';
import { accepted, codeOf, is2xx, predict, read, refused, send, shortText, type Real } from './real.ts';
import { observe, learnRateNow } from './views.ts';
import { worldAt, type ModelState } from './state.ts';
import { near, type NearKind } from './near.ts';
import type { WorldModel } from './world.ts';
import { afterImport, byType, WorldLookup, type Cmd, type Lookup } from './commands.ts';
import {
  addEntity, dropEntity, freshName, imported, hasEntity, idIn, listIn, partsOf, recordIn, viewActions, viewPersonas, viewRelationships,
  type AddedPersona, type End, type PartBodies, type Upserted,
  refusedUnknownEnd,
} from './world-parts.ts';

const json = (v: unknown) => JSON.stringify(v);
const keyOf = (real: Real, w: WorldModel) => (w.tenant === 'main' ? real.keys.main : real.keys.second);
const active = (m: Readonly<ModelState>, slot: number) => { const w = worldAt(m as ModelState, slot); return w && !w.deleted ? w : undefined; };
/** The near variants a command tries (fewer than all: each is a request). */
const SOME_KINDS: readonly NearKind[] = ['upper', 'trailing-space', 'cut-last', 'added-char'];
const bodies = (real: Real): PartBodies | undefined => real.parts;

// ---- Personas of a world ----

/** Reads an added persona by the first key the deployment accepts: its name, then the ids it reported ({pid} "a persona in a world": its form is not shown). */
async function pidOf(real: Real, w: WorldModel, name: string, ...records: unknown[]): Promise<string | undefined> {
  const keys = [...new Set([name, ...records.map((r) => idIn(r)).filter((x): x is string => !!x)])];
  for (const pid of keys) if (is2xx(await read(real, 'getWorldPersona', { params: { id: w.id, pid }, key: keyOf(real, w) }))) return pid;
  return undefined;
}

/** Context of an entity the model made: whoAmI is it, with its type; a persona added with POST /worlds/{id}/personas has a personaState. */
async function contextOf(real: Real, w: WorldModel, name: string, type: string, command: string, persona = false): Promise<void> {
  const reply = await send(real, command, 'worldContext', { params: { id: w.id }, key: keyOf(real, w), body: { entityName: name } });
  const result = accepted(reply, 'context', `POST /worlds/{id}/context {entityName: ${json(name)}}`);
  predict(result.whoAmI?.name === name && result.whoAmI?.type === type, 'context', 'context whoAmI is the named entity, with its type', `{name: ${json(name)}, type: ${json(type)}}`, () => json(result.whoAmI), reply);
  if (persona) predict(!!result.personaState && typeof result.personaState === 'object', 'context', "context of a persona entity: its personaState", 'an object', () => json(result.personaState), reply);
}

async function noEntity(real: Real, w: WorldModel, name: string, why: string, sentence: 'unknownEntity' | 'worldPersonaRemoved'): Promise<void> {
  const reply = await send(real, `context of ${json(name)} in world #${w.slot} (${why})`, 'worldContext', { params: { id: w.id }, key: keyOf(real, w), body: { entityName: name } });
  refused(reply, sentence, `POST /worlds/{id}/context {entityName: ${json(name)}} (${why})`, 'ENTITY_NOT_FOUND', 404);
}

/** Adds one persona (or two: a second instance), reads it by context and near variants of its key, and may remove one. */
export class WorldPersona implements Cmd {
  constructor(readonly slot: number, readonly adds: number, readonly remove: boolean) {}
  check = (m: Readonly<ModelState>) => !!active(m, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    if (!bodies(real)?.addPersona) return;
    for (let i = 0; i < this.adds; i++) await this.add(real, w);
    await viewPersonas(real, w);
    await observe(real, w);
    const live = partsOf(w).personas.filter((p) => !p.removed && p.pid !== undefined);
    const p = live[live.length - 1];
    if (!p) return;
    await contextOf(real, w, p.name, 'persona', `context of persona ${json(p.name)} (added to world #${this.slot})`, true);
    for (const kind of SOME_KINDS) {
      const pid = near(p.pid!, kind);
      if (pid && !hasEntity(w, pid) && !partsOf(w).personas.some((x) => x.pid === pid)) {
        const reply = await send(real, `GET a ${kind} variant of persona ${json(p.pid)} of world #${this.slot}`, 'getWorldPersona', { params: { id: w.id, pid }, key: keyOf(real, w) });
        // "persona does not exist" (PERSONA_NOT_FOUND, status not shown) or "the named entity does not exist in the world" (ENTITY_NOT_FOUND 404): either.
        if (codeOf(reply) === 'ENTITY_NOT_FOUND') refused(reply, 'unknownWorldPersona', `GET /worlds/{id}/personas/${json(pid)}`, 'ENTITY_NOT_FOUND', 404);
        else refused(reply, 'unknownWorldPersona', `GET /worlds/{id}/personas/${json(pid)} (a ${kind} variant of ${json(p.pid)})`, 'PERSONA_NOT_FOUND');
      }
    }
    const name = near(p.name, SOME_KINDS[(this.adds + w.parts!.made) % SOME_KINDS.length]);
    if (name && !hasEntity(w, name)) await noEntity(real, w, name, `a near variant of ${json(p.name)}`, 'unknownEntity');
    if (!this.remove) return;
    // The first one still there: a second instance stays.
    const gone = live[0];
    const reply = await send(real, `remove persona ${json(gone.name)} from world #${this.slot}`, 'removeWorldPersona', { params: { id: w.id, pid: gone.pid! }, key: keyOf(real, w) });
    predict(is2xx(reply), 'worldPersonas', `DELETE /worlds/{id}/personas/${gone.pid} of a persona of the world`, 'a 2xx', () => shortText(reply), reply);
    gone.removed = true;
    dropEntity(w, gone.name);
    partsOf(w).relationships = partsOf(w).relationships.filter((r) => r.source !== gone.name && r.target !== gone.name);
    await viewPersonas(real, w);
    await observe(real, w);
    await noEntity(real, w, gone.name, 'a persona removed from the world', 'worldPersonaRemoved');
  }
  private async add(real: Real, w: WorldModel) {
    const name = freshName(w);
    const displayName = `${name[0].toUpperCase()}${name.slice(1)} of the model`;
    const reply = await send(real, `add persona ${json(name)} to world #${this.slot}`, 'addWorldPersona', { params: { id: w.id }, key: keyOf(real, w), body: real.parts!.addPersona!(name, displayName) });
    const result = accepted(reply, 'worldPersonas', 'POST /worlds/{id}/personas');
    addEntity(w, name, 'persona');
    const pid = await pidOf(real, w, name, recordIn(result, 'persona'), result);
    // No config member in the served body: no configuration to look for under personaConfigs.
    partsOf(w).personas.push({ name, displayName: real.parts!.addPersonaWithConfig ? displayName : '', pid, removed: false });
    predict(pid !== undefined, 'worldPersonas', `GET /worlds/{id}/personas/{pid} of persona ${json(name)} just added`, 'a 2xx by its name or by an id its answer gave', () => shortText(reply), reply);
  }
  toString = () => `add ${this.adds === 1 ? 'a persona' : 'two personas'} to world #${this.slot}, read it by context and near variants of its key${this.remove ? ', then remove the first added' : ''}`;
}

// ---- Actions ----

/** Creates one custom action (or two: a second instance), then may delete one, or delete near variants of its id. */
export type After = 'none' | 'delete' | 'near' | 'import';
export class Actions implements Cmd {
  constructor(readonly slot: number, readonly creates: number, readonly after: After) {}
  check = (m: Readonly<ModelState>) => !!active(m, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const make = bodies(real)?.createAction;
    if (!make) return;
    const p = partsOf(w);
    const liveOne = () => p.actions.find((x) => !x.deleted && x.aid !== undefined);
    // The defaults, counted before the first custom action.
    if (p.defaults === undefined && !p.actions.length) await viewActions(real, w);
    for (let i = 0; i < this.creates; i++) {
      const name = `cf-wave-${freshName(w)}`;
      const reply = await send(real, `create custom action ${json(name)} in world #${this.slot}`, 'createAction', { params: { id: w.id }, key: keyOf(real, w), body: make(name) });
      const result = accepted(reply, 'actions', 'POST /worlds/{id}/actions');
      p.actions.push({ name, aid: idIn(recordIn(result, 'action'), result), deleted: false });
    }
    const a = liveOne();
    if (a && this.after !== 'none') {
      // Deleting an action that does not exist: its answer is not shown (a 4xx, or a 2xx for an idempotent
      // delete); the action named by the real id stays. Sent before every delete: a bug there shows on one draw.
      for (const kind of SOME_KINDS) {
        const aid = near(a.aid!, kind);
        if (aid && !p.actions.some((x) => x.aid === aid)) await send(real, `delete a ${kind} variant of action id ${json(a.aid)} in world #${this.slot}`, 'deleteAction', { params: { id: w.id, aid }, key: keyOf(real, w) });
      }
      if (this.after === 'delete') {
        const reply = await send(real, `delete custom action ${json(a.name)} of world #${this.slot}`, 'deleteAction', { params: { id: w.id, aid: a.aid! }, key: keyOf(real, w) });
        predict(is2xx(reply), 'actions', `DELETE /worlds/{id}/actions/${a.aid} of a custom action`, 'a 2xx', () => shortText(reply), reply);
        a.deleted = true;
      }
    }
    await viewActions(real, w);
  }
  toString = () => `create ${this.creates === 1 ? 'a custom action' : 'two custom actions'} in world #${this.slot}${{ none: '', delete: ', then delete near variants of its id and it', near: ', then delete near variants of its id', import: '' }[this.after]}`;
}

// ---- Relationships ----

/** Directed pairs an upsert takes ("between an actor and a persona"): two targets of user, both directions of ana and ben. */
const PAIRS: Array<[string, string]> = [['user', 'ana'], ['user', 'ben'], ['ana', 'ben'], ['ben', 'ana']];
const TRUSTS = [0.125, 0.375, 0.75, 0.875, 0.25];
/** Upserts one or two directed pairs, then may delete one, upsert naming near variants of an entity, or export and import the world (the snapshot carries them). */
export class Relationships implements Cmd {
  constructor(readonly slot: number, readonly after: After, readonly pairs: number[], readonly trust: number) {}
  check = (m: Readonly<ModelState>) => !!active(m, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const upsert = bodies(real)?.upsertRelationship;
    if (!upsert) return;
    const p = partsOf(w);
    if (!Object.keys(p.ids).length) await observe(real, w); // query shows the entities' ids (a body may name an end by id)
    const endOf = (name: string): End => ({ name, id: p.ids[name] });
    {
      for (const [i, n] of this.pairs.entries()) {
        const [source, target] = PAIRS[n % PAIRS.length];
        const trust = TRUSTS[(this.trust + i) % TRUSTS.length];
        const reply = await send(real, `upsert the relationship ${source} → ${target} (trust ${trust}) in world #${this.slot}`, 'upsertRelationship', { params: { id: w.id }, key: keyOf(real, w), body: upsert(endOf(source), endOf(target), trust) });
        const result = accepted(reply, 'relationships', 'PUT /worlds/{id}/relationships');
        const known = p.relationships.find((r) => r.source === source && r.target === target);
        const rid = idIn(recordIn(result, 'relationship'), result) ?? known?.rid;
        p.relationships = [...p.relationships.filter((r) => r !== known), { source, target, trust, rid }];
        p.gone = p.gone.filter((g) => !(g.source === source && g.target === target));
        // An imported relationship of the same pair is now this one.
        for (const [s, targets] of Object.entries(w.relationships ?? {})) if (s.endsWith(`|${source}`)) for (const t of Object.keys(targets)) if (t.endsWith(`|${target}`)) delete targets[t];
      }
    }
    if (this.after === 'delete') {
      const r = p.relationships[this.pairs[0] % p.relationships.length];
      const rid = r.rid ?? await this.ridFromList(real, w, r);
      if (rid === undefined) return;
      const reply = await send(real, `delete the relationship ${r.source} → ${r.target} of world #${this.slot}`, 'deleteRelationship', { params: { id: w.id, rid }, key: keyOf(real, w) });
      predict(is2xx(reply), 'relationships', `DELETE /worlds/{id}/relationships/${rid}`, 'a 2xx', () => shortText(reply), reply);
      p.relationships = p.relationships.filter((x) => x !== r);
      p.gone.push({ source: r.source, target: r.target });
    }
    if (this.after !== 'import') {
      // "the named entity does not exist in the world": either end a near variant of a name (or id) the
      // world has. On every draw but an import's: a bug there shows on one draw.
      const [source, target] = PAIRS[this.pairs[0] % PAIRS.length];
      const kind = SOME_KINDS[this.trust % SOME_KINDS.length];
      for (const side of ['source', 'target'] as const) {
        const named = side === 'source' ? source : target;
        const variant = (v: string | undefined) => (v === undefined ? undefined : near(v, kind));
        const wrong: End = { name: variant(named) ?? `${named}x`, id: variant(p.ids[named]) };
        if (hasEntity(w, wrong.name)) continue;
        const body = upsert(side === 'source' ? wrong : endOf(source), side === 'target' ? wrong : endOf(target), 0.5);
        const reply = await send(real, `upsert a relationship whose ${side} is a ${kind} variant of ${json(named)} in world #${this.slot}`, 'upsertRelationship', { params: { id: w.id }, key: keyOf(real, w), body });
        if (codeOf(reply) === 'VALIDATION_ERROR' && real.parts!.problem('upsertRelationship', body)) continue; // a body the served schema refuses: 400 is its answer
        refusedUnknownEnd(reply, `PUT /worlds/{id}/relationships with the ${side} ${json(wrong.name)}${wrong.id ? ` (or ${json(wrong.id)})` : ''} (a ${kind} variant)`);
      }
    }
    if (this.after === 'import') {
      const exported = accepted(await send(real, `export world #${this.slot}`, 'getWorldSnapshot', { params: { id: w.id }, key: keyOf(real, w) }), 'roundTrip', 'GET /worlds/{id}/snapshot');
      const reply = await send(real, 'import it unchanged', 'putWorldSnapshot', { params: { id: w.id }, key: keyOf(real, w), body: { snapshot: exported } });
      accepted(reply, 'snapshotShape', 'PUT /worlds/{id}/snapshot');
      imported(w, false);
      // The snapshot's entities carried the relationships: what the views then show is the import's (MODEL-3).
      await afterImport(w, () => this.views(real, w), true);
      return;
    }
    await this.views(real, w);
  }
  private async views(real: Real, w: WorldModel) {
    await viewRelationships(real, w);
    await observe(real, w, { snapshot: true });
  }
  private async ridFromList(real: Real, w: WorldModel, r: Upserted): Promise<string | undefined> {
    const list = listIn(accepted(await read(real, 'listRelationships', { params: { id: w.id }, key: keyOf(real, w) }), 'relationships', 'GET /worlds/{id}/relationships'), 'relationships') ?? [];
    const p = partsOf(w);
    return idIn(list.find((x) => real.parts!.directed(x, [r.source, p.ids[r.source]], [r.target, p.ids[r.target]])));
  }
  toString = () => `upsert ${this.pairs.map((n) => PAIRS[n % PAIRS.length].join(' → ')).join(' and ')} in world #${this.slot}${{ none: ', then upsert naming near variants of its entities', delete: ', then delete one and upsert naming near variants of its entities', near: ', then upsert naming near variants of its entities', import: ', then export and import the world' }[this.after]}`;
}

// ---- Time jump ----

export class TimeJump implements Cmd {
  constructor(readonly slot: number, readonly times: number[]) {}
  check = (m: Readonly<ModelState>) => !!active(m, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const jump = bodies(real)?.timeJump;
    if (!jump) return;
    for (const times of this.times) {
      const { body, amount } = jump(times);
      const reply = await send(real, `jump world #${this.slot} forward by ${amount} (${json(body)})`, 'timeJump', { params: { id: w.id }, key: keyOf(real, w), body });
      const result = accepted(reply, 'timeJump', `POST /worlds/{id}/time-jump ${json(body)}`);
      w.jumps = [...(w.jumps ?? []), amount];
      // Events a jump reports may be counted (the same slack as a tick's).
      for (const [type, n] of Object.entries(byType(result?.events))) w.generated[type] = (w.generated[type] ?? 0) + n;
      await learnRateNow(real, w);
    }
    await observe(real, w, { snapshot: true });
  }
  toString = () => `jump world #${this.slot} forward by ${this.times.join(', then ')} times the base amount`;
}

// ---- Batch mutation ----

const UNKNOWN_OP = 'cf_no_such_operation';
/** one: an add_entity; batch: a user, an operation no deployment knows, a persona (each its own result, the others applied); then bodies a lenient parser takes (refused). */
export type MutateMode = 'one' | 'batch';
export class Mutate implements Cmd {
  constructor(readonly slot: number, readonly mode: MutateMode) {}
  check = (m: Readonly<ModelState>) => !!active(m, this.slot);
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const key = keyOf(real, w);
    const adds = (this.mode === 'one' ? ['user'] : ['user', 'persona']).map((type) => ({ op: 'add_entity', name: freshName(w), type }));
    const operations: Array<Record<string, string>> = this.mode === 'batch' ? [adds[0], { op: UNKNOWN_OP, name: 'cf-never' }, adds[1]] : adds;
    const reply = await send(real, `mutate world #${this.slot}: ${operations.map((o) => `${o.op} ${o.name}`).join(', ')}`, 'mutateWorld', { params: { id: w.id }, key, body: { operations } });
    const results = accepted(reply, this.mode === 'batch' ? 'mutateFailed' : 'mutateResults', 'POST /worlds/{id}/mutate')?.results;
    predict(Array.isArray(results) && results.length === operations.length, 'mutateResults', 'POST /worlds/{id}/mutate: "one result per operation"', `${operations.length} results`, () => shortText(reply), reply);
    for (const [i, o] of operations.entries()) {
      const r = results[i];
      if (o.op === UNKNOWN_OP) {
        predict(r?.op === UNKNOWN_OP && r?.ok === false && typeof r?.error === 'string' && r.error !== '', 'mutateFailed', `POST /worlds/{id}/mutate: results[${i}], an operation no deployment knows`,
          `its own entry: {op: ${json(UNKNOWN_OP)}, ok: false, error: a string}`, () => json(r), reply);
      } else {
        predict(r?.op === o.op && r?.ok === true, this.mode === 'batch' ? 'mutateOthers' : 'mutateResults', `POST /worlds/{id}/mutate: results[${i}], add_entity ${json(o.name)}`, '{op: "add_entity", ok: true}', () => json(r), reply);
        addEntity(w, o.name, o.type);
        partsOf(w).mutated.push({ name: o.name, type: o.type });
      }
    }
    await observe(real, w);
    for (const a of adds) await contextOf(real, w, a.name, a.type, `context of ${json(a.name)} (added by the batch)`);
    const never = { op: 'add_entity', name: 'cf-never', type: 'user' };
    for (const [what, lenient] of [['a JSON string', JSON.stringify([never])], ['an object (not an array)', never]] as const) {
      const refusedReply = await send(real, `mutate world #${this.slot} with operations as ${what}`, 'mutateWorld', { params: { id: w.id }, key, body: { operations: lenient } });
      refused(refusedReply, 'invalidBody', `POST /worlds/{id}/mutate with operations as ${what}`, 'VALIDATION_ERROR', 400);
    }
  }
  toString = () => `mutate world #${this.slot}: ${this.mode === 'one' ? 'add an entity' : 'add a user and a persona with an unknown operation between them'}, then with operations a lenient parser takes (each refused)`;
}

/** Lookups of the parts' operations on near variants of a world id and another tenant's world: WORLD_NOT_FOUND. */
export const PART_LOOKUPS: readonly Lookup[] = [
  { op: 'listWorldPersonas', body: undefined }, { op: 'listActions', body: undefined }, { op: 'listRelationships', body: undefined },
  { op: 'mutateWorld', body: { operations: [{ op: 'add_entity', name: 'cf-never', type: 'user' }] } },
];

/** The parts' commands (about 30% of the draws: the existing commands keep the rest). */
export function partCommands(slot: fc.Arbitrary<number>): Array<fc.Arbitrary<Cmd>> {
  const persona = fc.tuple(slot, fc.integer({ min: 1, max: 2 }), fc.boolean()).map(([s, adds, remove]) => new WorldPersona(s, adds, remove));
  const mutate = fc.tuple(slot, fc.constantFrom<MutateMode>('one', 'batch', 'batch')).map(([s, mode]) => new Mutate(s, mode));
  const actions = fc.tuple(slot, fc.integer({ min: 1, max: 2 }), fc.constantFrom<After>('delete', 'near')).map(([s, n, after]) => new Actions(s, n, after));
  const relationships = fc.tuple(slot, fc.constantFrom<After>('none', 'delete', 'near', 'import'), fc.array(fc.nat({ max: PAIRS.length - 1 }), { minLength: 1, maxLength: 2 }), fc.nat({ max: TRUSTS.length - 1 }))
    .map(([s, after, pairs, trust]) => new Relationships(s, after, pairs, trust));
  // Two jumps of different sizes, the larger one or the other first: the second is compared with the rate the first showed.
  const jump = fc.tuple(slot, fc.constantFrom<number[]>([1, 3], [3, 1], [2, 3], [3, 2])).map(([s, times]) => new TimeJump(s, times));
  const lookup = fc.tuple(slot, fc.nat({ max: PART_LOOKUPS.length - 1 })).map(([s, o]) => new WorldLookup(s, o, PART_LOOKUPS));
  // The batch and the personas carry the most sentences: drawn twice as often as the others.
  return [mutate, mutate, persona, persona, actions, relationships, jump, lookup];
}
