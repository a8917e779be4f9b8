// The standalone-persona commands beyond create, read, delete and restore: the persona list (every
// page along the cursor), PATCH, annotations (in order: a second one), a forced response (used once),
// perceive (the persona's "next response"), and every persona operation on a near variant of a known id
// or with the other tenant's key. SPEC.md shows no body of annotate, next-response or perceive and no
// pagination parameter of GET /personas: the scenario file reads them from the served document
// (`PersonaOps`); what it cannot find is not sent. Predicted only where SPEC.md determines the answer.
import fc from 'fast-check';
import type { Reply } from '../suite/http/client.ts';
import { accepted, is2xx, predict, read, refused, send, shortText, type Real } from './real.ts';
import { personaAt, type ModelState, type PersonaModel } from './state.ts';
import { near, NEAR_KINDS } from './near.ts';
import type { Tenant } from './world.ts';

type Cmd = fc.AsyncCommand<ModelState, Real>;
const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/** What the persona commands need from the served document (SPEC.md does not show these shapes). */
export interface PersonaOps {
  /** How GET /personas pages: the served document's page-size and cursor parameters and next-page member. */
  paging: { sizeParam?: string; minSize?: number; maxSize?: number; cursorParam?: string; nextMember?: string };
  /** The personas of a GET /personas result, or undefined when it holds no list. */
  items: (result: unknown) => unknown[] | undefined;
  /** Bodies carrying a text (undefined: the document names no member for it). */
  annotateBody?: (text: string) => unknown;
  forceBody?: (text: string) => unknown;
  /** A perceive body carrying this event (bare, or wrapped as the document asks). */
  perceiveBody: (event: Record<string, unknown>) => unknown;
}

/** What the model knows of a persona's runtime: annotations not yet seen, forced texts pending and used. */
export interface PersonaRuntime {
  /** Annotations sent since the last response and the last prompt-context read, in order. */
  notes: string[];
  /** The forced text the next response must have. */
  forced?: string;
  /** A forced text the next response may have or not (it was pending across a delete and restore: not shown). */
  forcedMaybe?: string;
  /** Forced texts already used: no later response has them. */
  used: string[];
  /** Texts made for this persona (each unique). */
  made: number;
}

const runtimeOf = (p: PersonaModel): PersonaRuntime => (p.runtime ??= { notes: [], used: [], made: 0 });
const keyOf = (real: Real, tenant: Tenant) => (tenant === 'main' ? real.keys.main : real.keys.second);
const otherTenant = (t: Tenant): Tenant => (t === 'main' ? 'second' : 'main');
const live = (slot: number) => (m: Readonly<ModelState>) => !!personaAt(m as ModelState, slot) && !personaAt(m as ModelState, slot)!.deleted;
/** The id a listed persona carries (`id`, or `personaId`). */
const idOf = (x: any): unknown => x?.id ?? x?.personaId;

// ---- The list ----

/**
 * GET /personas page after page at `size` (the document's page-size parameter, when it has one): no
 * persona twice, no page above the size asked. Complete when a page gave no next cursor.
 */
async function walkPersonas(real: Real, key: string, size: number | undefined, maxPages: number, label: string) {
  const ops = real.personas!;
  const { sizeParam, cursorParam, nextMember } = ops.paging;
  const seen = new Set<unknown>();
  let cursor: string | undefined;
  let reply: Reply | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query: Record<string, string> = {};
    if (sizeParam && size !== undefined) query[sizeParam] = String(size);
    if (cursor && cursorParam) query[cursorParam] = cursor;
    reply = await read(real, 'listPersonas', { key, query });
    const items = ops.items(accepted(reply, 'personaList', `GET /personas (${label})`));
    const r = reply;
    predict(Array.isArray(items), 'personaList', `GET /personas (${label}) answers a list of personas`, 'a list', () => shortText(r), r);
    if (sizeParam && size !== undefined) {
      predict(items!.length <= size, 'personaList', `GET /personas?${sizeParam}=${size} page ${page + 1}`, `at most ${size} personas`, () => `${items!.length} personas`, r);
    }
    for (const item of items!) {
      const id = idOf(item);
      predict(!seen.has(id), 'personaList', `following ${nextMember} (${label}) serves persona ${json(id)} again on page ${page + 1}`, 'every persona once', () => 'already on an earlier page', r);
      seen.add(id);
    }
    const next = nextMember ? resultNext(reply, nextMember) : undefined;
    if (!next) return { seen, complete: true, reply };
    if (!cursorParam) return { seen, complete: false, reply };
    cursor = next;
  }
  return { seen, complete: false, reply };
}
const resultNext = (reply: Reply, member: string): string | undefined => {
  const v = (reply.body as any)?.result?.[member];
  return typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;
};
const pageSize = (real: Real, wanted: number) => {
  const { minSize, maxSize } = real.personas!.paging;
  return Math.max(minSize ?? 1, Math.min(maxSize ?? wanted, wanted));
};

