// The data each run needs before its measured phases, made through the interface itself (so it
// works on any deployment), and removed after unless asked to keep it. Setup requests count
// against the key's rate limit like any other: keep them few (the free plan allows 100 a minute).
import type { Fixture, LoadRequest, SeedData } from './mix.ts';

export interface SetupStep extends LoadRequest {
  /** Which id the `result` carries and where it goes in the Fixture. */
  capture: 'worldId' | 'personaId';
}

/** Creates each world and standalone persona of the seed data; names carry the run tag. */
export function setupSteps(data: SeedData, runTag: string): SetupStep[] {
  const worlds = data.worlds.map((w): SetupStep => ({
    operationId: 'createWorld', method: 'POST', path: '/worlds', capture: 'worldId',
    body: { ...w, definition: { ...w.definition, identity: { ...w.definition.identity, name: `${runTag} ${w.definition.identity.name}` } } },
  }));
  const personas = data.personas.map((config): SetupStep => ({
    operationId: 'createPersona', method: 'POST', path: '/personas', capture: 'personaId',
    body: { config: { ...config, identity: { ...config.identity, name: `${runTag} ${config.identity?.name ?? 'persona'}` } } },
  }));
  return [...worlds, ...personas];
}

/** The Fixture from the ids the setup answered, in the order of setupSteps. */
export function fixtureFrom(data: SeedData, ids: string[]): Fixture {
  const worldIds = ids.slice(0, data.worlds.length);
  return {
    worlds: data.worlds.map((w, i) => ({
      id: worldIds[i],
      users: w.entities.filter((e) => e.type === 'user').map((e) => e.name),
      personas: w.entities.filter((e) => e.type === 'persona').map((e) => e.name),
    })),
    personaIds: ids.slice(data.worlds.length),
  };
}

/** Soft-deletes what the setup created (SPEC.md: DELETE keeps the record, it is no longer listed). */
export function teardownSteps(fx: Fixture): LoadRequest[] {
  return [
    ...fx.worlds.map((w): LoadRequest => ({ operationId: 'deleteWorld', method: 'DELETE', path: `/worlds/${encodeURIComponent(w.id)}` })),
    ...fx.personaIds.map((id): LoadRequest => ({ operationId: 'deletePersona', method: 'DELETE', path: `/personas/${encodeURIComponent(id)}` })),
  ];
}

/** The id a setup response carries, or undefined when the response is not what SPEC.md shows. */
export function capturedId(step: SetupStep, body: unknown): string | undefined {
  const result = (body as { result?: Record<string, unknown> } | null)?.result;
  const id = result?.[step.capture];
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** A run tag: short, sortable, unique enough to find a run's records in a shared tenant. */
export function runTag(nowMs: number, salt: number): string {
  return `load-${new Date(nowMs).toISOString().replace(/[-:]/g, '').slice(0, 15)}-${(salt >>> 0).toString(36).slice(0, 4)}`;
}
