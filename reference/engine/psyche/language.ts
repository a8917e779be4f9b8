// The reading of an utterance: what a message says and about whom, before it is appraised. The text
// is first made readable (slang.ts: shouting, stretched words, text-speak); wink-nlp (English lite
// model) splits sentences, expands contractions and marks negation scope; the word lists of
// lexicon.ts and phrases.ts and the emoji of emoji.ts then find, per sentence, whom it is about (the
// listener, the listener's people or things, the speaker, a third party or the world), its valence
// (AFINN-165 with negation, intensifiers and downtoners; idioms and euphemisms read whole, by stem),
// threats (harm to the listener in the future, veiled menace), blame of the listener's conduct,
// losses, death by meaning (euphemisms in, idioms out), surprise, questions (questions.ts: what they
// ask) and sarcasm (sarcasm.ts); and the concepts (stems through synonym groups) goals are matched with.
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import {
  AFFILIATIVE_STEMS, AFINN, APOLOGIES, BLAME, CONCEPT, DEATH_PHRASES, DEATH_STEMS, DOWNTONERS, EVENT_VALENCE, FIRST, FIRST_SUBJECT,
  FUTURE, GREETINGS, HARM_STEMS, IDIOMS, INTENSIFIERS, KIN, LAY, LOSS, MENACE, NEGATORS, PHRASES, QUESTION_START, SECOND,
  STOP, SURPRISE, SURPRISE_PHRASES, THANKS, THIRD, stem,
} from './lexicon.ts';
import {
  DEATH_EUPHEMISMS, EUPHEMISMS, INSULT_WORDS, LOSS_PHRASES, MISFORTUNE, MORE_BLAME, MORE_IDIOMS, MORE_SURPRISE, PRAISE_WORDS, VEILED_IF, VEILED_MENACE,
} from './phrases.ts';
import { EMOJI } from './emoji.ts';
import { normalise } from './slang.ts';
import { asksOf, FEELING_WORDS, NOT_FOCUS, type Asks } from './questions.ts';
import { sarcastic } from './sarcasm.ts';
import { figures } from './figurative.ts';
import { corrected } from './spelling.ts';
import { clamp01, clamp11, memoize } from './util.ts';

const WH = new Set(['why', 'how', 'what', 'who']);
/** Indefinite subjects: "nobody likes you" is about the listener, not news of someone. */
const INDEFINITE = new Set(['nobody', 'everyone', 'everybody', 'people', 'someone', 'somebody']);

// wink-nlp keeps every new word it meets in its lexicon cache, for the life of the instance: with
// free text that grows without end (about 0.1 kB a new word). The instance is renewed after
// RENEW_AFTER documents (a renewal takes some 100 ms), which bounds it.
const PIPE = ['sbd', 'negation'];
const RENEW_AFTER = 100_000;
let nlp = winkNLP(model, PIPE);
let documents = 0;
const its = nlp.its;
/** The first id wink-nlp gives a word its lexicon lacks (ids below are the model's own words). */
const unknownFrom = () => (nlp.readDoc('qxzqxzqxz').tokens().out(its.uniqueId) as number[])[0];
let unknown = unknownFrom();
function renewed() {
  if (++documents > RENEW_AFTER) {
    nlp = winkNLP(model, PIPE);
    unknown = unknownFrom();
    documents = 1;
  }
  return nlp;
}

export type Target = 'listener' | 'news' | 'speaker' | 'third' | 'world';
export type { Asks } from './questions.ts';

