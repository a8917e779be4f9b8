// Word lists of what AFINN misses or misreads (docs/engine.md, "Reading an utterance"): common
// English idioms and euphemisms read by meaning, veiled and future menace, the listener's own
// conduct (blame, the persona's fault), losses said in phrases, surprise markers, slang insults and
// praise words, and misfortunes (events that happen to someone: news, not a judgement of the
// listener). Closed lists of common usage, matched on wink-nlp's normal forms by stem (so every
// inflection counts: "died laughing", "kicks the bucket").

/**
 * A phrase read whole: its own valence, and what else it says. Its words count for nothing else.
 * `negates`: a negation before it turns it over ("nobody does it better than you", "you didn't even
 * say thank you", "I wouldn't trust you").
 */
export interface PhraseEntry { words: string[]; valence: number; loss?: number; event?: boolean; negates?: boolean }
const ph = (text: string, valence: number, extra: Omit<PhraseEntry, 'words' | 'valence'> = {}): PhraseEntry => ({ words: text.split(' '), valence, ...extra });

/** Idioms by meaning. A death or harm word inside one is neither (wink expands "can't" to "can not"). */
export const MORE_IDIOMS: readonly PhraseEntry[] = [
  ph('died laughing', 0.6), ph('die laughing', 0.6), ph('hit the nail on the head', 0.6), ph('sight for sore eyes', 0.7),
  ph('extra mile', 0.7), ph('over the moon', 0.8), ph('on cloud nine', 0.8), ph('knocked my socks off', 0.8), ph('knock my socks off', 0.8),
  ph("bee 's knees", 0.7), ph('bees knees', 0.7), ph('hit the spot', 0.6), ph('cracked me up', 0.6), ph('crack me up', 0.6),
  ph('heart of gold', 0.8), ph('piece of cake', 0.2), ph('blessing in disguise', 0.4), ph('made my day', 0.8), ph('make my day', 0.5),
  ph('pulling my leg', 0), ph('pull my leg', 0), ph('raining cats and dogs', -0.1), ph('in the same boat', 0), ph('call it a day', 0),
  ph('murder a', 0), ph('kill for a', 0), ph('once in a blue moon', 0), ph('spill the beans', 0), ph('break the ice', 0.1),
  ph('under the weather', -0.5, { loss: 0.5 }), ph('heart sank', -0.7, { loss: 0.6 }), ph('down in the dumps', -0.7, { loss: 0.6 }),
  ph('end of my rope', -0.7, { loss: 0.5 }), ph('end of my tether', -0.7, { loss: 0.5 }), ph('falling apart', -0.6, { loss: 0.5 }),
  ph('pain in the neck', -0.7), ph('up the wall', -0.6), ph('last straw', -0.6), ph('slap in the face', -0.7), ph('get on my nerves', -0.6),
  ph('gets on my nerves', -0.6), ph('drive me crazy', -0.5), ph('driving me crazy', -0.5), ph('sick and tired', -0.6),
  ph('feel like', 0), ph('feels like', 0), ph('felt like', 0), ph('looks like', 0), ph('look like', 0), ph('sounds like', 0), ph('just like', 0),
  ph('best friend', 0), ph('good friend', 0), ph('so called', 0), ph('feel down', -0.6, { loss: 0.5 }), ph('felt down', -0.6, { loss: 0.5 }),
  ph('feel low', -0.6, { loss: 0.5 }), ph('felt low', -0.6, { loss: 0.5 }), ph('out of my sight', -0.8), ph('get out of my', -0.7), ph('leave me alone', -0.6),
  ph('go away', -0.5), ph('go to hell', -0.9), ph('piss off', -0.8), ph('back off', -0.6), ph('the right thing', 0.4),
  ph('expected better', -0.6), ph('expected much better', -0.7), ph('expected more', -0.5), ph('deserve better', -0.5), ph('could be better', -0.3),
  ph('no friend of', -0.6), ph('so mean', -0.6), ph('mean to me', -0.6), ph('make me sick', -0.8), ph('makes me sick', -0.8), ph('believe a word', -0.6),
  ph('stole the show', 0.7), ph('brought the house down', 0.7), ph('blew the roof off', 0.7), ph('out of the park', 0.7), ph('blew me away', 0.7),
  ph('blew my mind', 0.7), ph('can stand', 0.4, { negates: true }),
  ph('thank you enough', 0.9), ph('better than you', -0.5, { negates: true }), ph('thank you', 0.5, { negates: true }), ph('trust you', 0.4, { negates: true }),
  ph('believe you', 0.3, { negates: true }), ph('my friend', 0.3, { negates: true }), ph('deserve this', 0.2, { negates: true }), ph('not want you', -0.6), ph('for nothing', -0.3),
];

