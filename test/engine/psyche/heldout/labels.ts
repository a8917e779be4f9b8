// The labelled set's shape, the persona every message is sent to, and the temperaments it is felt
// by. Families: positive (glad or warm), hostile, afraid, sad (distress, disappointment, shame,
// despair: also the sympathy felt for a speaker's sadness), surprised, neutral. A message may accept
// more than one family (bad news about the persona's people: sadness or fear; never hostility).
import type { PersonaConfig } from '../../../../contract/resources.ts';

export type Family = 'positive' | 'hostile' | 'afraid' | 'sad' | 'surprised' | 'neutral';

export interface Labelled { cls: string; message: string; expect: Family | Family[] }

/** The 17 classes; sarcasm is scored apart (no reading of words can see it). */
export const CLASSES = [
  'small-talk', 'foreign', 'question', 'insult', 'negation', 'praise', 'threat', 'euphemism', 'emoji', 'surprise',
  'idiom', 'long', 'speaker-sadness', 'bad-news', 'typos-shouting', 'own-fault', 'sarcasm',
] as const;
export const APART = new Set(['sarcasm']);

/** An innkeeper with goals and family: the messages speak of her inn, her daughter Lucia, her son Tomas. */
export const ROSA: Partial<PersonaConfig> = {
  identity: { name: 'Rosa', role: 'innkeeper of the Blue Anchor', speakingStyle: 'plain', culturalIdentity: 'unspecified', coreValues: ['family', 'hospitality'] },
  goals: [
    { id: 'inn', content: 'keep my inn, the Blue Anchor, open and full', priority: 0.8, mutable: true, status: 'active' },
    { id: 'lucia', content: 'see my daughter Lucia finish medical school', priority: 0.9, mutable: true, status: 'active' },
    { id: 'tomas', content: 'make peace with my son Tomas', priority: 0.7, mutable: true, status: 'active' },
  ],
};

export const TEMPERAMENTS = {
  steady: { O: 0.5, C: 0.6, E: 0.6, A: 0.7, N: 0.2, H: 0.6 },
  balanced: { O: 0.5, C: 0.5, E: 0.5, A: 0.5, N: 0.5, H: 0.5 },
  volatile: { O: 0.5, C: 0.4, E: 0.5, A: 0.3, N: 0.85, H: 0.4 },
} as const;
export type Temperament = keyof typeof TEMPERAMENTS;