export interface Reading {
  /** The speaker's evaluation of the listener (praise +, insult −), [−1, 1]. */
  listener: number;
  /** News about the listener's own people and prospects ("your son…", "he wants to see you"), [−1, 1]. */
  news: number;
  /** The speaker's own feelings and fortunes ("I feel so sad"), [−1, 1]. */
  speaker: number;
  /** Third parties and the world at large, [−1, 1]. */
  world: number;
  /** Harm promised to the listener, [0, 1]. */
  threat: number;
  /** Blame of the listener's own conduct ("it's your fault"), [0, 1]. */
  blame: number;
  /** An irrevocable loss (a death, a rejection, loneliness), [0, 1]. */
  loss: number;
  /** Mortality cues: death words (every inflection) and euphemisms, idioms left out. */
  deathCues: number;
  /** Surprise markers ("wow", "suddenly"), [0, 1]. */
  surprise: number;
  /** The utterance ends in a question. */
  question: boolean;
  /** A question about the listener's feelings ("how are you?", "are you alright?"). */
  asksListener: boolean;
  /** What the last sentence asks, when it is a question: a time, a place, a price, whether there is something,
   *  leave to do something, a favour, an opinion, a reason, who; else other. */
  asks?: Asks;
  /** The last sentence asks for something to be done ("could you…", "please…"). */
  request: boolean;
  /** The thing a question or request is about ("breakfast", "room"), as written in lower case. */
  focus?: string;
  greeting: boolean;
  /** How the speaker greeted ("good morning", "hello"), when it did. */
  greetWord?: string;
  thanks: boolean;
  apology: boolean;
  /** Written mostly in capitals: shouted. */
  shouted: boolean;
  /** Praise said of a bad situation ("Oh great, the soup is cold again."): read as the complaint it is. */
  sarcasm: boolean;
  /** Someone dear named with a possessive ("your son", "my father"), as written. */
  topic?: string;
  /** Stems of the content words through the synonym groups, for goal matching. */
  concepts: ReadonlySet<string>;
}

/** Stems, remembered per word (the vocabulary of a session is small; the memo is bounded). */
const STEMS = new Map<string, string>();
function stemOf(w: string): string {
  let st = STEMS.get(w);
  if (st === undefined) {
    st = w.length > 2 ? stem(w) : w;
    if (STEMS.size >= 20_000) STEMS.clear();
    STEMS.set(w, st);
  }
  return st;
}

type PhraseKind = 'idiom' | 'menace' | 'veiledIf' | 'blame' | 'death' | 'surprise';
interface Phrase { words: readonly string[]; stems: readonly string[]; kind: PhraseKind; valence: number; loss: number; event: boolean; negates: boolean }

/**
 * Every multi-word entry of the lexicon, by the stem of its first word, longest first (idioms before
 * the rest). Phrases match by stem, so every inflection counts ("died laughing", "kicks the bucket").
 */
