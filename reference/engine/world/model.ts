// The stored form of a world and of a standalone persona. The store keeps them as JSON documents;
// everything a snapshot exports is here, so export → import → export is lossless.
import type {
  Entity, Environment, Event, InteractionSettings, PendingEvent, PersonaConfig, PersonaSnapshot, ProgressionState,
  Space, WorldDefinition,
} from '../../../contract/resources.ts';
import type { Static } from 'typebox';
import type { Action, RelationshipRecord } from '../../../contract/operations.ts';

export type ActionRecord = Static<typeof Action>;
export type Relationship = Static<typeof RelationshipRecord>;
export type EntityRecord = Entity;

/** What the engine keeps per persona besides the snapshot SPEC.md describes. */
export interface PersonaRuntime {
  snapshot: PersonaSnapshot;
  /** Texts appended to the next prompt (annotate); consumed by the next response. */
  annotations: string[];
  /** Text of the next response (next-response); consumed by it. */
  forcedResponse: string | null;
  /** Percepts scheduled for a later time; delivered when time reaches them. */
  pending: PendingEvent[];
}

export interface WorldDoc {
  createdAt: number;
  engineVersion: string;
  definition: WorldDefinition;
  entities: EntityRecord[];
  spaces: Space[];
  environment: Environment;
  interaction: InteractionSettings;
  personaConfigs: Record<string, PersonaConfig>;
  /** Keyed by entity name, one per entity of type persona. */
  personas: Record<string, PersonaRuntime>;
  relationships: Relationship[];
  customActions: ActionRecord[];
  progression: ProgressionState;
  /** Most recent last; capped (the full log is in the store). */
  recentEvents: Event[];
  /** World events dispatched with a timestamp in the future, delivered by tick and time-jump. */
  pendingEvents: Event[];
  /** Source of deterministic ids inside the world (entities, relationships, actions, facts). */
  counter: number;
}

export interface PersonaDoc {
  engineVersion: string;
  config: PersonaConfig;
  runtime: PersonaRuntime;
  /** The persona's own clock (ms); perceive without a timestamp happens at it, tick advances it. */
  clock: number;
}

/** Operations return what they changed in the event log next to their result. */
export interface Outcome<R> { result: R; logged: Event[] }

export const RECENT_EVENTS = 50;
export const ENGINE_ERRORS = 'engine';
