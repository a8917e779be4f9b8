// A small world (three spaces, three personas, one user, triggers, phases, facts) and random
// sequences of world operations: chat, events (targeted, by space, world-wide, stamped later),
// tick and time-jump, interact, mutate, context and query. The runner records every result (or
// the error code) so that runs can be compared byte for byte.
import fc from 'fast-check';
import {
  actionOrFail, advance, chat, context, dispatchEvent, exportWorld, importWorld, interact, mutate, newWorld, query,
  type WorldDoc,
} from '../../../reference/engine/world/index.ts';
import { ApiError } from '../../../reference/platform/errors.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import type { Event, PersonaConfig } from '../../../contract/resources.ts';
import { anyText, appraisalArb, configInput, jsonClone, num, stimulusOf, T0 } from './arbitraries.ts';

export const WORLD_ID = 'w-prop';
export const PERSONAS = ['mara', 'olek', 'ines'] as const;
export const NAMES = [...PERSONAS, 'visitor'] as const;
const SPACES = ['dock', 'market', 'tower'] as const;
const EVENT_TYPES = ['thunder', 'sun', 'theft', 'gift', 'bell', 'chat'] as const;

export interface WorldSetup {
  configs: Record<string, DeepPartial<PersonaConfig>>;
  ratio: number;
  groupAwareness: boolean;
  emotionalContagion: boolean;
}

export const setupArb: fc.Arbitrary<WorldSetup> = fc.record({
  configs: fc.tuple(configInput, configInput, configInput).map(([a, b, c]) => ({ mara: a, olek: b, ines: c })),
  ratio: fc.constantFrom(1, 2, 60, 0, -3, 0.5),
  groupAwareness: fc.boolean(),
  emotionalContagion: fc.boolean(),
});

export function buildWorld(setup: WorldSetup): WorldDoc {
  const world = newWorld({
    definition: {
      identity: { name: 'Harbour' },
      time: { type: 'realtime', ratio: setup.ratio },
      culture: { normMap: { theft: -0.9, gift: 0.6 } },
      topology: {
        connections: [
          { from: 'dock', to: 'market', bidirectional: true },
          { from: 'market', to: 'tower', bidirectional: false },
        ],
      },
      knowledge: { facts: [{ id: 'f1', content: 'The tide is high.' }, { id: 'f2', content: 'A secret.', visibility: 'private', knownBy: ['mara'] }] },
      progression: {
        initialPhase: 'calm',
        phases: { calm: { description: 'quiet' }, storm: { description: 'rough', normMapOverride: { theft: -0.2 } }, flood: { description: 'wet' } },
        triggers: [
          { id: 't-storm', condition: { type: 'event_count', eventType: 'thunder', threshold: 2 }, targetPhase: 'storm', oneShot: true },
          { id: 't-calm', condition: { type: 'event_count', eventType: 'sun', threshold: 1 }, targetPhase: 'calm', oneShot: false },
          { id: 't-flood', condition: { type: 'event_count', eventType: 'chat', threshold: 3 }, targetPhase: 'flood', oneShot: false },
        ],
      },
    },
    entities: [...PERSONAS.map((name) => ({ name, type: 'persona' })), { name: 'visitor', type: 'user' }],
    personaConfigs: setup.configs,
  }, WORLD_ID, T0);
  world.interaction = { ...world.interaction, groupAwareness: setup.groupAwareness, emotionalContagion: setup.emotionalContagion };
  // Spread the personas over the spaces: mara and olek on the dock, ines at the market.
  world.entities.find((e) => e.name === 'ines')!.spaceId = 'market';
  return world;
}

export type WorldOp =
  | { op: 'chat'; from: string; to: string; message: string }
  | { op: 'event'; event: DeepPartial<Event> & { type: string }; laterMs?: number }
  | { op: 'tick' | 'jump'; seconds: number }
  | { op: 'interact'; action: string; actor: string; target: string }
  | { op: 'mutate'; operations: Array<{ op: string } & Record<string, unknown>> }
  | { op: 'context'; entityName: string }
  | { op: 'query' };

const name = fc.constantFrom<string>(...NAMES);
const persona = fc.constantFrom<string>(...PERSONAS);

