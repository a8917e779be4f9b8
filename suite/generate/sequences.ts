// Stateful sequences: a fresh world, writes that the generator changes (an exported snapshot or
// definition with one member changed and imported back, a generated write request, a persona snapshot),
// then, when one was accepted, the valid uses of what was written (chat, events, tick, time-jump,
// context, actions, query, snapshot; interact only when billable calls are allowed), and use after
// delete. A use that answers a 5xx or not in time is the failure: an accepted write broke a valid request.
import fc from 'fast-check';
import type { RequirementId } from '../../contract/requirements.ts';
import { applyMutation, mutation, type Mutation } from '../bodies/near-miss.ts';
import { anyRequest, type GenOperation, type GenRequest, type Owned, short } from './requests.ts';
import { BUILTIN_NAMES, bodyText, deepNesting, extremeNumber, nastyString, numberLiteral } from '../bodies/values.ts';
import { expectNo5xx, is2xx, type Answer, type Probe } from './probe.ts';

export type Write =
  | { kind: 'import-world'; change: Mutation }
  | { kind: 'definition'; change: Mutation }
  | { kind: 'import-persona'; change: Mutation }
  | { kind: 'request'; request: GenRequest }
  // Writes aimed at what breaks this interface's servers: a name that is a built-in object member (an
  // entity, space, relationship source, world persona or event type), a time ratio at the edge of
  // doubles, nesting thousands of levels deep in a free-form member.
  | { kind: 'name'; target: NameTarget; name: string }
  | { kind: 'time-ratio'; ratio: unknown }
  | { kind: 'deep-payload'; payload: unknown };

const NAME_TARGETS = ['entity', 'space', 'relationship', 'world-persona', 'event'] as const;
type NameTarget = (typeof NAME_TARGETS)[number];

export interface Sequence {
  writes: Write[];
  /** Delete the world at the end and use it deleted (then restore it). */
  deleteAfter: boolean;
}

/** The largest `seconds` of a world tick the documents allow (the served one first); a day when neither bounds it. */
export function maxTickSeconds(ops: GenOperation[]): number {
  const max = ops.find((o) => o.operationId === 'tickWorld')?.schema?.properties?.seconds?.maximum;
  return typeof max === 'number' && Number.isFinite(max) ? max : 86_400;
}

/** Operations whose generated requests write to a world (the sequences' generated writes). */
const WORLD_WRITES = new Set(['mutateWorld', 'upsertRelationship', 'createAction', 'addWorldPersona', 'removeWorldPersona', 'dispatchEvent', 'updateWorld', 'putWorldSnapshot', 'deleteAction', 'deleteRelationship']);

export function sequences(ops: GenOperation[]): fc.Arbitrary<Sequence> {
  const writeOps = ops.filter((o) => WORLD_WRITES.has(o.operationId));
  const write: fc.Arbitrary<Write> = fc.oneof(
    { weight: 4, arbitrary: mutation.map((change) => ({ kind: 'import-world' as const, change })) },
    { weight: 2, arbitrary: mutation.map((change) => ({ kind: 'definition' as const, change })) },
    { weight: 1, arbitrary: mutation.map((change) => ({ kind: 'import-persona' as const, change })) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('name' as const), target: fc.constantFrom(...NAME_TARGETS), name: fc.oneof({ arbitrary: fc.constantFrom(...BUILTIN_NAMES), weight: 3 }, { arbitrary: nastyString.filter((s) => s.length < 300), weight: 1 }) }) },
    { weight: 1, arbitrary: fc.oneof(extremeNumber, numberLiteral).map((ratio) => ({ kind: 'time-ratio' as const, ratio })) },
    { weight: 1, arbitrary: deepNesting.map((deep) => ({ kind: 'deep-payload' as const, payload: { a: deep } })) },
    ...(writeOps.length ? [{ weight: 2, arbitrary: anyRequest(writeOps).map((request) => ({ kind: 'request' as const, request })) }] : []),
  );
  return fc.record({ writes: fc.array(write, { minLength: 1, maxLength: 3 }), deleteAfter: fc.boolean() });
}

export function describeSequence(s: Sequence): string {
  const one = (w: Write): string => (w.kind === 'name' ? `${w.target} named ${JSON.stringify(short(w.name, 60))}`
    : w.kind === 'time-ratio' ? `definition.time.ratio = ${short(bodyText(w.ratio), 60)}`
    : w.kind === 'deep-payload' ? `event with payload ${short(bodyText(w.payload), 80)}`
    : w.kind === 'request' ? `${w.request.operationId} [${w.request.variant}${w.request.change ? ` ${w.request.change.kind} at [${w.request.change.at}]` : ''}]` : `${w.kind}: ${w.change.kind}${w.change.kind === 'extra' ? ` ${JSON.stringify(w.change.key).slice(0, 40)}` : ''} at [${w.change.at}]${'value' in w.change ? ` = ${short(bodyText(w.change.value), 120)}` : ''}`);
  return `new world; ${s.writes.map(one).join('; ')}; uses${s.deleteAfter ? '; delete, use, restore' : ''}`;
}

