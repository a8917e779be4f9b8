// Figurative reading of one sentence (issue 36), before its words are read literally: frames
// rather than phrases. A violent or deathly word means praise, desire or laughter when its frame
// says so: laughter in the sentence ("dying of laughter", "that joke killed me 😂"), a wish
// ("I'd kill for a slice", "I could murder a pint"), a performance as its object ("murdered it",
// "destroyed the crowd", "smashed the exam") or no object at all ("this joke slays", "your cake
// kills every time"). A death said without the word is recognised by its shape: losing a person
// ("we lost grandma"), a person who passed, is gone, didn't make it or left us, an animal put down.
// The listener's own deed that damaged the speaker's things or plans ("you broke my vase", "your
// dog bit my boy", "you gave me the wrong key") is its fault, felt as shame or guilt.
// Words of the closed classes below are matched by stem (wink-porter2), so every inflection counts.
import { KIN, stem } from './lexicon.ts';

const stems = (words: string) => new Set(words.trim().split(/\s+/).map((w) => stem(w)));
const set = (words: string) => new Set(words.trim().split(/\s+/));

/** Verbs of violence that hyperbole uses for doing something superbly. */
const VIOLENT = stems('kill murder slay destroy smash crush slaughter nail rock slap demolish annihilate massacre own');
/** Deathly words that hyperbole uses for laughing or wanting ("dying", "dead", "died"). */
const DEATHLY = stems('die dying dead death');
/** Laughter: the frame that makes violence and death a joke's effect. */
const LAUGH = set('laugh laughed laughing laughs laughter joke jokes joking funny funnier funniest hilarious comedy comedian lol lmao lmfao rofl haha hahaha hahahaha hehe giggle giggling chuckle 😂 🤣 😆 😹');
/** Weeping that laughter explains ("crying laughing", "tears streaming"). */
const WEEPING = set('cry crying cried tears');
/** What a performance kills: the thing done or the people it won. */
const PERFORMANCE = set(`it crowd audience room stage show set gig performance competition contest exam exams test interview
  presentation speech solo song songs role game match race final finals dance recital concert audition house party look outfit`);
/** Words that may stand between a verb and its object. */
const ADVERBS = set('absolutely totally completely really just so truly literally utterly also even');
/** Wishes: a modal before the violent word ("would kill for", "could murder a"). */
const MODAL = set('would could');
/** People a loss or a death is said of. */
const PERSON = new Set([...KIN, ...'he she they him her them grandma grandpa granny gran nan nana mother father husband wife baby'.split(' ')]);
const PETS = set('dog cat horse mare pony pet puppy kitten rabbit bird parrot hamster goat');
/** What may stand between a possessive and the person ("our dear old mother"). */
const DESCRIBING = set('my our your his her their the dear beloved little old baby only eldest youngest poor sweet own');
/** What follows "passed" or "is gone" when it means a death: the end, or when and how. */
const DEATH_TAIL = set(', . ; last yesterday this on in peacefully quietly suddenly overnight recently during at early away forever now through today tonight');
/** Things a person passes that are no death. */
const PASS_OBJECT = set('exam exams test tests course driving interview audition class year grade');

/** Deeds that damage (matched by stem): done by the listener to the speaker's things, its fault. */
const DAMAGE = stems(`break broke broken scratch dent stain spill spilt lose lost burn burnt ruin wreck crack tear tore torn rip smash
  drop forget forgot forgotten ignore miss bump bite bit bitten scare woke wake insult overcharge cheat trick poison flood block
  kick push shrink shrank shrunk damage destroy misplace soak mess delay crash sink sank bent bend`);
/** Irregular past forms (the others end in -ed). */
const IRREGULAR_PAST = set('broke broken lost burnt spilt tore torn bit bitten woke forgot forgotten shrank shrunk hit left made gave sent put took told sold let threw thrown stole stolen sank sunk bent');
/** What the listener's people and animals are, when their deed is the listener's fault. */
const CHARGES = new Set([...PETS, ...'kid kids son daughter boy girl children staff cook waiter maid servant guests guest'.split(' ')]);
/** Verbs of handing over: "you gave me the wrong key". */
const HANDING = set('gave give sent send told tell put took take brought bring served serve charged charge booked book showed show');
const SPEAKER_SIDE = set('my our me us mine ours');

