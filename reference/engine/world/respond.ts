// One place where a persona answers a percept: the psyche computes the response, then the runtime's
// forced next response (next-response) replaces the text and pending annotations are consumed.
import type { EntityResponse, PersonaConfig } from '../../../contract/resources.ts';
import { psyche } from '../psyche/index.ts';
import type { Percept } from '../psyche/model.ts';
import type { PersonaRuntime } from './model.ts';

export function respond(runtime: PersonaRuntime, config: PersonaConfig, percept: Percept): EntityResponse {
  const response = psyche.perceive(runtime.snapshot, config, percept);
  if (runtime.forcedResponse !== null) {
    response.text = runtime.forcedResponse;
    runtime.forcedResponse = null;
  }
  runtime.annotations = [];
  return response;
}

export function newRuntime(config: PersonaConfig, seed: string, now: number): PersonaRuntime {
  return { snapshot: psyche.create(config, seed, now), annotations: [], forcedResponse: null, pending: [] };
}

/** The text a persona perceives for an event: its payload's description, else its type. */
export function describe(event: { type: string; payload?: object }): string {
  const description = (event.payload as { description?: unknown } | undefined)?.description;
  return typeof description === 'string' ? description : event.type;
}
