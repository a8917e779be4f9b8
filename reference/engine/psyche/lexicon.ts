// The word lists the reading of an utterance uses (language.ts). Tokens are wink-nlp's normal forms:
// lower case, contractions expanded ("you're" → you, are; "can't" → can, not). Word valences come
// from AFINN-165 (through the `sentiment` package's English labels), with the few event words it
// lacks added in EVENT_VALENCE; everything else here is a closed list, documented in docs/engine.md.
import { createRequire } from 'node:module';
import stem from 'wink-porter2-stemmer';

const require = createRequire(import.meta.url);
/** AFINN-165: word → valence in −5 … +5. */
export const AFINN: Readonly<Record<string, number>> = require('sentiment/languages/en/labels.json');

const set = (words: string) => new Set(words.trim().split(/\s+/));

/** Events that matter to a person, which AFINN does not rate. */
export const EVENT_VALENCE: Readonly<Record<string, number>> = {
  promotion: 3, promoted: 3, hired: 2, engaged: 2, married: 2, wedding: 2, graduated: 3, recovered: 3, healed: 3,
  raise: 1, reunited: 3, forgave: 3, forgives: 3, forgiven: 3, birthday: 2, born: 2, pregnant: 1,
  fired: -3, divorce: -3, divorced: -3, sick: -2, ill: -2, cancer: -3, hospital: -2, arrested: -3, evicted: -3,
  bankrupt: -3, debt: -2, lonely: -2, alone: -1, failed: -2, lost: -2, missing: -2, broke: -1, estranged: -2,
};

export const SECOND = set('you your yours yourself yourselves u ya thee thou');
export const FIRST_SUBJECT = set('i we');
export const FIRST = set('i me my mine myself we us our ours ourselves');
export const THIRD = set('he she they him her them his hers their theirs himself herself themselves nobody everyone everybody someone somebody people');
/** People and pets a message may be about ("your son", "my dog"). */
export const KIN = set(`son sons daughter daughters child children kid kids baby boy girl mother father mom dad mum mama papa parent
  parents brother brothers sister sisters wife husband friend friends boss family grandmother grandfather grandma grandpa
  uncle aunt cousin partner boyfriend girlfriend dog cat neighbour neighbor colleague wife's husband's fiance fiancee`);

export const NEGATORS = set('not no never nobody nothing nowhere neither nor none hardly barely without');
export const INTENSIFIERS = set('very so really extremely totally truly incredibly absolutely deeply utterly completely such too most');
export const DOWNTONERS = set('slightly somewhat fairly rather little bit kinda sorta');

export const GREETINGS = set('hello hi hey howdy greetings morning evening afternoon');
export const THANKS = set('thank thanks grateful appreciate');
export const APOLOGIES = set('sorry apologize apologise apologies');
export const SURPRISE = set('wow whoa omg unbelievable suddenly unexpected unexpectedly surprise surprised surprising astonishing shocking');
export const QUESTION_START = set('who what when where why how which whose is are am was were do does did can could will would should shall have has may might');

/** Verbs of harm: with the listener and a future marker they make a threat. Matched by stem. */
export const HARM_STEMS = new Set([
  'hurt', 'kill', 'destroy', 'ruin', 'beat', 'punish', 'regret', 'burn', 'stab', 'shoot', 'crush', 'smash', 'strangl',
  'bleed', 'suffer', 'sorri', 'dead', 'die', 'end', 'finish', 'break', 'pay', 'murder', 'hunt', 'bash', 'slap', 'slaughter', 'slay', 'massacre', 'wreck',
].map((w) => (w.length > 5 ? stem(w) : w)));
/** Words of separation and loss: in an unhappy sentence they make it a loss (sadness, not anger). */
export const LOSS = set('lonely alone lost gone miss missing left leave leaving divorce divorced estranged dumped fired abandoned widowed orphan orphaned grief broke sick ill cancer anymore refuse refuses refused');
/** Verbs that precede "to rest" when it means burial ("laid him to rest"). */
export const LAY = set('lay laid laying lays put');
export const FUTURE = set('will shall gonna going if next tonight tomorrow soon someday unless wait or when might');

