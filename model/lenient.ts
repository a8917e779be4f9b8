// Bodies a lenient parser takes where SPEC.md's types refuse them for certain, beyond the tables of
// commands.ts (POST /worlds, tick, events): a persona's emotion `vad` ("object of V, A, D members")
// as null, an array, a string, or with numbers written as strings; an event's `payload` ("open
// object"), `appraisal` (Appraisal: numbers) and `stimulus` (an object of members) as a string or a
// one-element array; `seconds` (number) null, on a world's tick and a persona's. Each: 400
// VALIDATION_ERROR, and nothing counted, advanced or changed (the views after).
import { refused, send, type Real } from './real.ts';
import { personaAt, worldAt, type ModelState } from './state.ts';
import { observe } from './views.ts';
import { viewPersona } from './personas.ts';
import type { Cmd } from './commands.ts';
import type { Tenant } from './world.ts';

const keyOf = (real: Real, t: Tenant) => (t === 'main' ? real.keys.main : real.keys.second);

const WORLD_LENIENT: Array<{ op: 'tickWorld' | 'dispatchEvent'; what: string; body: unknown }> = [
  { op: 'tickWorld', what: '{seconds: null}', body: { seconds: null } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", payload: "cf"} (a string for an object)', body: { type: 'cf-Thunder', payload: 'cf' } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", appraisal: [{}]} (an array for an object)', body: { type: 'cf-Thunder', appraisal: [{}] } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", stimulus: [{}]} (an array for an object)', body: { type: 'cf-Thunder', stimulus: [{}] } },
  { op: 'dispatchEvent', what: '{type: "cf-Thunder", stimulus: "{}"} (a JSON string for an object)', body: { type: 'cf-Thunder', stimulus: '{}' } },
];

const PERSONA_LENIENT: Array<{ op: 'overrideEmotion' | 'tickPersona'; what: string; body: unknown }> = [
  { op: 'overrideEmotion', what: '{vad: null}', body: { vad: null } },
  { op: 'overrideEmotion', what: '{vad: [0.5, 0.5, 0.5]} (an array for an object)', body: { vad: [0.5, 0.5, 0.5] } },
  { op: 'overrideEmotion', what: '{vad: [{}]} (a one-element array)', body: { vad: [{}] } },
  { op: 'overrideEmotion', what: '{vad: "{}"} (a JSON string for an object)', body: { vad: '{}' } },
  { op: 'overrideEmotion', what: '{vad: {V: "0.5", A: "0.5", D: "0.5"}} (numeric strings)', body: { vad: { V: '0.5', A: '0.5', D: '0.5' } } },
  { op: 'overrideEmotion', what: '{vad: {V: true}}', body: { vad: { V: true } } },
  { op: 'tickPersona', what: '{seconds: null}', body: { seconds: null } },
  { op: 'tickPersona', what: '{seconds: "60"} (a numeric string)', body: { seconds: '60' } },
  { op: 'tickPersona', what: '{seconds: [1]} (a one-element array)', body: { seconds: [1] } },
];

/** The lenient bodies of a world's tick and events: each refused; the world's views as before. */
export class WorldLenient implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!worldAt(m as ModelState, this.slot) && !worldAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const w = worldAt(m, this.slot)!;
    for (const l of WORLD_LENIENT) {
      const path = l.op === 'tickWorld' ? 'POST /worlds/{id}/tick' : 'POST /worlds/{id}/events';
      const reply = await send(real, `${path} of world #${this.slot} with ${l.what}`, l.op, { params: { id: w.id }, key: keyOf(real, w.tenant), body: l.body });
      refused(reply, 'invalidBody', `${path} ${l.what}`, 'VALIDATION_ERROR', 400);
    }
    await observe(real, w);
  }
  toString = () => `tick and dispatch to world #${this.slot} with more bodies a lenient parser takes (each refused)`;
}

/** The lenient bodies of a persona's emotion override and tick: each refused; the persona reads as before. */
export class PersonaLenient implements Cmd {
  constructor(readonly slot: number) {}
  check = (m: Readonly<ModelState>) => !!personaAt(m as ModelState, this.slot) && !personaAt(m as ModelState, this.slot)!.deleted;
  async run(m: ModelState, real: Real) {
    const p = personaAt(m, this.slot)!;
    for (const l of PERSONA_LENIENT) {
      const path = l.op === 'overrideEmotion' ? 'POST /personas/{id}/emotion' : 'POST /personas/{id}/tick';
      const reply = await send(real, `${path} of persona #${this.slot} with ${l.what}`, l.op, { params: { id: p.id }, key: keyOf(real, p.tenant), body: l.body });
      refused(reply, 'invalidBody', `${path} ${l.what}`, 'VALIDATION_ERROR', 400);
    }
    await viewPersona(real, p);
  }
  toString = () => `override persona #${this.slot}'s emotion and tick it with bodies a lenient parser takes (each refused)`;
}
