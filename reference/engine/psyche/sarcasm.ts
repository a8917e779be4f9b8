// Sarcasm as contrast (Riloff et al. 2013): a positive opener said over a negative situation
// ("Oh great, the soup is cold again.") is a complaint. Kept narrow on purpose: a cheerful message
// read as a jab costs more than a jab missed, so a word that only repeats ("again") is no bad situation.
import { AFINN } from './lexicon.ts';

/** Openers of praise or cheer that sarcasm puts before a bad situation. */
const SARCASTIC_OPENERS = new Set(['great', 'lovely', 'perfect', 'brilliant', 'fantastic', 'wonderful', 'nice', 'thanks', 'congratulations', 'clearly', 'sure', 'yeah', 'wow', 'oh', 'well']);
/** A bad situation said without a bad word (waiting, nothing); a word that only repeats (again) is none. */
const SITUATION = new Set(['waiting', 'waited', 'nothing']);

/** Whether a text is sarcastic: a cheerful opener ("oh great", "lovely,") with a bad situation, or "yeah, right". */
export function sarcastic(words: string[], types: string[], negativeSeen: boolean): boolean {
  const w = words.filter((_, i) => types[i] !== 'punctuation');
  if (w[0] === 'yeah' && w[1] === 'right') return true;
  const opener = SARCASTIC_OPENERS.has(w[0]) && (w[0] !== 'oh' && w[0] !== 'well' && w[0] !== 'wow' && w[0] !== 'sure' && w[0] !== 'yeah' ? true : (AFINN[w[1]] ?? 0) > 0 || w[1] === 'sure' || w[1] === 'you' || w[1] === 'how');
  if (!opener) return false;
  return negativeSeen || w.some((x) => SITUATION.has(x));
}