/** Affiliative acts: news that someone wants them is good, that someone refuses them bad. Stems. */
export const AFFILIATIVE_STEMS = new Set(['love', 'see', 'talk', 'speak', 'forgiv', 'forgav', 'visit', 'meet', 'call', 'come', 'reconcil', 'miss', 'hug', 'write', 'return', 'apolog']);

/** Mortality words (TMT's death primes), matched by stem so every inflection counts. */
export const DEATH_STEMS = new Set([
  'death', 'dead', 'die', 'dy', 'kill', 'killer', 'murder', 'funer', 'grave', 'corps', 'mortal', 'suicid', 'perish',
  'fatal', 'deadli', 'coffin', 'cemeteri', 'buri', 'burial', 'deceas', 'decea', 'mourn', 'griev', 'grief', 'widow', 'condol',
]);

/** Phrases that mean death without a death word (euphemisms): each counts as one mortality cue. */
export const DEATH_PHRASES: readonly string[][] = [
  ['passed', 'away'], ['pass', 'away'], ['passing', 'away'], ['passes', 'away'], ['passed', 'on'],
  ['rest', 'in', 'peace'], ['no', 'longer', 'with', 'us'], ['lost', 'his', 'life'], ['lost', 'her', 'life'], ['lost', 'their', 'lives'],
  ['lost', 'his', 'battle'], ['lost', 'her', 'battle'], ['kicked', 'the', 'bucket'], ['six', 'feet', 'under'], ['better', 'place'],
  ['dearly', 'departed'], ['the', 'departed'], ['gone', 'forever'], ['took', 'his', 'own', 'life'], ['took', 'her', 'own', 'life'],
];

/**
 * Idioms that use a death or harm word without meaning either: they are read as a whole, with their
 * own valence, and their words count neither as mortality cues nor as harm.
 */
export const IDIOMS: ReadonlyArray<{ words: string[]; valence: number }> = [
  { words: ['to', 'die', 'for'], valence: 0.7 }, { words: ['dying', 'to'], valence: 0.3 }, { words: ['dying', 'for'], valence: 0.3 },
  { words: ['killing', 'it'], valence: 0.7 }, { words: ['killed', 'it'], valence: 0.7 }, { words: ['kill', 'it'], valence: 0.6 },
  { words: ['nailed', 'it'], valence: 0.6 }, { words: ['bored', 'to', 'death'], valence: -0.3 }, { words: ['to', 'death'], valence: 0 },
  { words: ['dead', 'tired'], valence: -0.2 }, { words: ['dead', 'serious'], valence: 0 }, { words: ['dead', 'end'], valence: -0.2 },
  { words: ['drop', 'dead', 'gorgeous'], valence: 0.7 }, { words: ['dressed', 'to', 'kill'], valence: 0.5 },
  { words: ['kill', 'time'], valence: 0 }, { words: ['kill', 'some', 'time'], valence: 0 }, { words: ['killing', 'time'], valence: 0 }, { words: ['over', 'my', 'dead', 'body'], valence: -0.4 },
  { words: ['die', 'laughing'], valence: 0.5 }, { words: ['killing', 'me'], valence: -0.2 }, { words: ['dead', 'on'], valence: 0.2 },
  { words: ['deadline'], valence: -0.1 }, { words: ['dead', 'heat'], valence: 0 }, { words: ['break', 'a', 'leg'], valence: 0.5 },
  { words: ['knock', 'them', 'dead'], valence: 0.6 }, { words: ['can', 'not', 'wait'], valence: 0.5 }, { words: ['not', 'bad'], valence: 0.5 },
];