/** Euphemisms read by meaning: deaths (also mortality cues: DEATH_EUPHEMISMS), dismissals, veiled insults. */
export const EUPHEMISMS: readonly PhraseEntry[] = [
  ph('let go', -0.6, { loss: 0.6, event: true }), ph('laid off', -0.7, { loss: 0.6, event: true }), ph('between jobs', -0.4, { loss: 0.4, event: true }),
  ph('not doing well', -0.6, { event: true }), ph('not doing so well', -0.6, { event: true }), ph('less than ideal', -0.5, { event: true }),
  ph('wrong side of the law', -0.7, { event: true }), ph('in trouble with the law', -0.7, { event: true }), ph('behind your back', -0.7, { loss: 0.6, event: true }),
  ph('seeing someone else', -0.6, { loss: 0.6, event: true }), ph('given up the ghost', -0.6, { loss: 0.5, event: true }),
  ph('sharpest knife', -0.6), ph('sharpest tool', -0.6), ph('brightest bulb', -0.6), ph('sandwich short of a picnic', -0.6),
  ph('acquired taste', -0.5), ph('economical with the truth', -0.7), ph('people person', -0.4), ph('seen better days', -0.4, { event: true }),
];

/** Death by euphemism (each one mortality cue); matched by stem, so "departs" and "met" forms count too. */
export const DEATH_EUPHEMISMS: readonly string[][] = [
  ['departed', 'this', 'life'], ['meet', 'his', 'maker'], ['meet', 'her', 'maker'], ['met', 'his', 'maker'], ['met', 'her', 'maker'],
   ['put', 'to', 'sleep'], ['breathed', 'his', 'last'], ['breathed', 'her', 'last'], ['lost', 'the', 'battle'],
  ['bit', 'the', 'dust'], ['in', 'a', 'better', 'place'], ['gone', 'to', 'heaven'], ['no', 'longer', 'alive'],
];

/** Veiled and future menace: a threat without a harm verb. */
export const VEILED_MENACE: readonly string[][] = [
  ['i', 'know', 'where', 'your'], ['i', 'know', 'where', 'you'], ['we', 'know', 'where'], ['i', 'know', 'which', 'way'], ['i', 'know', 'when', 'you'],
  ['if', 'something', 'happened', 'to'], ['something', 'happens', 'to', 'your'], ['for', 'your', 'own', 'good'], ['you', 'would', 'better'],
  ['you', 'had', 'better'], ['not', 'be', 'so', 'polite'], ['not', 'be', 'so', 'nice'], ['not', 'be', 'so', 'friendly'], ['waiting', 'for', 'you', 'outside'],
  ['you', 'have', 'until'], ['life', 'hell'], ['life', 'a', 'living', 'hell'], ['accidents', 'happen', 'to'], ['see', 'the', 'morning'], ['not', 'be', 'just'],
  ['am', 'watching', 'you'], ['you', 'are', 'next'], ['your', 'days', 'are', 'numbered'], ['keep', 'your', 'mouth', 'shut'], ['coming', 'for', 'your'],
  ['if', 'you', 'know', 'what', 'is', 'good'], ['hunt', 'you', 'down'], ['bad', 'might', 'happen', 'to'], ['bad', 'will', 'happen', 'to'],
  ['bad', 'could', 'happen', 'to'], ['something', 'might', 'happen', 'to'], ['something', 'could', 'happen', 'to'],
];

/** "It would be a shame if…", "a pity if…": menace when the sentence names a harm or a misfortune. */
export const VEILED_IF: readonly string[][] = [['shame', 'if'], ['pity', 'if']];

/** The listener's own conduct that harmed someone: the persona's fault (guilt, shame). */
export const MORE_BLAME: readonly string[][] = [
  ['your', 'mistake'], ['your', 'doing'], ['you', 'broke', 'your'], ['you', 'broke', 'my'], ['you', 'broke', 'the'], ['you', 'were', 'supposed', 'to'],
  ['you', 'promised'], ['you', 'forgot'], ['you', 'ignored'], ['you', 'spilled'], ['you', 'spilt'], ['you', 'burned'], ['you', 'burnt'], ['you', 'ruined'],
  ['you', 'missed', 'my'], ['you', 'gave', 'away'], ['you', 'betrayed'], ['you', 'abandoned'], ['you', 'cheated'], ['you', 'stole'], ['you', 'neglected'],
  ['you', 'lost', 'my'], ['you', 'hurt', 'my'], ['you', 'let', 'my'], ['you', 'never', 'paid'], ['you', 'never', 'came'], ['you', 'never', 'called'],
  ['you', 'never', 'showed'], ['you', 'owe', 'me'], ['you', 'told', 'everyone'], ['you', 'humiliated'], ['you', 'embarrassed'], ['you', 'wasted'],
  ['you', 'destroyed'], ['you', 'did', 'this'], ['you', 'caused'], ['you', 'should', 'have', 'listened'], ['you', 'should', 'have', 'told'],
  ['you', 'should', 'have', 'asked'], ['you', 'should', 'have', 'called'], ['you', 'should', 'have', 'known'], ['you', 'should', 'have', 'warned'],
  ['you', 'should', 'have', 'been', 'there'],
];

