// The model's whole state in one run: the worlds and standalone personas the run made, by slot.
import type { Tenant, WorldModel } from './world.ts';
import type { PersonaRuntime } from './personas.ts';

export interface PersonaModel { slot: number; id: string; tenant: Tenant; deleted: boolean; restored?: boolean; name?: string; runtime?: PersonaRuntime }

export interface ModelState {
  worlds: WorldModel[];
  personas: PersonaModel[];
}

export const emptyState = (): ModelState => ({ worlds: [], personas: [] });

/** The world a command names by slot (commands are drawn before any world exists: a slot wraps around). */
export const worldAt = (m: ModelState, slot: number): WorldModel | undefined => (m.worlds.length ? m.worlds[slot % m.worlds.length] : undefined);
export const personaAt = (m: ModelState, slot: number) => (m.personas.length ? m.personas[slot % m.personas.length] : undefined);