const eventArb: fc.Arbitrary<WorldOp> = fc.record({
  type: fc.constantFrom(...EVENT_TYPES),
  sourceEntity: name,
  targetEntity: fc.oneof(persona, fc.constant('visitor')),
  spaceId: fc.constantFrom<string>(...SPACES),
  payload: fc.record({ description: anyText }),
  appraisal: appraisalArb,
  stimulus: stimulusOf(1, true),
}, { requiredKeys: ['type'] }).chain((event) => fc.record({
  op: fc.constant('event' as const),
  event: fc.constant(event as DeepPartial<Event> & { type: string }),
  laterMs: fc.option(fc.integer({ min: 1, max: 900_000 }), { nil: undefined }),
})).map((o) => (o.laterMs === undefined ? { op: o.op, event: o.event } : o));

const mutationArb = fc.oneof(
  fc.record({ op: fc.constant('add_entity'), name: fc.constantFrom('newcomer', 'mara', 'guest'), type: fc.constantFrom('persona', 'user'), spaceId: fc.constantFrom(...SPACES, 'nowhere') }, { requiredKeys: ['op', 'name', 'type'] }),
  fc.record({ op: fc.constant('move_entity'), name, spaceId: fc.constantFrom(...SPACES, 'nowhere') }),
  fc.record({ op: fc.constant('set_relationship'), source: name, target: name, relationship: fc.record({ trust: num(-1, 1), strength: num(0, 1) }, { requiredKeys: [] }) }),
  fc.record({ op: fc.constant('add_fact'), fact: fc.record({ content: anyText, visibility: fc.constantFrom('public', 'private'), knownBy: fc.array(name, { maxLength: 2 }) }, { requiredKeys: ['content'] }) }),
  fc.record({ op: fc.constant('set_environment'), environment: fc.record({ weather: fc.constantFrom('rain', 'fog'), lighting: fc.constantFrom('dim', 'bright') }, { requiredKeys: [] }) }),
  fc.record({ op: fc.constant('add_space'), id: fc.constantFrom('cellar', 'dock') }),
  fc.record({ op: fc.constant('remove_entity'), name: fc.constantFrom('newcomer', 'guest') }),
);

export const worldOpArb: fc.Arbitrary<WorldOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('chat' as const), from: name, to: fc.oneof({ weight: 9, arbitrary: persona }, { weight: 1, arbitrary: fc.constantFrom('visitor', 'ghost') }), message: anyText }) },
  { weight: 4, arbitrary: eventArb },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('tick' as const, 'jump' as const), seconds: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 7200 })) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('interact' as const), action: fc.constantFrom('greet', 'compliment', 'comfort', 'gift', 'ignore', 'insult', 'threaten', 'hug'), actor: name, target: persona }) },
  { weight: 1, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 3 }).map((operations) => ({ op: 'mutate' as const, operations: operations as Array<{ op: string } & Record<string, unknown>> })) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('context' as const), entityName: fc.oneof(name, fc.constant('newcomer')) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'query' as const }) },
);

export const worldOpsArb = (max = 12) => fc.array(worldOpArb, { minLength: 1, maxLength: max, size: 'max' });

/** Applies one operation to the world; returns its result, or `{ error: code }` when the engine refused it. */
export function applyWorld(world: WorldDoc, o: WorldOp): unknown {
  try {
    switch (o.op) {
      case 'chat': return chat(world, o).result;
      case 'event': {
        const event = o.laterMs === undefined ? o.event : { ...o.event, timestamp: world.createdAt + Math.round(world.progression.elapsedTime * 1000) + o.laterMs };
        return dispatchEvent(world, event).result;
      }
      case 'tick': case 'jump': return advance(world, o.seconds, o.op).result;
      case 'interact': return interact(world, actionOrFail(world, o.action), { actor: o.actor, target: o.target }).result;
      case 'mutate': return mutate(world, WORLD_ID, o.operations);
      case 'context': return context(world, o.entityName);
      case 'query': return query(world, {});
    }
  } catch (err) {
    if (err instanceof ApiError) return { error: err.code };
    throw err;
  }
}

/** PUT of the world's own snapshot after a JSON round trip (what the HTTP handler does). */
export function roundTripWorld(world: WorldDoc): void {
  Object.assign(world, importWorld(world, WORLD_ID, jsonClone(exportWorld(world, WORLD_ID))));
}
