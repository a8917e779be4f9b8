// What a question asks and what it is about, so the reply can answer it (text.ts): a time, a
// place, a price, whether there is something, leave to do something, a favour, an opinion, a
// reason, who. Read from the question's first words (wink-nlp normal forms, contractions expanded).
import { QUESTION_START } from './lexicon.ts';

export type Asks = 'time' | 'place' | 'price' | 'have' | 'may' | 'favour' | 'opinion' | 'reason' | 'who' | 'other';

/** Words a question or a request is not about. */
export const NOT_FOCUS = new Set([...QUESTION_START, 'you', 'i', 'we', 'me', 'it', 'there', 'the', 'a', 'an', 'your', 'my', 'our', 'this', 'that', 'time',
  'much', 'many', 'far', 'long', 'please', 'kindly', 'any', 'some', 'tell', 'know', 'think', 'recommend', 'like', 'get', 'buy', 'find', 'served', 'open']);
/** Feelings a question about the listener asks after ("are you alright?"). */
export const FEELING_WORDS = new Set(['feel', 'feeling', 'feelings', 'ok', 'okay', 'alright', 'well', 'fine', 'happy', 'sad', 'mood', 'doing', 'holding', 'been', 'going']);

/** What a question asks for, from its first words. */
export function asksOf(words: string[]): Asks {
  const [a, b = '', c = ''] = words;
  if (a === 'when' || (a === 'what' && b === 'time') || (a === 'how' && b === 'long')) return 'time';
  if (a === 'where' || (a === 'how' && b === 'far') || (a === 'which' && (b === 'way' || b === 'road'))) return 'place';
  if (a === 'how' && (b === 'much' || b === 'many')) return 'price';
  if (words.includes('recommend') || words.includes('suggest') || a === 'which' || (b === 'you' && (c === 'think' || c === 'like' || c === 'prefer')) || a === 'should') return 'opinion';
  if (((a === 'do' || a === 'does') && b === 'you' && c === 'have') || ((a === 'is' || a === 'are') && b === 'there')) return 'have';
  if ((a === 'can' || a === 'could' || a === 'may') && (b === 'i' || b === 'we')) return 'may';
  if ((a === 'can' || a === 'could' || a === 'would' || a === 'will') && b === 'you') return 'favour';
  if (a === 'why') return 'reason';
  if (a === 'who') return 'who';
  return 'other';
}
