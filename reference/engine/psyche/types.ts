// Static types of contract components that contract/resources.ts does not alias by name.
import type { EntityResponse, PersonaSnapshot, PersonaState } from '../../../contract/resources.ts';

export type SoulStage = PersonaState['soul_stage'];
export type MemoryEpisode = NonNullable<EntityResponse['memoryEpisode']>;
export type SelfEsteem = PersonaSnapshot['selfEsteem'];
