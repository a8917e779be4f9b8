// Shared helpers of the psyche tests: a validator over the contract components, configs and percepts.
import { Ajv } from 'ajv';
import { COMPONENTS } from '../../../contract/components.ts';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { Percept } from '../../../reference/engine/psyche/model.ts';
import { nextRandom } from '../../../reference/engine/psyche/util.ts';
import type { PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';

const ajv = new Ajv({ strict: false, allErrors: true });
for (const c of COMPONENTS) ajv.addSchema(c);

/** Validation errors of `value` against the named component ('' when valid). */
export function invalid(component: string, value: unknown): string {
  return ajv.validate({ $ref: component }, value) ? '' : ajv.errorsText(ajv.errors, { separator: '\n' });
}

export const T0 = Date.UTC(2025, 0, 1);

export function persona(input: DeepPartial<PersonaConfig> = {}, seed = 'seed-1'): { config: PersonaConfig; snap: PersonaSnapshot } {
  const config = psyche.normalizeConfig(input, 'ada');
  return { config, snap: psyche.create(config, seed, T0) };
}

let clock = T0;
export function chat(text: string, source = 'bob', extra: Partial<Percept> = {}): Percept {
  clock += 1000;
  return { kind: 'chat', type: 'chat', source, sourceId: `id-${source}`, text, timestamp: clock, ...extra };
}

export function event(type: string, extra: Partial<Percept> = {}): Percept {
  clock += 1000;
  return { kind: 'event', type, timestamp: clock, ...extra };
}

export const INSULT = 'You are a stupid, worthless idiot and I hate you.';
export const PRAISE = 'Thank you, you did a wonderful job. I admire you and I am grateful!';
export const NEUTRAL = 'The meeting is at noon in the hall.';

/** A small seeded generator for property-style loops (the same cases on every run): the engine's own mulberry32. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    const next = nextRandom(state);
    state = next.state;
    return next.value;
  };
}
