// The boundary between the world machinery (reference/engine/world) and the emotion model of one
// persona (this folder). The world side routes percepts and time to a persona; the psyche side owns
// every field of the persona snapshot and how it moves. Pure and deterministic: the same snapshot,
// config and percept give the same outcome (randomness only from a seed stored in the snapshot).
import type {
  Appraisal, ContextPersonaState, DiscreteEmotion, EntityResponse, PersonaConfig, PersonaRelationship,
  PersonaSnapshot, StandalonePersonaState, Stimulus, VAD,
} from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import type { BriefWorld } from './views.ts';

/** Something a persona perceives: a chat message, a world event, an action, a perceive call. */
export interface Percept {
  kind: 'chat' | 'event' | 'action';
  /** Event type ('chat' for chat messages, the action name for actions). */
  type: string;
  /** Key (name) of the entity the percept comes from, when there is one. */
  source?: string;
  /** Id of that entity, when known (used in socialUpdates and memory episodes). */
  sourceId?: string;
  /** The chat message, or a description of the event/action. */
  text?: string;
  /** Appraisal members given by the caller are honoured; missing ones are derived. */
  appraisal?: DeepPartial<Appraisal>;
  stimulus?: DeepPartial<Stimulus>;
  /** World (or persona) time of the percept, milliseconds since the epoch. */
  timestamp: number;
  /** World-level relationship of the source toward this persona, if any (trust colours appraisal). */
  worldTrust?: number;
  /** The world's norm map (culture, with the current phase's override applied), for norm_compatibility. */
  normMap?: Record<string, number>;
}

export interface PersonaBrief {
  identity: { name: string; role: string; speakingStyle: string; culturalIdentity: string; coreValues: string[] };
  selfConcept: string;
  goals: Array<{ id: string; content: string; priority: number; status: string; progress: number }>;
  /** Whom the persona last dealt with; `role` and `ties` as the world configures them, when it does. */
  talkingWith: { name: string; trust: number; intimacy: number; attachmentStyle: string; role?: string; ties?: string[] } | null;
  /** `felt`: the label the memory left; `feltWord`: the same in a plain word that agrees with what happened. */
  memories: Array<{ context: string; from: string; felt: string; feltWord: string; importance: number }>;
  conversation: Array<{ from: string; said: string; replied: string }>;
  /** The same lines as promptLines, joined. */
  prompt: string;
}

/** The result of a percept for the persona that perceived it. `text` is the deterministic reply. */
export type PerceiveOutcome = EntityResponse;

export interface PsycheModel {
  /** Engine version reported on worlds and personas. */
  readonly version: string;
  /** Fills every default of a (partial) persona configuration. */
  normalizeConfig(input: DeepPartial<PersonaConfig> | undefined, name: string): PersonaConfig;
  /** The initial snapshot of a new persona; `seed` makes its randomness reproducible. */
  create(config: PersonaConfig, seed: string, now: number): PersonaSnapshot;
  /** Processes a percept: moves the state, returns the entity response (text included). */
  perceive(snapshot: PersonaSnapshot, config: PersonaConfig, percept: Percept): PerceiveOutcome;
  /** Lets `seconds` of simulated time pass: decay toward baseline, mood update, body recovery. */
  elapse(snapshot: PersonaSnapshot, config: PersonaConfig, seconds: number, now: number): void;
  /** Direct override of emotion members (POST /personas/{id}/emotion); members not given keep their value. */
  override(snapshot: PersonaSnapshot, vad: Partial<VAD>, now: number): void;
  /** Emotional contagion / group awareness: a bystander feels a share of another's emotion. */
  witness(snapshot: PersonaSnapshot, config: PersonaConfig, other: VAD, share: number, now: number): EntityResponse;
  discrete(snapshot: PersonaSnapshot): DiscreteEmotion;
  /** GET /personas/{id}/state and the state of a world persona. */
  view(snapshot: PersonaSnapshot): StandalonePersonaState;
  /** personaState of the world context; `toward` is the persona-level relationship with the asker, if any. */
  contextState(snapshot: PersonaSnapshot, toward?: PersonaRelationship): ContextPersonaState;
  /** Lines describing the persona's identity, style, goals and feelings, for the system prompt. */
  promptLines(snapshot: PersonaSnapshot, config: PersonaConfig, world?: BriefWorld): string[];
  /** Identity, goals, whom it talks with, memories and conversation, for an LLM (the world context's `persona`). */
  brief(snapshot: PersonaSnapshot, config: PersonaConfig, world?: BriefWorld): PersonaBrief;
}