export interface Figures {
  /** Words read figuratively: they carry no valence, harm or death of their own. */
  consumed: Uint8Array;
  /** Valence of the figures, on the sentence's scale (praise, desire, laughter). */
  valence: number;
  /** Deaths said without a death word. */
  deaths: number;
  /** The listener's own fault (a deed that damaged the speaker's side). */
  blame: boolean;
  /** Fault when what follows turns out bad ("you made me…", "thanks to you…"). */
  blameIfBad: boolean;
}

const isPast = (w: string) => w.endsWith('ed') || IRREGULAR_PAST.has(w);

/** The sentence's figures, from its words (wink-nlp normal forms), token types, negation flags and stems (punctuation as it is). */
export function figures(words: string[], types: string[], negated: boolean[], st: string[]): Figures {
  const n = words.length;
  const out: Figures = { consumed: new Uint8Array(n), valence: 0, deaths: 0, blame: false, blameIfBad: false };
  let laughing = false;
  // Whether a person was named earlier in the clause of word i (clauses end at punctuation and "and"): one pass, so no word costs more than its neighbours.
  const person = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    const w = words[i];
    if ((LAUGH.has(w) && !negated[i]) || w.startsWith('haha')) laughing = true;
    person[i + 1] = types[i] === 'punctuation' || w === 'and' ? 0 : person[i] || (PERSON.has(w) ? 1 : 0);
  }
  const personBefore = (i: number) => person[i] === 1;
  for (let i = 0; i < n; i++) {
    if (types[i] !== 'word') continue;
    const w = words[i], s = st[i];
    const violent = VIOLENT.has(s), deathly = DEATHLY.has(s);
    // Laughter explains violence, death and tears in the same sentence.
    if (laughing && (violent || deathly || WEEPING.has(w))) { out.consumed[i] = 1; out.valence += 0.35; continue; }
    if (!violent && !deathly) continue;
    // A wish: "I'd kill for a …", "could murder a pint", "would die for".
    if (MODAL.has(words[i - 1] ?? '') && ['for', 'a', 'an', 'some', 'to'].includes(words[i + 1] ?? '')) { out.consumed[i] = 1; out.valence += 0.4; continue; }
    if (!violent) continue;
    let j = i + 1;
    while (j < n && ADVERBS.has(words[j])) j++;
    const next = words[j] ?? '';
    // A performance as its object: "murdered it", "destroyed the crowd", "smashed your exam".
    const object = next === 'it' ? 'it' : ['the', 'that', 'this', 'their', 'your', 'his', 'her', 'every', 'my', 'our'].includes(next) ? words[j + 1] ?? '' : '';
    if (object && PERFORMANCE.has(object) && !(next === 'it' && words[j + 1] === 'with')) { out.consumed[i] = 1; out.valence += 0.7; continue; }
    // No object at all, the subject a thing ("this joke slays", "your cake kills every time"), or slay in any form.
    const bare = j >= n || types[j] === 'punctuation' || ['every', 'hard', 'always', 'again'].includes(next);
    if (s === stem('slay') && !PERSON.has(next) && next !== 'you' && next !== 'me') { out.consumed[i] = 1; out.valence += 0.6; continue; }
    if (bare && w.endsWith('s') && !['he', 'she', 'it'].includes(words[i - 1] ?? '')) { out.consumed[i] = 1; out.valence += 0.6; continue; }
  }
  // "I'm afraid your son…", "I'm afraid we're full": a softener before news, no fear of the speaker's.
  for (let i = 2; i < n; i++) {
    if (words[i] === 'afraid' && words[i - 1] === 'am' && words[i - 2] === 'i' && i + 1 < n && types[i + 1] === 'word' && words[i + 1] !== 'of' && !negated[i]) out.consumed[i] = 1;
  }
  // "killer" said of a thing ("that solo was killer"): not a murderer (a, the, serial killer).
  for (let i = 0; i < n; i++) {
    if (words[i] === 'killer' && !['a', 'an', 'the', 'serial', 'that', 'this', 'his', 'her'].includes(words[i - 1] ?? '')) { out.consumed[i] = 1; out.valence += 0.5; }
  }
  deathsOf(words, negated, st, personBefore, out);
  faultOf(words, types, negated, st, out);
  return out;
}