const PHRASE_INDEX: ReadonlyMap<string, Phrase[]> = (() => {
  const of = (words: readonly string[], kind: PhraseKind, valence = 0, loss = 0, event = false, negates = false): Phrase =>
    ({ words, stems: words.map((w) => stemOf(w)), kind, valence, loss, event, negates });
  const all: Phrase[] = [
    ...[...IDIOMS, ...PHRASES].map((p) => of(p.words, 'idiom', p.valence)),
    ...[...MORE_IDIOMS, ...EUPHEMISMS, ...LOSS_PHRASES].map((p) => of(p.words, 'idiom', p.valence, p.loss ?? 0, p.event ?? false, p.negates ?? false)),
    ...[...MENACE, ...VEILED_MENACE].map((words) => of(words, 'menace')),
    ...VEILED_IF.map((words) => of(words, 'veiledIf')),
    ...[...BLAME, ...MORE_BLAME].map((words) => of(words, 'blame')),
    ...[...DEATH_PHRASES, ...DEATH_EUPHEMISMS].map((words) => of(words, 'death')),
    ...[...SURPRISE_PHRASES, ...MORE_SURPRISE].map((words) => of(words, 'surprise')),
  ];
  const m = new Map<string, Phrase[]>();
  // Inflections of one phrase ("passed away", "passes away") are one entry once matched by stem.
  const seen = new Set<string>();
  for (const p of all) {
    const key = `${p.kind}:${p.stems.join(' ')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    m.set(p.stems[0], [...(m.get(p.stems[0]) ?? []), p]);
  }
  for (const list of m.values()) list.sort((a, b) => Number(a.kind !== 'idiom') - Number(b.kind !== 'idiom') || b.words.length - a.words.length);
  return m;
})();

/** Stance adverbs ("honestly, you're the rudest…"): how the speaker says it, not whether it is good. */
const STANCE = new Set(['honestly', 'frankly', 'seriously', 'truly', 'clearly', 'obviously', 'certainly', 'surely', 'literally']);

/** Valence of a word on AFINN's scale: slang insults and praise first, then AFINN, then events. */
function scoreOf(w: string): number | undefined {
  if (STANCE.has(w)) return undefined;
  const v = INSULT_WORDS[w] ?? PRAISE_WORDS[w] ?? AFINN[w];
  if (v !== undefined) return v;
  // "brilliantly", "welcoming": the word AFINN rates, without its ending.
  if (w.length > 5 && w.endsWith('ly')) return AFINN[w.slice(0, -2)];
  // "rudest", "laziest", "dumbest", "biggest": the adjective AFINN or the slang list rates.
  if (w.length > 5 && w.endsWith('est')) {
    const base = w.endsWith('iest') ? `${w.slice(0, -4)}y` : w.slice(0, -2);
    return INSULT_WORDS[base] ?? AFINN[base] ?? AFINN[w.slice(0, -3)] ?? (w[w.length - 4] === w[w.length - 5] ? AFINN[w.slice(0, -4)] : undefined);
  }
  return undefined;
}

/** VADER's weights of the words before and after "but" (Hutto & Gilbert 2014). */
const BEFORE_BUT = 0.5, AFTER_BUT = 1.5;
const EXCEPTING = new Set(['anyone', 'anybody', 'anything', 'nobody', 'nothing', 'everyone', 'everybody', 'everything', 'all', 'none', 'one', 'nowhere']);
/** Exclamations without a subject ("What a useless excuse for a cook!", "Such a dump"): said of what is before the speaker. */
const EXCLAIMING = new Set(['what', 'such']);

/** The clause-level words that make a negation govern what came before it ("the fire did not reach"). */
const CLAUSE_BREAK = new Set(['and', 'but', 'because', 'so', 'then', 'while', 'although']);
/** "Like" that compares ("feel like", "like a") or wants ("would like") rather than likes. */
const LIKE_BEFORE = new Set(['feel', 'feels', 'felt', 'look', 'looks', 'looked', 'sound', 'sounds', 'seem', 'seems', 'just', 'more', 'less', 'exactly', 'would', 'is', 'was', 'are', 'were', 'be']);
const comparing = (words: string[], i: number): boolean => LIKE_BEFORE.has(words[i - 1] ?? '') || words[i + 1] === 'a' || words[i + 1] === 'an';

const POSSESSIVE = new Set(['your', 'his', 'her', 'their', 'the', 'our', 'my']);
const EXPECTING = new Set(['expect', 'expected', 'expecting']);
const FAILING = new Set(['fail', 'fails', 'failed']);
const EVEN_OMISSION = 0.6;
const SUBJECTS = new Set(['i', 'we', 'you', 'he', 'she', 'they']);
/** Verbs of ending: negated, they assert what follows ("can't stop crying"). */
const CESSATION = new Set(['stop', 'stopped', 'quit', 'cease', 'help']);
/** Verbs that open an order given to the listener. */
const IMPERATIVE_OPENERS = new Set(['stop', 'get', 'go', 'leave', 'shut', 'quit', 'give', 'come', 'look', 'listen', 'stay', 'keep', 'watch', 'move', 'back', 'drop', 'cut']);
/** Imperatives that open a conditional threat ("tell anyone and your son gets hurt"). */
const IMPERATIVE = new Set(['tell', 'say', 'call', 'touch', 'cross', 'try', 'open', 'speak', 'talk', 'move', 'follow', 'squeal', 'snitch']);

/** Where phrase `p` ends when it starts at word i (-1 when it does not): commas inside it are skipped ("well, I never"). */
function phraseEnd(words: string[], i: number, p: Phrase): number {
  let k = i;
  for (let j = 0; j < p.words.length; j++, k++) {
    while (j > 0 && words[k] === ',') k++;
    if (k >= words.length || (words[k] !== p.words[j] && stemOf(words[k]) !== p.stems[j])) return -1;
  }
  return k;
}

interface Sentence { target: Target; valence: number; threat: number; blame: number; loss: number; question: boolean; feelings: boolean }

type Draft = { -readonly [K in keyof Reading]: Reading[K] } & { concepts: Set<string> };

/** Reads one sentence's tokens (normal forms, token types, wink's negation flags) into `r`. */
function sentence(words: string[], types: string[], negated: boolean[], r: Draft): Sentence {
  let sum = 0, events = 0, threat = 0, blame = 0, loss = 0, death = 0, harm = false, future = false, affiliation = 0, lossWord = false;
  let misfortune = false, menace = false, veiledIf = false, ceased = false, conditional = false, negatedAt = -1, freshFrom = -1;
  let subject: Target | undefined;
  let about: Target | undefined;
  let indefinite = false;
  let hasSecond = false;
  let negScope = false;
  // Event valence of the clause so far: a negation later in the clause governs it too ("the fire did not reach your inn").
  let clauseEvents = 0, clauseNegated = false;
  // Figures first (figurative.ts): hyperbole and idioms in violent or deathly words, deaths said
  // without the word, the listener's own fault. Words read figuratively are not read literally.
  const stems = words.map((w, i) => (types[i] === 'punctuation' ? w : stemOf(w)));
  const fig = figures(words, types, negated, stems);
  const consumed = fig.consumed;
  sum += fig.valence;
  death += fig.deaths;
  if (fig.blame) blame = 1;
  // Contrast (VADER's "but" rule): what comes after "but" weighs more than what came before.
  let contrast = 1;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (types[i] === 'punctuation') { if (w === ',' || w === ';') { negScope = false; ceased = false; clauseEvents = 0; clauseNegated = false; } continue; }
    if (CLAUSE_BREAK.has(w)) { clauseEvents = 0; clauseNegated = false; }
    // "Anyone but yourself", "nothing but trouble": "but" that excepts is no contrast.
    if (w === 'but' && i > 0) {
      if (!EXCEPTING.has(words[i - 1])) { sum *= BEFORE_BUT; events *= BEFORE_BUT; contrast = AFTER_BUT; }
      // "Nothing but trouble": what follows is all there is, not denied.
      else if (NEGATORS.has(words[i - 1])) negScope = false;
    }
    // "I barely slept and I feel awful": a new clause with its own subject is out of the negation's reach.
    if (CLAUSE_BREAK.has(w) && SUBJECTS.has(words[i + 1] ?? '')) { negScope = false; freshFrom = i + 1; }
    const neg = !ceased && ((negated[i] && negatedAt >= freshFrom) || negScope);
    const emoji = types[i] === 'emoji' ? EMOJI.get(w.replace(/\uFE0F/g, '')) : undefined;
    if (emoji) {
      sum += emoji.valence;
      if (emoji.about) about ??= emoji.about;
      if (emoji.menace) menace = true;
      if (emoji.surprise) r.surprise = Math.max(r.surprise, emoji.surprise);
      if (emoji.loss) loss = Math.max(loss, emoji.loss);
      if (emoji.thanks) r.thanks = true;
      continue;
    }
    const candidates = PHRASE_INDEX.get(stems[i]);
    if (candidates) {
      for (const p of candidates) {
        const end = phraseEnd(words, i, p);
        if (end < 0) continue;
        if (p.kind === 'menace') threat = 1;
        else if (p.kind === 'veiledIf') veiledIf = true;
        // Blame denied ("it isn't your fault", "nobody blames you") is reassurance.
        else if (p.kind === 'blame') { if (neg) sum += 0.5; else blame = 1; }
        else if (p.kind === 'death') death++;
        // A marker of surprise ("no way", "guess what") says nothing good or bad by its words.
        else if (p.kind === 'surprise') { r.surprise = 1; for (let j = i; j < end; j++) consumed[j] = 1; }
        else if (!consumed[i]) {
          // An idiom or a phrase is read whole: its words carry no valence, harm or death of their own.
          const v = p.negates && neg ? -1.2 * p.valence : p.valence;
          sum += v;
          if (p.event) events += v;
          if (p.loss) loss = Math.max(loss, p.loss);
          for (let j = i; j < end; j++) consumed[j] = 1;
        }
      }
    }
    if (w === 'to' && words[i + 1] === 'rest' && words.slice(Math.max(0, i - 3), i).some((x) => LAY.has(x))) death++;
    // "Let your son go", "let the inn go": a dismissal or a loss, said around its object.
    if ((w === 'let' || w === 'letting') && POSSESSIVE.has(words[i + 1]) && words.slice(i + 2, i + 6).includes('go')) {
      sum -= 0.6; events -= 0.6; loss = Math.max(loss, 0.6);
    }
    // "Can't stop crying", "couldn't help laughing": a negated end of something says it goes on.
    if ((negScope || negated[i]) && CESSATION.has(w)) { negScope = false; ceased = true; }
    // "I didn't expect to see you here", "didn't expect you to be so rude": what follows did happen
    // (expecting is no neg-raising verb, unlike "I don't think you're stupid").
    if ((negScope || negated[i]) && EXPECTING.has(w)) { negScope = false; ceased = true; }
    // "You never fail to make me smile": a failure to do denied is the doing.
    if ((negScope || negated[i]) && FAILING.has(w) && words[i + 1] === 'to') { negScope = false; ceased = true; consumed[i] = 1; }
    // "If you don't pay, I will burn…": the condition's negation ends where the main clause's subject starts.
    if (negScope && conditional && i > negatedAt + 1 && SUBJECTS.has(w)) { negScope = false; ceased = true; }
    if (w === 'if' || w === 'unless') conditional = true;
    if (NEGATORS.has(w)) {
      negScope = true;
      negatedAt = i;
      // "The fire did not reach your inn": the clause's misfortune did not happen.
      if (!clauseNegated && clauseEvents !== 0) {
        const shift = clauseEvents < 0 ? -1.6 * clauseEvents : -1.8 * clauseEvents;
        sum += shift;
        events += shift;
      }
      clauseNegated = true;
    }
    if (SECOND.has(w)) hasSecond = true;
    // An order ("get out of my sight", "leave my daughter alone") is said to the listener about itself.
    if (i === 0 && IMPERATIVE_OPENERS.has(w) && types[1] !== 'punctuation') subject = 'listener';
    if (subject === undefined && !consumed[i]) {
      if (SECOND.has(w)) subject = w === 'your' && KIN.has(words[i + 1]) ? 'news' : 'listener';
      else if (FIRST_SUBJECT.has(w) || w === 'my' || w === 'our') subject = 'speaker';
      else if (THIRD.has(w) || KIN.has(w)) { subject = 'third'; indefinite = INDEFINITE.has(w); }
    }
    if (r.topic === undefined && KIN.has(words[i + 1] ?? '') && (w === 'your' || w === 'my' || w === 'his' || w === 'her' || w === 'our')) {
      r.topic = `${w} ${words[i + 1]}`;
    }
    // "Morning", "evening" greet only as a greeting ("Good morning!", "Morning."), not as a time
    // ("…walks to school every morning").
    const daytime = w === 'morning' || w === 'afternoon' || w === 'evening';
    if (GREETINGS.has(w) && (daytime ? i === 0 || words[i - 1] === 'good' : true) && !r.greeting) { r.greeting = true; r.greetWord = daytime ? `good ${w}` : w; }
    // Thanks are said to someone: the listener.
    if (THANKS.has(w)) { r.thanks = true; about ??= 'listener'; }
    if (APOLOGIES.has(w)) r.apology = true;
    if (SURPRISE.has(w)) r.surprise = Math.max(r.surprise, 0.8);
    if (FUTURE.has(w)) future = true;
    if (consumed[i]) continue;
    if (LOSS.has(w)) lossWord = true;
    const st = stems[i];
    if (!STOP.has(w) && w.length > 2) r.concepts.add(CONCEPT.get(st) ?? st);
    if (DEATH_STEMS.has(st)) death++;
    if (HARM_STEMS.has(st)) { if (neg) sum += 0.3; else harm = true; }
    if (AFFILIATIVE_STEMS.has(st)) affiliation = neg ? -1 : Math.max(affiliation, 1);
    const mis = MISFORTUNE[w];
    if (mis !== undefined && mis < 0 && !neg) misfortune = true;
    // Surprise words ("wow") say something was unexpected, not whether it was good; "like a" compares.
    // An apology's "sorry" is courtesy, not a harm done to anyone.
    // A word rated as a judgement (AFINN, slang, their -ly and -est forms) is no event.
    const rated = mis === undefined ? scoreOf(w) : undefined;
    let v = SURPRISE.has(w) || APOLOGIES.has(w) || (w === 'like' && comparing(words, i)) ? 0 : (mis ?? rated ?? EVENT_VALENCE[w] ?? 0) / 5;
    if (v !== 0) {
      const b1 = i > 0 ? words[i - 1] : '', b2 = i > 1 ? words[i - 2] : '';
      if (INTENSIFIERS.has(b1) || INTENSIFIERS.has(b2)) v *= 1.5;
      else if (DOWNTONERS.has(b1) || DOWNTONERS.has(b2)) v *= 0.5;
      // Negation shifts rather than flips (Taboada et al. 2011): "not happy" is unhappy, "not stupid" only mildly kind.
      if (neg) v = v > 0 ? -0.8 * v : -0.6 * v;
      v *= contrast;
      sum += v;
      const event = mis !== undefined || rated === undefined;
      if (event) { events += v; if (!neg) clauseEvents += v; }
      // A good thing that did not happen ("did not get the promotion") is a loss: disappointment.
      if (neg && v < 0 && event) lossWord = true;
    }
  }
  // "You didn't even say hello", "you never even called": an omission reproached.
  const even = words.indexOf('even');
  if (even > 1 && negated[even] && hasSecond && subject === 'listener' && sum >= 0) sum -= EVEN_OMISSION;
  // "You made me miss my train", "thanks to you, I lost my job": the listener's fault when it turned out bad.
  if (fig.blameIfBad && sum < 0 && threat === 0) blame = 1;
  const last = words[words.length - 1];
  // Unpunctuated chat that opens like a question is one ("is the kitchen open"), but "don't …" is an order.
  // "What a lovely view" exclaims.
  const question = last === '?' || (QUESTION_START.has(words[0]) && !(words[0] === 'do' && words[1] === 'not') && !(words[0] === 'what' && (words[1] === 'a' || words[1] === 'an')) && last !== '.' && last !== '!');
  if (question) {
    r.asks = asksOf(words);
    r.request = r.asks === 'favour';
  } else {
    r.asks = undefined;
    r.request = words.includes('please') || (IMPERATIVE_OPENERS.has(words[0]) && sum >= 0);
  }
  r.focus = words.find((w, i) => types[i] === 'word' && w.length > 2 && !NOT_FOCUS.has(w) && !STOP.has(w) && !SECOND.has(w) && !FIRST.has(w));
  const feelings = question && hasSecond && words.some((w) => FEELING_WORDS.has(w));
  if (last === '!') sum *= 1.2;
  // "Not … at all" strengthens what the negation says.
  if (negScope && words.includes('all') && words[words.indexOf('all') - 1] === 'at') sum *= 1.5;
  // Harm to the listener with a future (or a condition) is a threat; "you will die" too. So is a
  // weapon sent with "you" or a time, a harm promised after an imperative ("tell anyone and your son
  // gets hurt"), and "it would be a shame if" something bad happened.
  if (harm && hasSecond && future) threat = 1;
  if (menace && (hasSecond || future)) threat = 1;
  if (harm && hasSecond && IMPERATIVE.has(words[0]) && words.includes('and')) threat = 1;
  if (veiledIf && (harm || misfortune || words.includes('something'))) threat = 1;
  // "Keep talking and see what happens": an order, then what will follow it.
  const see = words.indexOf('see');
  if (see > 1 && words[see + 1] === 'what' && (words[see + 2] === 'happens' || words[see + 2] === 'happen') && words.slice(0, see).includes('and') && !FIRST.has(words[0]) && words[0] !== 'let') threat = 1;
  // "Really?!", "you're moving?!": a question said with surprise.
  if (words.length > 1 && words[words.length - 1] === '!' && words[words.length - 2] === '?') r.surprise = Math.max(r.surprise, 0.8);
  const exclaimed = subject === undefined && EXCLAIMING.has(words[0]) && (words[1] === 'a' || words[1] === 'an') && sum < 0;
  let target: Target = subject ?? about ?? (hasSecond || exclaimed ? 'listener' : 'world');
  // The speaker's or a third party's stance toward the listener ("I hate you", "nobody likes you").
  if (hasSecond && target === 'speaker') target = 'listener';
  else if (hasSecond && target === 'third') target = indefinite ? 'listener' : 'news';
  // "You did not get the promotion", "the roof of your inn collapsed": what happened to the listener
  // or its things, not what the speaker thinks of them.
  if (target === 'listener' && subject !== 'speaker' && events !== 0 && Math.abs(events) >= Math.abs(sum - events) && blame === 0) target = 'news';
  let valence = Math.tanh(sum);
  // Blame is about harm done, whatever good words it names ("you spilled wine on my best coat").
  if (blame > 0) valence = Math.min(valence, -0.3);
  // "Your son wants to see you", "he never calls": someone's wish for (or refusal of) contact is news.
  if (affiliation !== 0 && (target === 'news' || subject === 'third')) valence = affiliation > 0 ? Math.max(valence, 0.4) : Math.min(valence, -0.6);
  // The speaker's own wish for (or refusal of) the listener's company: "I never want to see you again".
  else if (affiliation !== 0 && subject === 'speaker' && target === 'listener') {
    valence = affiliation > 0 ? Math.max(valence, 0.3) : Math.min(valence, -0.5);
  }
  if (affiliation !== 0 && valence < 0 && (target === 'news' || subject === 'third')) loss = Math.max(loss, 0.7);
  if (death > 0) { r.deathCues += death; if (threat === 0) { loss = 1; valence = Math.min(valence, -0.6); } }
  if (lossWord && valence < 0) loss = Math.max(loss, 0.6);
  // The speaker's own pain invites sympathy, a quiet sadness, whatever its words; bad news of the
  // listener's own people or things is a loss to it (sadness, or fear), not an offence.
  if (target === 'speaker' && valence < 0) loss = Math.max(loss, 0.5);
  if (target === 'news' && valence < 0 && threat === 0) loss = Math.max(loss, 0.6);
  // Another's misfortune ("the neighbour's barn burned down") is felt as sorrow for them (OCC's
  // sorry-for), not as dislike.
  if ((target === 'world' || target === 'third') && valence < 0 && events < 0 && Math.abs(events) >= Math.abs(sum - events)) loss = Math.max(loss, 0.5);
  // A threat is about what may come (fear), blame about what the listener did (guilt): neither is a loss.
  if (threat > 0 || blame > 0) loss = 0;
  // A yes/no question ("are you happy?") asserts nothing; a negative wh-question ("why are you so
  // useless?") is a rhetorical jab and keeps most of its force.
  if (question) valence *= QUESTION_START.has(words[0]) && !WH.has(words[0]) ? 0.2 : valence < 0 ? 0.7 : 0.3;
  return { target, valence, threat, blame, loss, question, feelings };
}

/** The weights of a long message's first and last sentences (the ones between in proportion). */
const FIRST_WEIGHT = 0.6, LAST_WEIGHT = 1.4;
/** Sentence openers that turn a message. */
const TURNS = new Set(['but', 'however', 'yet', 'sadly', 'unfortunately', 'still', 'then']);
const BUCKETS = ['listener', 'news', 'speaker', 'world'] as const;
/** How much reproach of the listener makes the speaker's own bad experience a grievance. */
const GRIEVANCE = 0.3;

/** How much louder a shouted message is, and how hostile a shouted message that says nothing good. */
const SHOUT = 1.3;
const SHOUTED_AT = 0.35;

const EMPTY = (): Draft => ({
  listener: 0, news: 0, speaker: 0, world: 0, threat: 0, blame: 0, loss: 0, deathCues: 0, surprise: 0,
  question: false, asksListener: false, request: false, greeting: false, thanks: false, apology: false, shouted: false, sarcasm: false, concepts: new Set(),
});

/** The most of a text a persona reads (about 350 words; the longest labelled message has 338 characters). */
export const READ_CHARS = 2_000;
/** A longer run without spaces is read in pieces of this many characters: no word is longer. */
const LONGEST_WORD = 40;

/**
 * What a persona reads of a text: its first READ_CHARS characters, a run of one punctuation mark or
 * symbol cut to three ("!!!!!!" reads as "!!!"), and runs without spaces cut into words of at most
 * LONGEST_WORD characters. The stemmer's and wink-nlp's patterns take time in the square of a
 * word's length, and the work per sentence adds up: one chat of 10,000 characters held the event
 * loop for up to 620 ms, an event description of 20,000 characters for 2.5 s (a 1 MB one would have
 * held it for hours). Idempotent, so a text already made readable comes back as it was.
 */
export function readable(text: string): string {
  // The last long text, compared (no hashing): an event's text is read by every persona of its world.
  if (text.length > READ_CHARS && text === lastText) return lastReadable;
  const out = readableOf(text);
  if (text.length > READ_CHARS) [lastText, lastReadable] = [text, out];
  return out;
}
let lastText = '';
let lastReadable = '';

function readableOf(text: string): string {
  // Cut twice: first generously, so that the patterns below pass over little more than is read (a
  // run cut down may leave room for more of the text), then to READ_CHARS.
  const collapsed = cut(text, 4 * READ_CHARS).replace(/([^\p{L}\p{N}\s])\1{3,}/gu, '$1$1$1');
  // The pattern of long runs tries every position of a word, so it runs only when a word is long.
  const t = hasLongRun(collapsed) ? collapsed.replace(LONG_RUN, (run) => Array.from(run.matchAll(WORD_PIECE), (m) => m[0]).join(' ')) : collapsed;
  return cut(t, READ_CHARS);
}

/** Whether some run between ASCII spaces is longer than LONGEST_WORD (\s breaks runs at least there, so none is found that \S would not). */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) run = 0;
    else if (++run > LONGEST_WORD) return true;
  }
  return false;
}
const LONG_RUN = new RegExp(`\\S{${LONGEST_WORD + 1},}`, 'gu');
const WORD_PIECE = new RegExp(`\\S{1,${LONGEST_WORD}}`, 'gu');
/** The first `n` characters, without half of a surrogate pair at the cut. */
const cut = (s: string, n: number) => (s.length <= n ? s : s.slice(0, /[\ud800-\udbff]/.test(s[n - 1]) ? n - 1 : n));

/**
 * Reads an utterance (or an event's description), as much of it as is readable. Pure: the same text
 * gives the same reading, so the last readings are kept (frozen; nobody changes a reading or its
 * concepts), by their readable text: a key no longer than READ_CHARS.
 */
const readBounded = memoize((text: string): Reading => Object.freeze(readText(text)));
export const read = (text: string): Reading => readBounded(readable(text));

function readText(text: string): Reading {
  const r = EMPTY();
  if (!text) return r;
  const plain = normalise(text);
  r.shouted = plain.shouted;
  const doc = renewed().readDoc(plain.text);
  // One pass over the whole document's tokens, then the sentences as token spans.
  const toks = doc.tokens();
  const words = toks.out(its.normal) as string[];
  const types = toks.out(its.type) as string[];
  const negated = toks.out(its.negationFlag) as unknown as boolean[];
  // A word the lexicon does not know may be a rated word misspelt ("lovly", "beleive"). The lexicon
  // knows words as written, so a capital ("Stop") is unknown too: only words in lower case are tried.
  const ids = toks.out(its.uniqueId) as number[];
  for (let i = 0; i < words.length; i++) {
    if (ids[i] >= unknown && types[i] === 'word' && toks.itemAt(i).out() === words[i]) words[i] = corrected(words[i]) ?? words[i];
  }
  let negativeSeen = false;
  const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>;
  let lossElsewhere = 0;
  for (let k = 0; k < spans.length; k++) {
    const [from, to] = spans[k];
    if (to < from) continue;
    // A long message is read by its sentences, the last weighing most (the point comes at the end),
    // and a sentence that turns ("But…", "Sadly…") weighs the ones before it down (VADER's "but").
    if (TURNS.has(words[from]) && k > 0) for (const b of BUCKETS) r[b] *= BEFORE_BUT;
    const weight = spans.length >= 2 ? FIRST_WEIGHT + (LAST_WEIGHT - FIRST_WEIGHT) * (k / (spans.length - 1)) : 1;
    const out = sentence(words.slice(from, to + 1), types.slice(from, to + 1), negated.slice(from, to + 1), r);
    out.valence *= weight;
    if (out.valence < 0 || out.blame > 0) negativeSeen = true;
    // Shouting what is not good news or praise is shouting at the listener ("DON'T TOUCH MY STUFF").
    if (plain.shouted && out.threat === 0 && !out.question && (out.valence === 0 || (out.valence < 0 && out.target === 'listener'))) {
      out.target = 'listener';
      out.valence = Math.min(out.valence, -SHOUTED_AT);
    }
    const bucket = out.target === 'third' ? 'world' : out.target;
    // A shouted message says it louder.
    r[bucket] = clamp11(r[bucket] + out.valence * (plain.shouted ? SHOUT : 1));
    r.threat = Math.max(r.threat, out.threat);
    r.blame = Math.max(r.blame, out.blame);
    r.loss = Math.max(r.loss, out.loss);
    if (bucket !== 'speaker') lossElsewhere = Math.max(lossElsewhere, out.loss);
    r.question = out.question;
    if (out.feelings && out.target === 'listener') r.asksListener = true;
  }
  // A grievance: the speaker's bad experience told in a message that reproaches the listener ("the
  // worst night of my life … you shrugged") is the listener's doing (anger), not a sorrow to share.
  if (spans.length >= 2 && r.listener <= -GRIEVANCE && r.speaker < 0 && r.deathCues === 0 && r.threat === 0) {
    r.listener = clamp11(r.listener + r.speaker);
    r.speaker = 0;
    r.loss = lossElsewhere;
  }
  r.surprise = clamp01(r.surprise);
  if (sarcastic(words, types, negativeSeen)) {
    // Sarcasm as contrast (Riloff et al. 2013): a positive opener over a negative situation is a
    // complaint to the listener; its praise counts against it.
    r.sarcasm = true;
    r.listener = clamp11(Math.min(r.listener, 0) - Math.max(0.5, Math.max(0, r.listener) + Math.max(0, r.world) + Math.max(0, r.speaker)));
    r.world = Math.min(r.world, 0);
    r.speaker = Math.min(r.speaker, 0);
    r.surprise = 0;
    r.thanks = false;
  }
  return r;
}

/** Goal concepts of a text (memoised by the caller per goal content). */
export function concepts(text: string): ReadonlySet<string> {
  return read(text).concepts;
}