/** Menace without a harm verb ("watch your back"): each makes the sentence a threat. */
export const MENACE: readonly string[][] = [
  ['watch', 'your', 'back'], ['know', 'where', 'you', 'live'], ['one', 'eye', 'open'], ['or', 'else'], ['last', 'warning'],
  ['mark', 'my', 'words'], ['coming', 'for', 'you'], ['be', 'sorry'], ['you', 'are', 'dead'], ['count', 'your', 'days'],
  ['watch', 'yourself'], ['will', 'pay'], ['gonna', 'pay'], ['make', 'you', 'pay'], ['regret', 'this'], ['regret', 'it'],
];

/** Markers of the unexpected that take more than one word. */
export const SURPRISE_PHRASES: readonly string[][] = [
  ['guess', 'what'], ['out', 'of', 'nowhere'], ['no', 'way'], ['all', 'of', 'a', 'sudden'], ['can', 'not', 'believe'], ['who', 'would', 'have', 'thought'],
];

/** Blame of the listener's conduct (shame, not anger, is what it invites). */
export const BLAME: readonly string[][] = [
  ['your', 'fault'], ['because', 'of', 'you'], ['you', 'failed'], ['let', 'us', 'down'], ['let', 'me', 'down'], ['let', 'everyone', 'down'],
  ['shame', 'on', 'you'], ['ashamed', 'of', 'yourself'], ['should', 'be', 'ashamed'], ['you', 'ruined'], ['you', 'messed', 'up'],
  ['you', 'screwed', 'up'], ['you', 'lied'], ['disappointed', 'in', 'you'], ['you', 'embarrassed'], ['how', 'could', 'you'], ['blame', 'you'],
];

/** Phrases whose words mislead AFINN ("can't stand you", "nobody likes you"), with their own valence. */
export const PHRASES: ReadonlyArray<{ words: string[]; valence: number }> = [
  { words: ['can', 'not', 'stand'], valence: -0.7 }, { words: ['nobody', 'likes'], valence: -0.7 }, { words: ['no', 'one', 'likes'], valence: -0.7 },
  { words: ['nobody', 'cares'], valence: -0.6 }, { words: ['no', 'one', 'cares'], valence: -0.6 }, { words: ['get', 'lost'], valence: -0.6 },
  { words: ['shut', 'up'], valence: -0.6 }, { words: ['well', 'done'], valence: 0.7 }, { words: ['good', 'job'], valence: 0.7 },
  { words: ['proud', 'of', 'you'], valence: 0.8 }, { words: ['miss', 'you'], valence: 0.5 }, { words: ['waste', 'of', 'space'], valence: -0.8 },
];

/**
 * Groups of words that mean the same thing for goal matching ("son" and "boy"): each stem maps to
 * the group's first member. Goals and utterances are compared by these concepts.
 */
const SYNONYMS: readonly string[] = [
  'child son sons daughter daughters kid kids boy girl children offspring',
  'parent mother father mom dad mum mama papa parents',
  'partner wife husband spouse girlfriend boyfriend fiance fiancee',
  'reconcile reconciliation forgive forgave forgiven forgiveness apologize apologise apology reunite reunited peace',
  'estranged distant separated',
  'promote promotion promoted advance raise',
  'job work career employment hired',
  'money cash savings wealth rich',
  'friend friends friendship buddy pal companion',
  'home house apartment flat',
  'health healthy heal healed recover recovered well',
  'love romance loving beloved',
  'ship boat vessel',
  'sea ocean',
  'win victory won champion',
];

export const CONCEPT: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const line of SYNONYMS) {
    const words = line.split(' ');
    for (const w of words) m.set(stem(w), stem(words[0]));
  }
  return m;
})();

/** Function words ignored when matching goals. */
export const STOP = set(`the a an and or but if of to in on at by for with from into over under about as is are am was were be been
  being do does did have has had will would shall should can could may might must my your his her their our its me you him
  them us we they i he she it this that these those there here what which who whom whose when where why how not no never
  again just very so too also than then get got want wants wanted see said say says tell told go going gone come came`);

export { stem };
