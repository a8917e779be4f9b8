// Chat inside a world: what SPEC.md determines of its answer (the recipient named, an EntityResponse
// for it and for each affected entity: the types SPEC.md lists, the emotion vector at or above -1),
// and a near variant of either entity's name refused ENTITY_NOT_FOUND. Texts and emotions are not
// predicted ("Emotion computation rules: not shown"): only their types and the stated bound.
import fc from 'fast-check';
import type { Reply } from '../suite/http/client.ts';
import { accepted, predict, read, refused, resultOf, send, type Real } from './real.ts';
import { worldAt, type ModelState } from './state.ts';
import { near, NEAR_KINDS } from './near.ts';
import type { WorldModel } from './world.ts';

type Cmd = fc.AsyncCommand<ModelState, Real>;
const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';
const keyOf = (real: Real, w: WorldModel) => (w.tenant === 'main' ? real.keys.main : real.keys.second);
const isNum = (x: unknown) => typeof x === 'number' && Number.isFinite(x);

/** The members of an EntityResponse that break what SPEC.md lists: a type, or the emotion's lower bound -1 (`bound`). */
function entityResponseProblems(r: any, where: string): { types: string[]; bound: string[] } {
  const types: string[] = [];
  const bound: string[] = [];
  if (!r || typeof r !== 'object') return { types: [`${where} is not an object`], bound };
  const vad = (v: any, at: string, required: boolean) => {
    if (v === undefined && !required) return;
    for (const k of ['V', 'A', 'D']) {
      if (!isNum(v?.[k])) types.push(`${at}.${k} is not a number`);
      else if (v[k] < -1) bound.push(`${at}.${k} = ${v[k]}`);
    }
  };
  vad(r.emotion, `${where}.emotion`, true);
  vad(r.memoryEpisode?.emotionSnapshot, `${where}.memoryEpisode.emotionSnapshot`, false);
  // Members SPEC.md lists with a type: when present, of that type (whether each is always present is not shown).
  const typed: Array<[unknown, string, 'string' | 'number' | 'boolean']> = [
    [r.discrete?.primary, 'discrete.primary', 'string'], [r.discrete?.secondary, 'discrete.secondary', 'string'],
    [r.discrete?.intensity, 'discrete.intensity', 'number'], [r.text, 'text', 'string'], [r.stageTransition, 'stageTransition', 'string'],
    [r.maskExposure?.integrity, 'maskExposure.integrity', 'number'], [r.maskExposure?.exposed, 'maskExposure.exposed', 'boolean'],
  ];
  for (const [v, at, type] of typed) if (v !== undefined && v !== null && typeof v !== type) types.push(`${where}.${at} is not a ${type} (${json(v)})`);
  if (r.socialUpdates !== undefined && !Array.isArray(r.socialUpdates)) types.push(`${where}.socialUpdates is not an array`);
  return { types, bound };
}

/** The chat result against SPEC.md: entityName the recipient (its name or its id), each EntityResponse typed and bounded. */
async function compareChat(real: Real, w: WorldModel, to: string, result: any, reply: Reply): Promise<void> {
  let named = result?.entityName === to;
  if (!named && typeof result?.entityName === 'string') {
    // The recipient may be named by its entity id (SPEC.md does not say which key): its id as query shows it.
    const entities = resultOf(await read(real, 'queryWorld', { params: { id: w.id }, key: keyOf(real, w), body: {} }))?.entities;
    named = Array.isArray(entities) && entities.some((e: any) => e?.name === to && e?.id === result.entityName);
  }
  predict(named, 'chat', 'chat result.entityName names the recipient', `${json(to)} or its entity id`, () => json(result?.entityName), reply);
  const all = [entityResponseProblems(result?.response, 'response')];
  for (const member of ['affected', 'groupAwareness']) {
    const items = result?.[member];
    predict(Array.isArray(items), 'chat', `chat result.${member} is an array of affected items`, 'an array', () => json(items), reply);
    for (const [i, item] of (items as any[]).entries()) {
      predict(typeof item?.entityName === 'string', 'chat', `chat result.${member}[${i}].entityName is a string`, 'a string', () => json(item?.entityName), reply);
      all.push(entityResponseProblems(item?.response, `${member}[${i}].response`));
    }
  }
  const types = all.flatMap((p) => p.types);
  predict(!types.length, 'chat', 'chat result: the members SPEC.md lists have their types', 'EntityResponse as SPEC.md lists it', () => types.join('; '), reply);
  const bound = all.flatMap((p) => p.bound);
  predict(!bound.length, 'vadBound', 'chat result: emotion vectors at or above -1', 'V, A, D ≥ -1', () => bound.join('; '), reply);
}

const MESSAGES = ['Hello, how are you today?', 'You ruined everything and I will never forgive you!', 'Thank you, that was kind.'];

/** A chat from the user to a persona entity, then the same with a near variant of either name (ENTITY_NOT_FOUND). */
export class Chat implements Cmd {
  /** `swap` 1: each near variant on the other side (the sender's where it was the recipient's). */
  constructor(readonly slot: number, readonly entity: number, readonly message: number, readonly swap = 0) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    const personas = w.entities.filter((e) => e.type === 'persona').map((e) => e.name);
    const from = w.entities.find((e) => e.type === 'user')?.name ?? personas[1];
    const to = personas[this.entity % personas.length];
    const message = MESSAGES[this.message % MESSAGES.length];
    const reply = await send(real, `chat from ${json(from)} to ${json(to)} in world #${this.slot}`, 'chat', { params: { id: w.id }, key: keyOf(real, w), body: { from, to, message } });
    await compareChat(real, w, to, accepted(reply, 'chat', 'POST /worlds/{id}/chat'), reply);
    const names = new Set(w.entities.map((e) => e.name));
    for (const [i, kind] of NEAR_KINDS.entries()) {
      // Each variant on one side, alternating: the recipient's name, then the sender's.
      const side = (i + this.swap) % 2 === 0 ? 'to' : 'from';
      const variant = near(side === 'to' ? to : from, kind);
      if (!variant || names.has(variant)) continue;
      const body = { from, to, message, [side]: variant };
      const r = await send(real, `chat ${side} ${json(variant)} (a ${kind} variant) in world #${this.slot}`, 'chat', { params: { id: w.id }, key: keyOf(real, w), body });
      refused(r, 'unknownEntity', `POST /worlds/{id}/chat {${side}: ${json(variant)}} (a ${kind} variant of ${json(side === 'to' ? to : from)})`, 'ENTITY_NOT_FOUND', 404);
    }
  }
  toString = () => `chat to persona entity ${this.entity % 2} of world #${this.slot} (message ${this.message % MESSAGES.length}), and with near variants of the names${this.swap ? ' (sides swapped)' : ''}`;
}

export const chatArbitrary = (): fc.Arbitrary<Cmd> =>
  fc.tuple(fc.nat({ max: 2 }), fc.nat({ max: 1 }), fc.nat({ max: MESSAGES.length - 1 })).map(([s, e, msg]) => new Chat(s, e, msg));