/** The list view: every active persona of the run listed once with its tenant's key, no soft-deleted one, no other tenant's. */
export async function viewPersonas(real: Real, m: ModelState): Promise<void> {
  if (!real.personas) return;
  for (const tenant of ['main', 'second'] as const) {
    const key = keyOf(real, tenant);
    const mine = m.personas.filter((p) => p.tenant === tenant);
    if (!key || !mine.length) continue;
    const { seen, complete, reply } = await walkPersonas(real, key, real.personas.paging.sizeParam ? pageSize(real, 100) : undefined, 30, `the ${tenant} tenant's, every page`);
    if (!complete || !reply) continue;
    for (const p of mine) {
      if (p.deleted) predict(!seen.has(p.id), 'softDeletedPersonaHidden', `GET /personas lists soft-deleted persona ${p.id}`, 'not listed', () => 'listed', reply);
      else predict(seen.has(p.id), 'personaList', `GET /personas (every page) lists persona ${p.id}`, 'listed once', () => `not listed among ${seen.size} personas`, reply);
    }
    const other = m.personas.filter((p) => p.tenant !== tenant).map((p) => p.id).filter((id) => seen.has(id));
    predict(!other.length, 'otherTenantPersona', `GET /personas with the ${tenant} key lists another tenant's persona`, "none of the other tenant's personas", () => json(other), reply);
  }
}

/** GET /personas at the smallest page sizes, 1 and 2 (later pages: the cursor's use), then the whole list. */
export class ListPersonas implements Cmd {
  check = (m: Readonly<ModelState>) => m.personas.length > 0;
  async run(m: ModelState, real: Real) {
    if (!real.personas) return;
    for (const wanted of real.personas.paging.sizeParam ? [1, 2] : [undefined]) {
      const size = wanted === undefined ? undefined : pageSize(real, wanted);
      const walked = await walkPersonas(real, real.keys.main, size, 3, size === undefined ? 'the default page' : `${real.personas.paging.sizeParam}=${size}`);
      real.steps.push({ command: `list personas ${size ?? 'by the default page'} a page along the cursor (3 pages at most)`, exchange: walked.reply?.exchange });
    }
    await viewPersonas(real, m);
  }
  toString = () => 'list personas 1, then 2 a page along the cursor (3 pages at most), then every page';
}

// ---- The persona's record ----

/** GET /personas/{id}: the persona's configuration keeps the name it was given (in the persona info and config). */
export async function viewPersona(real: Real, p: PersonaModel): Promise<void> {
  const reply = await read(real, 'getPersona', { params: { id: p.id }, key: keyOf(real, p.tenant) });
  if (p.deleted) {
    predict(!is2xx(reply), 'softDeletedPersonaHidden', 'GET /personas/{id} of a soft-deleted persona', 'not a 2xx', () => shortText(reply), reply);
    return;
  }
  const sentence = p.restored ? 'restoredPersona' : 'personaCreated';
  accepted(reply, sentence, 'GET /personas/{id}');
  if (p.name) predict(reply.text.includes(JSON.stringify(p.name)), sentence, 'GET /personas/{id} holds the name the persona was created with', json(p.name), () => shortText(reply), reply);
}

/**
 * PATCH /personas/{id} with an empty object (SPEC.md's sample), twice (a second update of one record):
 * {ok: true} each time. What a PATCH changes is not shown: the record is read, not compared beyond its name.
 */
export class PatchPersona implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => live(this.slot)(m);
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    for (const n of [1, 2]) {
      const reply = await send(real, `PATCH persona #${this.slot} with {} (${n === 1 ? 'first' : 'second'} time)`, 'updatePersona', { params: { id: p.id }, key: keyOf(real, p.tenant), body: {} });
      const result = accepted(reply, 'personaPatched', 'PATCH /personas/{id} {}');
      predict(result?.ok === true, 'personaPatched', `PATCH /personas/{id} answers {ok: true} (${n === 1 ? 'first' : 'second'} PATCH)`, '{"ok": true}', () => shortText(reply), reply);
    }
    await viewPersona(real, p);
  }
  toString = () => `PATCH persona #${this.slot} with {}, twice`;
}

// ---- Runtime: annotations, a forced response, perceive ----