/** Losses said in phrases (sadness, not anger). */
export const LOSS_PHRASES: readonly PhraseEntry[] = [
  ph('ran away', -0.5, { loss: 0.6 }), ph('run away', -0.4, { loss: 0.5 }), ph('can not find', -0.4, { loss: 0.5 }), ph('stopped talking', -0.6, { loss: 0.6 }),
  ph('going wrong', -0.6, { loss: 0.5 }), ph('went wrong', -0.6, { loss: 0.5 }), ph('breaks my heart', -0.8, { loss: 0.7 }), ph('broke my heart', -0.8, { loss: 0.7 }),
  ph('heart is broken', -0.8, { loss: 0.7 }), ph('had to sell', -0.5, { loss: 0.6 }), ph('lost the baby', -0.9, { loss: 1 }), ph('no one came', -0.6, { loss: 0.6 }),
  ph('nobody came', -0.6, { loss: 0.6 }), ph('never get better', -0.7, { loss: 0.5 }), ph('would have been', -0.4, { loss: 0.5 }),
];

/** More markers of the unexpected. */
export const MORE_SURPRISE: readonly string[][] = [
  ['out', 'of', 'the', 'blue'], ['well', 'i', 'never'], ['believe', 'it', 'or', 'not'], ['holy', 'cow'], ['holy', 'moly'], ['holy', 'smokes'],
  ['wait', 'what'], ['did', 'you', 'hear'], ['never', 'believe'], ['would', 'you', 'believe'], ['just', 'wow'], ['what', 'a', 'surprise'],
  ['oh', 'my', 'god'], ['oh', 'my', 'gosh'], ['in', 'secret'], ['guess', 'who'],
];

/** Slang and insults AFINN lacks or underrates (said of the listener: hostility). */
export const INSULT_WORDS: Readonly<Record<string, number>> = {
  crook: -3, creep: -3, snake: -3, muppet: -3, clown: -3, trash: -4, garbage: -3, slob: -3, cringe: -3, lame: -3, dump: -2, pig: -3, rat: -3,
  weasel: -3, parasite: -3, leech: -3, nuisance: -2, pest: -2, hypocrite: -3, psycho: -3, weirdo: -2, halfwit: -3, dimwit: -3, nitwit: -3, twit: -3,
  prat: -3, git: -3, imbecile: -4, cretin: -4, buffoon: -3, oaf: -3, dunce: -3, lazy: -2.5, rude: -3, stinking: -3, greedy: -3, clueless: -3,
  pathetic: -3, loser: -3.5, liar: -3.5, fraud: -4, jerk: -3.5, moron: -4, dumb: -3, ugly: -3, useless: -3, worthless: -3, disgrace: -3, joke: -2,
  suck: -3, sucks: -3, empty: -2.5, numb: -2.5, crushed: -3, devastated: -3, hopeless: -3, cheat: -3, coward: -3, lying: -2.5, filthy: -3, greasy: -2, overcharge: -2,
};

/** Praise words AFINN lacks (said of the listener: warmth). */
export const PRAISE_WORDS: Readonly<Record<string, number>> = {
  wise: 2, talented: 3, angel: 3, legend: 3, star: 2, genius: 3, gem: 3, welcoming: 2, cosy: 2, cozy: 2, hilarious: 3, delicious: 3, brilliantly: 4,
};

/**
 * Misfortunes: what happens to someone or something (the listener's inn, their daughter), valence
 * on AFINN's scale. Said of the listener's people or things, they are news, not a judgement of the
 * listener; with "you" as the doer they are its fault (MORE_BLAME).
 */
export const MISFORTUNE: Readonly<Record<string, number>> = {
  collapsed: -3, collapse: -3, fire: -3, caught: 0, burned: -3, burnt: -3, flooded: -3, flood: -3, ruined: -3, stolen: -3, stole: -3, robbed: -3,
  crashed: -3, sank: -3, sunk: -3, accident: -3, injured: -3, hurt: -3, fell: -2, broke: -2, fever: -3, worried: -2, ill: -3, sick: -3,
  hospital: -2, arrested: -3, expelled: -3, failed: -3, fail: -3, refused: -2, cancelled: -2, canceled: -2, closing: -2, closed: -2, lost: -3,
  missing: -3, fired: -3, bankrupt: -3, evicted: -3, damaged: -3, destroyed: -3, wrecked: -3, diagnosed: -2, surgery: -2, emergency: -2,
  rejected: -2, dumped: -2, storm: -1, died: -4, dead: -4, killed: -4, drowned: -4, gone: -2,
};
