// Chat as people type it, made readable before wink-nlp sees it: shouting (a message in capitals is
// lower-cased and remembered as shouted: wink reads "I'M" as one unknown word), elongation ("soooo",
// "happpy", "diiied": runs of a letter cut down to the form the lexicon knows), and common slang,
// text-speak and misspellings ("u", "ur", "h8", "thx", "lier", "kil") spelled out. Pure and cheap:
// one pass over the words; a text with nothing to change comes back as it was.
import { AFINN, EVENT_VALENCE, INTENSIFIERS, KIN, LOSS, NEGATORS, SECOND, STOP } from './lexicon.ts';

/** Text-speak and misspellings, whole words (lower case), spelled out. */
const SLANG: Readonly<Record<string, string>> = {
  u: 'you', ya: 'you', yu: 'you', r: 'are', urs: 'yours', h8: 'hate', h8s: 'hates', h8ed: 'hated', gr8: 'great', l8r: 'later', b4: 'before',
  thx: 'thanks', thnx: 'thanks', thanx: 'thanks', tx: 'thanks', ty: 'thank you', tysm: 'thank you so much', plz: 'please', pls: 'please',
  im: 'i am', "i'm": 'i am', youll: 'you will', theyll: 'they will', ive: "i've", idk: "i don't know", idc: "i don't care", dont: "don't", cant: "can't", didnt: "didn't", doesnt: "doesn't",
  isnt: "isn't", wasnt: "wasn't", wouldnt: "wouldn't", couldnt: "couldn't", shouldnt: "shouldn't", youre: "you're", thats: "that's",
  wat: 'what', wut: 'what', wen: 'when', luv: 'love', lov: 'love', ily: 'i love you', cuz: 'because', coz: 'because', bc: 'because',
  ppl: 'people', wtf: 'what the hell', stfu: 'shut up', gtfo: 'get out', ffs: 'for god sake', nvr: 'never', gud: 'good',
  wanna: 'want to', gotta: 'got to', imma: "i'm going to", ima: "i'm going to", finna: 'going to', tho: 'though', dis: 'this', dat: 'that',
  looser: 'loser', lier: 'liar', liers: 'liars', sik: 'sick', kil: 'kill', kilt: 'killed', wil: 'will', evrything: 'everything',
  everythin: 'everything', evry: 'every', stoopid: 'stupid', stupd: 'stupid', stpid: 'stupid', idiut: 'idiot', dum: 'dumb',
  hte: 'hate', freind: 'friend', realy: 'really', sory: 'sorry', sorri: 'sorry', beleive: 'believe', definately: 'definitely',
  hapy: 'happy', happi: 'happy', srsly: 'seriously', rly: 'really',
};

/** "ur" is "you're" before a description ("ur a lier", "ur amazing") and "your" before a thing ("ur mom"). */
const BEFORE_DESCRIPTION = new Set(['a', 'an', 'the', 'so', 'such', 'very', 'too', 'not', 'being', 'gonna', 'going', 'always', 'never', 'just', 'really', 'sooo', 'soo']);

/** Verbs that follow "I'll": "ill" before one of them lost its apostrophe ("Ill be there"). */
const AFTER_ILL = new Set('be kill hurt get come go call see make find do take tell show never always break burn destroy end pay wait have try miss love help text ring bring'.split(' '));

/** Words the lexicon knows: an elongated word is cut down to one of these when it can be. */
const KNOWN = new Set<string>([
  ...Object.keys(AFINN), ...Object.keys(EVENT_VALENCE), ...STOP, ...INTENSIFIERS, ...NEGATORS, ...SECOND, ...KIN, ...LOSS,
  ...Object.values(SLANG).flatMap((v) => v.split(' ')),
  ...'no yes so oh wow yay yeah nope please stop help shut up died dead die cat dog mom dad mum'.split(' '),
]);

/** A letter repeated three times or more ("sooo", "happpy"). */
const ELONGATED = /(\p{L})\1{2,}/u;

function unstretch(w: string): string {
  if (!ELONGATED.test(w)) return w;
  const two = w.replace(/(\p{L})\1{2,}/gu, '$1$1');
  const one = w.replace(/(\p{L})\1+/gu, '$1');
  // "happpy" → "happy" (two), "soooo" → "so", "diiied" → "died" (one); else keep the doubled form.
  if (KNOWN.has(two)) return two;
  if (KNOWN.has(one)) return one;
  // A stretched last letter is a single one ("wayyy", "pleaseee"); inside, the double is likelier ("coool").
  return /(\p{L})\1{2,}$/u.test(w) ? w.replace(/(\p{L})\1{2,}$/u, '$1').replace(/(\p{L})\1{2,}/gu, '$1$1') : two;
}

export interface Normalised { text: string; shouted: boolean }

const WORD = /[\p{L}\p{N}']+/gu;

/** The text a person meant, and whether it was shouted (most of its letters in capitals). */
export function normalise(input: string): Normalised {
  // Typographic apostrophes ("I’m") are the plain one to wink-nlp's contractions and to the lexicon.
  const text = input.includes('\u2019') || input.includes('\u2018') ? input.replace(/[\u2018\u2019]/g, "'") : input;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  const capitals = text.match(/\p{Lu}/gu)?.length ?? 0;
  const shouted = letters >= 6 && capitals / letters > 0.7;
  const words = text.match(WORD) ?? [];
  let out = '';
  let last = 0;
  let changed = false;
  let i = 0;
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    // A word in capitals (a shout, or emphasis as in "SO helpful") is read in lower case; "I" stays.
    let w = raw.length > 1 && raw === raw.toUpperCase() && /\p{L}/u.test(raw) ? raw.toLowerCase() : raw;
    const lower = w.toLowerCase();
    let spelled = SLANG[lower];
    if (lower === 'ur') {
      const next = (words[i + 1] ?? '').toLowerCase();
      spelled = BEFORE_DESCRIPTION.has(next) || (AFINN[next] ?? 0) !== 0 || next.endsWith('ing') ? "you're" : 'your';
    } else if ((lower === '4' || lower === '2') && /\p{L}/u.test(words[i - 1] ?? '') && /^\p{L}/u.test(words[i + 1] ?? '')) {
      // "thx 4 evrything", "talk 2 me": a digit between words stands for a word.
      spelled = lower === '4' ? 'for' : 'to';
    }
    // "ILL KILL YOU", "Ill be there": at the start and before a verb, "ill" without its apostrophe is "I'll".
    if (i === 0 && lower === 'ill' && AFTER_ILL.has((words[1] ?? '').toLowerCase())) spelled = 'i will';
    if (spelled) w = spelled;
    else if (ELONGATED.test(w)) w = unstretch(lower);
    if (w !== raw) {
      changed = true;
      out += text.slice(last, m.index) + w;
      last = m.index! + raw.length;
    }
    i++;
  }
  // `text` already has plain apostrophes; words changed are spliced into it.
  return { text: changed ? out + text.slice(last) : text, shouted };
}