export interface SequenceContext {
  probe: Probe;
  ops: GenOperation[];
  /** Creates the world of one sequence (valid body); returns its id. */
  newWorld(): Promise<string>;
  /** Creates a standalone persona (for persona imports); returns its id. */
  newPersona(): Promise<string>;
  allowBillable: boolean;
  /** The largest `seconds` a tick accepts (the request schema's maximum): a valid use that breaks servers. */
  maxSeconds: number;
}

const TRIED = 'GEN-1' satisfies RequirementId;

/** Runs one sequence; throws a CheckFailure when an accepted write broke a later valid request. */
export async function runSequence(s: Sequence, ctx: SequenceContext): Promise<void> {
  const { probe } = ctx;
  const worldId = await ctx.newWorld();
  let personaId: string | undefined;
  const accepted: string[] = [];
  for (const w of s.writes) {
    let what: string;
    let answer: Answer | undefined;
    if (w.kind === 'import-world' || w.kind === 'definition') {
      const read = await probe.call(w.kind === 'import-world' ? 'getWorldSnapshot' : 'getWorld', { params: { id: worldId } });
      if (!is2xx(read)) { expectNo5xx(read, 'reading the world to change it', TRIED); continue; }
      const source = w.kind === 'import-world' ? read.body.result : read.body.result?.world?.definition;
      const changed = applyMutation(source, w.change);
      what = `${w.kind === 'import-world' ? 'PUT /worlds/{id}/snapshot' : 'PATCH /worlds/{id} definition'} with ${w.change.kind} at ${changed.where}`;
      const text = textOf(w.kind === 'import-world' ? { snapshot: changed.value } : { definition: changed.value });
      if (text === undefined) continue;
      answer = await probe.call(w.kind === 'import-world' ? 'putWorldSnapshot' : 'updateWorld', { params: { id: worldId }, rawBody: text });
    } else if (w.kind === 'import-persona') {
      personaId ??= await ctx.newPersona();
      const read = await probe.call('getPersonaSnapshot', { params: { id: personaId } });
      if (!is2xx(read)) { expectNo5xx(read, 'reading the persona snapshot to change it', TRIED); continue; }
      const changed = applyMutation(read.body.result, w.change);
      what = `PUT /personas/{id}/snapshot with ${w.change.kind} at ${changed.where}`;
      const text = textOf({ snapshot: changed.value });
      if (text === undefined) continue;
      answer = await probe.call('putPersonaSnapshot', { params: { id: personaId }, rawBody: text });
    } else if (w.kind === 'name' || w.kind === 'time-ratio' || w.kind === 'deep-payload') {
      const sent = await aimedWrite(w, worldId, probe);
      what = sent.what;
      answer = sent.answer;
    } else {
      const op = ctx.ops.find((o) => o.operationId === w.request.operationId)!;
      const sent = await probe.send(w.request, op, { worldId, personaId: personaId ?? 'nonexistent', entity: 'ana' });
      what = sent.what;
      answer = sent.answer;
    }
    expectNo5xx(answer, what, TRIED);
    if (is2xx(answer)) accepted.push(what);
  }
  if (!accepted.length && !s.deleteAfter) return;
  const after = accepted.length ? ` after the accepted ${accepted.join('; ')}` : '';
  for (const use of worldUses(worldId, ctx)) expectNo5xx(await use.send(), use.what, TRIED, after);
  if (personaId) for (const use of personaUses(personaId, ctx.maxSeconds)) expectNo5xx(await probe.call(use.operationId, use.options), use.what, TRIED, after);
  if (s.deleteAfter) {
    const deleted = await probe.call('deleteWorld', { params: { id: worldId } });
    expectNo5xx(deleted, 'DELETE /worlds/{id}', TRIED, after);
    if (is2xx(deleted)) {
      for (const use of worldUses(worldId, ctx).slice(0, 4)) expectNo5xx(await use.send(), `${use.what} on a deleted world`, TRIED, after);
      expectNo5xx(await probe.call('restoreWorld', { params: { id: worldId } }), 'POST /worlds/{id}/restore', TRIED, after);
    }
  }
}

