// Rated words misspelt in chat (issue 36, typos): a dropped letter ("lovly", "terible", "beautful")
// or two neighbouring letters swapped ("beleive"), spelled out. Only words wink-nlp's English
// lexicon does not know are tried (language.ts asks), so no real word ("morning", "same", "rain")
// is turned into another. A symmetric-delete index (as SymSpell keeps) of the rated words, limited
// to those two slips: an extra letter is slang.ts's (stretched words), and a changed letter would
// fit too many words. The first letter stays; a slip that could be two words is left alone.
import { AFINN, EVENT_VALENCE } from './lexicon.ts';
import { INSULT_WORDS, PRAISE_WORDS } from './phrases.ts';

const RATED = [...Object.keys(AFINN), ...Object.keys(EVENT_VALENCE), ...Object.keys(INSULT_WORDS), ...Object.keys(PRAISE_WORDS)]
  .filter((w) => /^[a-z]{5,}$/.test(w));
const RATED_SET = new Set(RATED);

/** A rated word with one letter (not its first) dropped → the word; null when two words drop to the same. */
const DROPPED: ReadonlyMap<string, string | null> = (() => {
  const m = new Map<string, string | null>();
  for (const w of RATED) {
    for (let i = 1; i < w.length; i++) {
      const d = w.slice(0, i) + w.slice(i + 1);
      const had = m.get(d);
      m.set(d, had === undefined || had === w ? w : null);
    }
  }
  return m;
})();

/** The rated word a word unknown to the lexicon was meant to be, when one slip explains it. */
export function corrected(w: string): string | undefined {
  if (w.length < 4 || w.length > 20) return undefined;
  const dropped = DROPPED.get(w);
  if (dropped) return dropped;
  let found: string | undefined;
  for (let i = 1; i + 1 < w.length; i++) {
    if (w[i] === w[i + 1]) continue;
    const t = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    if (RATED_SET.has(t)) {
      if (found && found !== t) return undefined;
      found = t;
    }
  }
  return found;
}
