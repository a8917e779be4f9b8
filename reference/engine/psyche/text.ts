// The default reply without an LLM: a sentence chosen (seeded) among templates of the discrete
// emotion's family, strengthened at high intensity, then shaped by identity.speakingStyle
// (formal: no contractions; casual: relaxed opener; terse: first sentence only; poetic: an image;
// warm: a kind close). The same snapshot and percept give the same text.
import type { DiscreteEmotion, PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { draw } from './internals.ts';
import { memoize } from './util.ts';

export const FAMILY: Record<string, string> = {
  anger: 'hostile', hate: 'hostile', reproach: 'hostile', disliking: 'hostile', resentment: 'hostile',
  fear: 'afraid', fears_confirmed: 'afraid',
  distress: 'sad', disappointment: 'sad', shame: 'sad',
  joy: 'glad', gratification: 'glad', happy_for: 'glad', satisfaction: 'glad', pride: 'glad', relief: 'glad', gloating: 'glad',
  gratitude: 'warm', admiration: 'warm', love: 'warm', liking: 'warm', hope: 'warm',
  neutral: 'neutral',
};

const TEMPLATES: Record<string, string[]> = {
  hostile: ["I don't appreciate that.", "That's out of line, and you know it.", "I won't let that pass."],
  afraid: ["I'm not sure I feel safe with this.", "This worries me more than I'd like to admit.", "Something about this frightens me."],
  sad: ["That's hard to hear.", "I feel a little lost right now.", "I wish things were different."],
  glad: ["That's wonderful to hear.", "This makes me genuinely happy.", "I'm really pleased about this."],
  warm: ["Thank you, that means a lot to me.", "I'm grateful you're here.", "I appreciate you more than you know."],
  neutral: ["I see.", "Go on, I'm listening.", "Alright, tell me more."],
};
const STRONG: Record<string, string> = {
  hostile: "I'm furious.", afraid: "I'm really scared.", sad: "It hurts.", glad: "I'm thrilled!", warm: "Truly.", neutral: '',
};
const POETIC: Record<string, string> = {
  hostile: 'A storm gathers behind my eyes.', afraid: 'The shadows feel longer tonight.', sad: 'It is like rain on a quiet window.',
  glad: 'It feels like sunlight after rain.', warm: 'It warms me like a hearth.', neutral: 'The day goes on, as days do.',
};
const CONTRACTIONS: [RegExp, string][] = [
  [/\bI'm\b/g, 'I am'], [/\bdon't\b/g, 'do not'], [/\bwon't\b/g, 'will not'], [/\bThat's\b/g, 'That is'], [/\bthat's\b/g, 'that is'],
  [/\bI'd\b/g, 'I would'], [/\byou're\b/g, 'you are'], [/\bcan't\b/g, 'cannot'], [/\bIt's\b/g, 'It is'],
];

/** At or above this intensity the reply says so. */
export const STRONG_INTENSITY = 0.6;

interface StyleCues { terse: boolean; casual: boolean; poetic: boolean; warm: boolean; formal: boolean }

/**
 * What a speaking style asks of the reply (read once per style text). A cue is a word that starts
 * one of the style's words: "warmly" is warm, "unkind" is not kind, "informal" is not formal.
 */
const styleCues = memoize((speakingStyle: string): StyleCues => {
  const style = speakingStyle.toLowerCase();
  return Object.freeze({
    terse: /(?<![\p{L}\p{N}'])(terse|brief|laconic|curt)/u.test(style),
    casual: /(?<![\p{L}\p{N}'])(casual|informal|friendly)/u.test(style),
    poetic: /(?<![\p{L}\p{N}'])(poetic|lyrical|flowery)/u.test(style),
    warm: /(?<![\p{L}\p{N}'])(warm|gentle|kind)/u.test(style),
    formal: /(?<![\p{L}\p{N}'])(formal|polite|courtly)/u.test(style),
  });
});

export function reply(s: PersonaSnapshot, config: PersonaConfig, d: DiscreteEmotion): string {
  const family = FAMILY[d.primary] ?? 'neutral';
  const options = TEMPLATES[family];
  let text = options[Math.floor(draw(s) * options.length) % options.length];
  if (d.intensity >= STRONG_INTENSITY && STRONG[family]) text = `${STRONG[family]} ${text}`;
  const style = styleCues(config.identity?.speakingStyle ?? '');
  if (style.terse) text = text.split(/(?<=[.!?])\s/)[0];
  if (style.casual) text = `Hey, ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
  if (style.poetic) text = `${text} ${POETIC[family]}`;
  if (style.warm && family !== 'hostile') text = `${text} I'm glad we can talk.`;
  if (style.formal) for (const [re, full] of CONTRACTIONS) text = text.replace(re, full);
  return text;
}
