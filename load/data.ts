// The seeded request data of a run, from the fixtures. Node-only (faker): the Node runner calls
// it directly; load/build.ts calls it at build time and bakes the result into the k6 bundles,
// so k6 VUs neither load faker nor spend init time generating data.
import { world } from '../fixtures/worlds.ts';
import { personaConfig } from '../fixtures/personas.ts';
import { event } from '../fixtures/events.ts';
import { message } from '../fixtures/messages.ts';
import type { SeedData } from './model/mix.ts';

export const DEFAULT_SEED = 1;

/**
 * Two worlds and two standalone personas: enough to spread the load over more than one record,
 * few enough that the setup (4 requests) stays small next to the free plan's 100 a minute.
 */
export function seedData(seed = DEFAULT_SEED, sizes = { worlds: 2, personas: 2, messages: 32, events: 16 }): SeedData {
  const worlds = Array.from({ length: sizes.worlds }, (_, i) => world(seed * 1000 + i, { personas: 3, users: 1 }));
  return {
    seed,
    worlds,
    personas: Array.from({ length: sizes.personas }, (_, i) => personaConfig(seed * 1000 + 100 + i)),
    messages: Array.from({ length: sizes.messages }, (_, i) => message(seed * 1000 + 200 + i)),
    worldEvents: worlds.map((w, wi) => Array.from({ length: sizes.events }, (_, i) => event(seed * 1000 + 300 + wi * 50 + i, w))),
    personaEvents: Array.from({ length: sizes.events }, (_, i) => event(seed * 1000 + 400 + i)),
  };
}