/** Deaths by shape: a person lost, passed, gone, not made it or left us; an animal put down. */
function deathsOf(words: string[], negated: boolean[], st: string[], personBefore: (i: number) => boolean, out: Figures): void {
  const n = words.length;
  for (let i = 0; i < n; i++) {
    const w = words[i], s = st[i];
    // "We lost grandma", "she lost her husband to the sea", "you lost your mother".
    if ((s === 'lost' || s === 'lose') && !negated[i]) {
      let j = i + 1;
      while (j < n && DESCRIBING.has(words[j])) j++;
      if (j < n && PERSON.has(words[j]) && !PETS.has(words[j]) && !(words[j + 1] === 'in' && words[j + 2] === 'the')) { out.deaths++; continue; }
    }
    // "My grandpa passed last spring", "he passed in his sleep": not "passed the exam", not "passed!".
    if (s === 'pass' && personBefore(i) && DEATH_TAIL.has(words[i + 1] ?? '.') && !words.some((x) => PASS_OBJECT.has(x)) && words[words.length - 1] !== '!') {
      if (words[i + 1] !== 'away' && words[i + 1] !== 'on') out.deaths++;
      continue;
    }
    // "He didn't make it", "she did not make it through the night".
    if (s === 'make' && negated[i] && words[i + 1] === 'it' && personBefore(i) && DEATH_TAIL.has(words[i + 2] ?? '.') && words[i + 2] !== 'on' && words[i + 2] !== 'in') { out.deaths++; continue; }
    // "My wife is gone", "your father left us last night", "she slipped away".
    if ((w === 'gone' || (s === 'left' && words[i + 1] === 'us') || (s === 'slip' && words[i + 1] === 'away')) && personBefore(i)) {
      const k = w === 'gone' ? i + 1 : i + 2;
      // "Gone on holiday", "gone in the kitchen" are no deaths; "slipped away in her sleep" is one.
      if (DEATH_TAIL.has(words[k] ?? '.') && words[k] !== 'on' && (words[k] !== 'in' || s === 'slip') && words[k] !== 'at') { out.deaths++; continue; }
    }
    // "We had to put the old dog down", "they put our cat to sleep".
    if (s === 'put') {
      let j = i + 1;
      while (j < n && DESCRIBING.has(words[j])) j++;
      if (PETS.has(words[j] ?? '') && (words[j + 1] === 'down' || (words[j + 1] === 'to' && words[j + 2] === 'sleep'))) out.deaths++;
    }
  }
}

/** The listener's deed against the speaker's side: its fault. */
function faultOf(words: string[], types: string[], negated: boolean[], st: string[], out: Figures): void {
  const n = words.length;
  for (let i = 0; i < n; i++) {
    const w = words[i];
    const subjectStart = i === 0 || types[i - 1] === 'punctuation' || words[i - 1] === 'and' || words[i - 1] === 'because' || words[i - 1] === 'but';
    if (!subjectStart) continue;
    // "You broke my vase", "you've lost our booking", "you completely forgot me".
    if (w === 'you') {
      let j = i + 1;
      while (j < n && (ADVERBS.has(words[j]) || words[j] === 'have' || words[j] === 'had' || words[j] === 'accidentally')) j++;
      const verb = words[j] ?? '';
      if (negated[j] || out.consumed[j]) continue;
      const rest = words.slice(j + 1, j + 5);
      if (isPast(verb) && DAMAGE.has(st[j]) && rest[0] !== 'your' && rest[0] !== 'yourself') {
        // Losing one's own person is a loss (deathsOf), not a fault.
        if ((st[j] === 'lost') && rest.some((x) => PERSON.has(x) && !PETS.has(x)) && !rest.some((x) => SPEAKER_SIDE.has(x))) continue;
        out.blame = true;
      }
      // "You gave me the wrong key", "you sent us to the wrong house".
      if (HANDING.has(verb) && words.slice(j + 1, j + 6).includes('wrong')) out.blame = true;
      // "You made me miss my train", "you made us late": fault when it turns out bad.
      if (verb === 'made' && SPEAKER_SIDE.has(words[j + 1] ?? '')) out.blameIfBad = true;
    }
    // "Your dog bit my boy", "your son broke our window".
    if (w === 'your' && CHARGES.has(words[i + 1] ?? '')) {
      const j = i + 2;
      if (isPast(words[j] ?? '') && DAMAGE.has(st[j] ?? '') && !negated[j] && words.slice(j + 1, j + 4).some((x) => SPEAKER_SIDE.has(x))) out.blame = true;
    }
  }
  // "Thanks to you, I missed…": gratitude's words, blame's meaning, when what follows is bad.
  for (let i = 0; i + 2 < n; i++) {
    if ((words[i] === 'thanks' || words[i] === 'thank') && words[i + 1] === 'to' && (words[i + 2] === 'you' || words[i + 2] === 'your')) out.blameIfBad = true;
  }
}
