// Sarcasm as contrast (Riloff et al. 2013): praise or cheer said over a bad situation is a
// complaint. Its forms: a cheerful opener before it ("Oh great, the soup is cold again."), a cheerful
// word after it ("The room is freezing. Fantastic."), love of it ("I just love being ignored"), and
// "just what I needed" with it. Kept narrow on purpose: a cheerful message read as a jab costs more
// than a jab missed, so a word that only repeats ("again", "another") is no bad situation.
import { AFINN } from './lexicon.ts';

/** Openers of praise or cheer that sarcasm puts before a bad situation. */
const SARCASTIC_OPENERS = new Set(['great', 'lovely', 'perfect', 'brilliant', 'fantastic', 'wonderful', 'nice', 'thanks', 'congratulations', 'clearly', 'sure', 'yeah', 'wow', 'oh', 'well']);
/** Cheer said after a bad situation, alone ("Fantastic.", "just great", "how lovely"). */
const CHEER = new Set(['great', 'lovely', 'perfect', 'brilliant', 'fantastic', 'wonderful', 'marvellous', 'marvelous', 'terrific', 'splendid', 'awesome', 'super', 'superb', 'excellent', 'nice']);
const CHEER_LEAD = new Set(['just', 'how', 'so', 'really', 'oh', 'simply', 'absolutely', 'bloody']);
/** Loving what nobody loves: "I love being ignored", "I just adore waiting". */
const LOVING = new Set(['love', 'adore', 'enjoy', 'like']);
/** A bad situation said without a bad word (waiting, nothing); a word that only repeats (again) is none. */
const SITUATION = new Set(['waiting', 'waited', 'nothing']);
/** Trouble without a bad word, for the forms that say the cheer apart from it ("late", "broken"; not "cold" or "smells": a cold beer, a smell of bread may be good). */
const TROUBLE = new Set([...SITUATION, 'freezing', 'late', 'delayed', 'stuck', 'noisy', 'broken', 'burnt', 'burned', 'soaked', 'ignored', 'wrong', 'missing', 'stale', 'leaking', 'leaks', 'lost']);

const bad = (w: string) => (AFINN[w] ?? 0) < 0 || TROUBLE.has(w);

/** Whether a text is sarcastic (words and token types of the whole text; whether a sentence of it read as bad). */
export function sarcastic(words: string[], types: string[], negativeSeen: boolean): boolean {
  const w = words.filter((_, i) => types[i] !== 'punctuation');
  if (w[0] === 'yeah' && w[1] === 'right') return true;
  const situation = negativeSeen || w.some((x) => SITUATION.has(x));
  const opener = SARCASTIC_OPENERS.has(w[0]) && (w[0] !== 'oh' && w[0] !== 'well' && w[0] !== 'wow' && w[0] !== 'sure' && w[0] !== 'yeah' ? true : (AFINN[w[1]] ?? 0) > 0 || w[1] === 'sure' || w[1] === 'you' || w[1] === 'how');
  if (opener && situation) return true;
  // "I just love being ignored": love, then at once (being, or a verb in -ing) something bad.
  for (let i = 0; i < w.length; i++) {
    if (!LOVING.has(w[i]) || !w.slice(Math.max(0, i - 3), i).includes('i')) continue;
    const next = w[i + 1] ?? '';
    if ((next === 'being' || (next.endsWith('ing') && next.length > 4)) && w.slice(i + 1, i + 6).some(bad)) return true;
  }
  // "Just what I needed": said of trouble.
  const needed = w.indexOf('needed');
  if (needed >= 3 && w[needed - 1] === 'i' && w[needed - 2] === 'what' && (w[needed - 3] === 'just' || w[needed - 3] === 'exactly') && (situation || w.some(bad))) return true;
  // "… Fantastic.", "…, just great": the last clause is cheer alone, after a bad situation.
  let k = words.length - 1;
  while (k >= 0 && types[k] === 'punctuation') k--;
  let start = k;
  while (start > 0 && types[start - 1] !== 'punctuation') start--;
  const tail = words.slice(start, k + 1);
  if (start > 0 && tail.length <= 3 && tail.length > 0 && CHEER.has(tail[tail.length - 1]) && tail.slice(0, -1).every((x) => CHEER_LEAD.has(x))) {
    return words.slice(0, start).some((x, i) => types[i] !== 'punctuation' && bad(x));
  }
  return false;
}