/** A text no other text of the run contains (a number followed by a colon: "1:" is not in "11:"). */
const textFor = (real: Real, p: PersonaModel, what: string) => `${real.named(what)} #${p.slot}.${++runtimeOf(p).made}: ${what === 'note' ? 'mention the blue umbrella' : 'I would rather not say.'}`;

/** POST /personas/{id}/prompt-context: the annotations sent since the last response are all in it, in the order sent. */
async function viewPrompt(real: Real, p: PersonaModel): Promise<void> {
  const rt = runtimeOf(p);
  const reply = await send(real, `read persona #${p.slot}'s prompt-context`, 'promptContext', { params: { id: p.id }, key: keyOf(real, p.tenant) });
  accepted(reply, 'annotated', 'POST /personas/{id}/prompt-context');
  // JSON.stringify escapes as the answer does: each text is looked for as the answer writes it.
  const at = rt.notes.map((t) => reply.text.indexOf(JSON.stringify(t).slice(1, -1)));
  const ordered = at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1]));
  predict(ordered, 'annotated', `prompt-context after ${rt.notes.length} annotation${rt.notes.length > 1 ? 's' : ''}`,
    `every annotated text, in the order sent: ${rt.notes.map(json).join(', then ')}`, () => `${at.map((i, n) => `text ${n + 1} ${i < 0 ? 'missing' : `at ${i}`}`).join(', ')}: ${shortText(reply)}`, reply);
  // Whether a read of the assembled prompt uses the annotations up is not shown: later reads predict only later ones.
  rt.notes = [];
}

export class Annotate implements Cmd {
  constructor(readonly slot: number, readonly count: number) {}
  check = (m: Readonly<ModelState>) => live(this.slot)(m);
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    if (!real.personas?.annotateBody) return;
    for (let n = 0; n < this.count; n++) {
      const text = textFor(real, p, 'note');
      const reply = await send(real, `annotate persona #${this.slot} with ${json(text)}`, 'annotate', { params: { id: p.id }, key: keyOf(real, p.tenant), body: real.personas.annotateBody(text) });
      accepted(reply, 'annotated', 'POST /personas/{id}/annotate');
      runtimeOf(p).notes.push(text);
    }
    await viewPrompt(real, p);
  }
  toString = () => `annotate persona #${this.slot} ${this.count} time${this.count > 1 ? 's' : ''}, then read its prompt-context`;
}

/** The text of a perceive result's response (`response.text`, or `text`). */
const saidBy = (result: any): unknown => result?.response?.text ?? result?.text;

/** POST /personas/{id}/perceive: the persona's next response; the forced text once, then never again. */
async function perceive(real: Real, p: PersonaModel, n: number): Promise<void> {
  const rt = runtimeOf(p);
  const body = real.personas!.perceiveBody({ type: 'cf-question', payload: { message: `Question ${n} from the model: what are you thinking about?` } });
  const reply = await send(real, `perceive a question (persona #${p.slot})`, 'perceive', { params: { id: p.id }, key: keyOf(real, p.tenant), body });
  const result = accepted(reply, rt.forced ? 'forced' : 'perceived', 'POST /personas/{id}/perceive');
  const said = saidBy(result);
  if (rt.forced) {
    predict(said === rt.forced, 'forced', 'the response after next-response (response.text or text of perceive)', json(rt.forced), () => json(said), reply);
    rt.used.push(rt.forced);
  } else {
    const again = rt.used.find((t) => said === t);
    predict(again === undefined, 'forced', 'a response after the forced one was used', `not the forced text again (${json(again)} was used)`, () => json(said), reply);
  }
  if (rt.forcedMaybe) rt.used.push(rt.forcedMaybe);
  rt.forced = undefined;
  rt.forcedMaybe = undefined;
  // The annotations went to this response's prompt: whether they stay for later ones is not shown.
  rt.notes = [];
}

/** Forces the next response and perceives twice (the forced text, then not), `rounds` times (a second forced response); the last round leaves `last` perceives (0: it stays pending). */
export class ForceResponse implements Cmd {
  constructor(readonly slot: number, readonly rounds: number, readonly last: number) {}
  check = (m: Readonly<ModelState>) => live(this.slot)(m);
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    if (!real.personas?.forceBody) return;
    // A forced response left pending (by an earlier command, or across a delete and restore) answers first.
    if (runtimeOf(p).forced || runtimeOf(p).forcedMaybe) await perceive(real, p, 0);
    for (let round = 1; round <= this.rounds; round++) {
      const text = textFor(real, p, 'forced');
      const reply = await send(real, `force persona #${this.slot}'s next response to ${json(text)}`, 'forceNextResponse', { params: { id: p.id }, key: keyOf(real, p.tenant), body: real.personas.forceBody(text) });
      accepted(reply, 'forced', 'POST /personas/{id}/next-response');
      runtimeOf(p).forced = text;
      for (let n = 1; n <= (round < this.rounds ? 2 : this.last); n++) await perceive(real, p, n);
    }
  }
  toString = () => `force persona #${this.slot}'s next response ${this.rounds} time${this.rounds > 1 ? 's' : ''}, perceiving after each (${this.last} after the last)`;
}

