// Shared helpers of the world scenario tests: a small harbour world (three spaces, three personas,
// one user, triggers, phases, facts), and a way to catch the engine's API errors by code.
import { expect } from 'vitest';
import { exportWorld, newWorld, type CreateWorldInput, type WorldDoc } from '../../../reference/engine/world/index.ts';
import { ApiError } from '../../../reference/platform/errors.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import type { WorldDefinition } from '../../../contract/resources.ts';

export const T0 = Date.UTC(2025, 0, 1);
export const WID = 'w-test';

export function definition(extra: DeepPartial<WorldDefinition> = {}): DeepPartial<WorldDefinition> {
  return {
    identity: { name: 'Harbour', description: 'A small port.' },
    culture: { normMap: { theft: -0.9, gift: 0.6 } },
    topology: {
      connections: [
        { from: 'dock', to: 'market', bidirectional: true },
        { from: 'market', to: 'tower', bidirectional: false },
      ],
    },
    knowledge: {
      facts: [
        { id: 'f-public', content: 'The tide is high.', visibility: 'public' },
        { id: 'f-mara', content: 'Mara hid the key.', visibility: 'private', knownBy: ['mara'] },
        { id: 'f-ines-id', content: 'Ines owes money.', visibility: 'private', knownBy: ['ent-3'] },
        { id: 'f-nobody', content: 'The tower is empty.', visibility: 'private', knownBy: [] },
      ],
    },
    progression: {
      initialPhase: 'calm',
      phases: { calm: { description: 'quiet' }, storm: { description: 'rough', normMapOverride: { theft: -0.2 } }, flood: { description: 'wet' } },
      triggers: [],
    },
    ...extra,
  };
}

/**
 * mara (ent-1) and olek (ent-2) on the dock, ines (ent-3) at the market, the user visitor (ent-4) on
 * the dock. Every persona has the average personality unless `configs` says otherwise.
 */
export function harbour(extra: DeepPartial<WorldDefinition> = {}, input: Partial<CreateWorldInput> = {}): WorldDoc {
  const world = newWorld({
    definition: definition(extra),
    entities: [
      { name: 'mara', type: 'persona' }, { name: 'olek', type: 'persona' }, { name: 'ines', type: 'persona' }, { name: 'visitor', type: 'user' },
    ],
    ...input,
  }, WID, T0);
  world.entities.find((e) => e.name === 'ines')!.spaceId = 'market';
  return world;
}

/** The code of the API error `fn` throws (fails the test when it does not throw one). */
export function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).code;
  }
  throw new Error('expected an API error, nothing was thrown');
}

export const snapshotText = (w: WorldDoc) => JSON.stringify(exportWorld(w, WID));
export const names = (items: Array<{ entityName: string }>) => items.map((i) => i.entityName);
export const persona = (w: WorldDoc, name: string) => w.personas[name].snapshot;