/** The body text of an import; undefined when what the target exported nests too deep to be written again here. */
function textOf(body: unknown): string | undefined {
  try {
    return bodyText(body);
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/** Sends one of the writes aimed at this interface's weak spots. */
async function aimedWrite(w: Extract<Write, { kind: 'name' | 'time-ratio' | 'deep-payload' }>, id: string, probe: Probe): Promise<{ what: string; answer: Answer }> {
  const send = async (operationId: string, what: string, body: unknown) => ({ what, answer: await probe.call(operationId, { params: { id }, rawBody: bodyText(body) }) });
  if (w.kind === 'deep-payload') return send('dispatchEvent', `POST /worlds/{id}/events with payload ${short(bodyText(w.payload), 80)}`, { type: 'deep', payload: w.payload });
  if (w.kind === 'time-ratio') {
    const read = await probe.call('getWorld', { params: { id } });
    const definition = is2xx(read) ? read.body.result?.world?.definition : undefined;
    return send('updateWorld', `PATCH /worlds/{id} with definition.time.ratio = ${short(bodyText(w.ratio), 60)}`, { definition: { ...(definition ?? {}), time: { type: 'realtime', ratio: w.ratio } } });
  }
  const name = w.name;
  const label = JSON.stringify(short(name, 60));
  switch (w.target) {
    case 'entity': return send('mutateWorld', `POST /worlds/{id}/mutate add_entity named ${label}`, { operations: [{ op: 'add_entity', name, type: 'persona' }] });
    case 'space': return send('mutateWorld', `POST /worlds/{id}/mutate add_space ${label}`, { operations: [{ op: 'add_space', id: name, name }] });
    case 'relationship': return send('upsertRelationship', `PUT /worlds/{id}/relationships from ${label}`, { source: name, target: 'ana' });
    case 'world-persona': return send('addWorldPersona', `POST /worlds/{id}/personas named ${label}`, { name });
    case 'event': return send('dispatchEvent', `POST /worlds/{id}/events of type and source ${label}`, { type: name, sourceEntity: name });
  }
}

/** The valid uses of a world, each one request (interact first reads the actions). */
function worldUses(id: string, ctx: SequenceContext): Array<{ what: string; send: () => Promise<Answer> }> {
  const { probe } = ctx;
  const call = (operationId: string, what: string, body?: unknown) => ({ what, send: () => probe.call(operationId, { params: { id }, body }) });
  const uses = [
    call('chat', 'POST /worlds/{id}/chat', { from: 'user', to: 'ana', message: 'hello' }),
    call('tickWorld', 'POST /worlds/{id}/tick', { seconds: 1 }),
    call('tickWorld', `POST /worlds/{id}/tick of the most seconds the contract allows (${ctx.maxSeconds})`, { seconds: ctx.maxSeconds }),
    call('worldContext', 'POST /worlds/{id}/context', { entityName: 'ana' }),
    call('getWorldSnapshot', 'GET /worlds/{id}/snapshot'),
    call('dispatchEvent', 'POST /worlds/{id}/events', { type: 'greeting' }),
    call('timeJump', 'POST /worlds/{id}/time-jump', { seconds: 60 }),
    call('queryWorld', 'POST /worlds/{id}/query', {}),
    call('listActions', 'GET /worlds/{id}/actions'),
  ];
  if (ctx.allowBillable) {
    uses.push({
      what: 'POST /worlds/{id}/interact', send: async () => {
        const actions = await probe.call('listActions', { params: { id } });
        const list = is2xx(actions) ? actions.body.result?.actions ?? actions.body.result : [];
        const actionId = Array.isArray(list) ? list.find((a: any) => typeof a?.id === 'string')?.id : undefined;
        return actionId ? probe.call('interact', { params: { id }, body: { actionId, actor: 'user', target: 'ana' } }) : actions;
      },
    });
  }
  return uses;
}

function personaUses(id: string, maxSeconds: number) {
  const use = (operationId: string, what: string, body?: unknown) => ({ operationId, what, options: { params: { id }, body } });
  return [
    use('getPersonaState', 'GET /personas/{id}/state'),
    use('tickPersona', 'POST /personas/{id}/tick', { seconds: 1 }),
    use('tickPersona', `POST /personas/{id}/tick of ${maxSeconds} seconds`, { seconds: maxSeconds }),
    use('perceive', 'POST /personas/{id}/perceive', { type: 'greeting' }),
    use('promptContext', 'POST /personas/{id}/prompt-context', {}),
    use('getPersonaSnapshot', 'GET /personas/{id}/snapshot'),
  ];
}