/** A delete and restore keeps the record; whether it keeps a pending forced response is not shown. */
export function personaDeleted(p: PersonaModel): void {
  const rt = runtimeOf(p);
  if (rt.forced) rt.forcedMaybe = rt.forced;
  rt.forced = undefined;
  rt.notes = [];
}

// ---- Every persona operation on a near variant of a known id, or with the other tenant's key ----

const OPERATIONS: Array<{ op: string; body?: (real: Real) => unknown }> = [
  { op: 'getPersona' }, { op: 'updatePersona', body: () => ({}) }, { op: 'getPersonaState' }, { op: 'getPersonaSnapshot' },
  { op: 'promptContext' }, { op: 'tickPersona', body: () => ({ seconds: 1 }) }, { op: 'overrideEmotion', body: () => ({ vad: {} }) },
  { op: 'perceive', body: (real) => real.personas?.perceiveBody({ type: 'cf-question' }) },
  { op: 'annotate', body: (real) => real.personas?.annotateBody?.('a note the model never sent') },
  { op: 'forceNextResponse', body: (real) => real.personas?.forceBody?.('a response the model never forced') },
  { op: 'deletePersona' }, { op: 'restorePersona' },
];
/** The near variants of an id a lookup sweep cycles through. */
const KINDS = NEAR_KINDS;
/**
 * Every persona operation on a near variant of the id (operation i the kind i + offset of the cycle: each
 * command covers every operation and every kind; `kinds` > 1: the next kinds of the cycle too, every kind
 * on every operation at NEAR_KINDS.length) and with the other tenant's key.
 */
export class PersonaOpLookup implements Cmd {
  constructor(readonly slot: number, readonly offset: number, readonly kinds = 1) {}
  check = (m: Readonly<ModelState>) => !!personaAt(m as ModelState, this.slot);
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    for (const [i, o] of OPERATIONS.entries()) {
      const body = o.body?.(real);
      if (o.body && body === undefined) continue;
      const variants = Array.from({ length: Math.min(this.kinds, KINDS.length) }, (_, k) => KINDS[(i + this.offset + k) % KINDS.length]);
      for (const kind of [...variants, 'other-tenant' as const]) {
        const other = kind === 'other-tenant';
        const id = other ? p.id : near(p.id, kind);
        const key = other ? keyOf(real, otherTenant(p.tenant)) : keyOf(real, p.tenant);
        if (!id || !key || (other && p.deleted) || (!other && m.personas.some((x) => x.id === id))) continue;
        const reply = await send(real, `${o.op} on ${other ? "another tenant's key for" : `a ${kind} variant of the id of`} persona #${this.slot}`, o.op, { params: { id }, key, body });
        refused(reply, other ? 'otherTenantPersona' : 'unknownPersona', `${o.op} on ${other ? "another tenant's persona" : `${json(id)}, a near variant (${kind}) of persona #${this.slot}'s id`}`, 'PERSONA_NOT_FOUND');
      }
    }
    // Nothing changed: the persona reads as before.
    await viewPersona(real, p);
  }
  toString = () => `every persona operation on ${this.kinds >= KINDS.length ? 'every near variant' : `near variants (${this.kinds} each)`} of persona #${this.slot}'s id (from the ${KINDS[this.offset % KINDS.length]} one on) and with the other tenant's key`;
}

/** The persona commands, for commandArbitraries. */
export function personaArbitraries(): Array<fc.Arbitrary<Cmd>> {
  const slot = fc.nat({ max: 1 });
  return [
    fc.constant(new ListPersonas()),
    slot.map((s) => new PatchPersona(s)),
    // Three: a second and a third annotation in every command.
    slot.map((s) => new Annotate(s, 3)),
    // Two rounds: a second forced response in every command.
    fc.tuple(slot, fc.constantFrom(1, 2, 2)).map(([s, n]) => new ForceResponse(s, 2, n)),
    fc.tuple(slot, fc.nat({ max: KINDS.length - 1 })).map(([s, f]) => new PersonaOpLookup(s, f)),
  ];
}
