// What an answer would cost once parsed. `--max-body-mb` caps its bytes, but bytes are not memory:
// 1 MB of `[{},{},…]` is 333,000 objects, about 21 MB of heap once parsed (8 MB of it, 171 MB), and
// the scenario threads' small nursery spends most of a run collecting them (1 MB of them to every
// request: 340 MB and 44 CPU-s). So an answer is weighed before it is parsed, by a scan of its text
// that counts what JSON.parse would build, each at about what V8 spends on it (measured with
// `node --expose-gc`, heap used after JSON.parse of 8 MB of each shape: docs/benchmarks.md, "Memory"):
// an answer too heavy is not parsed, as one over the cap is not read.
import { inMb } from '../data/body-cap.ts';

/** Bytes of heap per object or array. */
const CONTAINER = 64;
/** Per element of an array. */
const ELEMENT = 12;
/** Per member of an object; once an object has more than SMALL_OBJECT members V8 keeps it as a dictionary, and each member costs more, its name too. */
const MEMBER = 16;
const DICTIONARY_MEMBER = 128;
const SMALL_OBJECT = 64;
/** Per string (plus its length), and per number that is not a small integer (a heap number). */
const STRING = 16;
const HEAP_NUMBER = 16;

/**
 * The cap on an answer's weight, as a multiple of the cap on its bytes: one. `--max-body-mb` bounds
 * both what is read and what its parse may take; an answer of the service's own shapes (worlds,
 * personas: named members, short strings) weighs 2.5 to 3.2 times its bytes, so the default 8 MB
 * reads pages of up to about 2.5 MB of them. The reference's fullest page (100 worlds) is 83 KB,
 * and its largest answer, its document, 0.26 MB (weighing 0.8 MB). With 4 MB of such answers to
 * every request, parsed, the command's tree peaked at 289 MB; with 6.9 MB, 318 MB.
 */
export const WEIGHT_PER_BYTE_CAP = 1;

/** The heap, in bytes, that JSON.parse would take for this text (an estimate within about 2×, never far under). */
export function answerWeight(text: string | Uint8Array): number {
  // Scanned as UTF-8 bytes: JSON's structure is ASCII, and an answer is weighed before it is decoded.
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  // The member count of each open object, or -1 for an open array.
  const open: number[] = [];
  let weight = 0;
  let expectName = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    const top = open.length ? open[open.length - 1] : -2;
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < n) {
        const d = bytes[j];
        if (d === 0x5c /* \ */) j += 2;
        else if (d === 0x22) break;
        else j++;
      }
      const length = j - i - 1;
      if (expectName && top >= 0) {
        const members = (open[open.length - 1] = top + 1);
        weight += members > SMALL_OBJECT ? DICTIONARY_MEMBER + length : MEMBER;
        expectName = false;
      } else {
        weight += STRING + length + (top === -1 ? ELEMENT : 0);
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      weight += CONTAINER + (top === -1 ? ELEMENT : 0);
      open.push(c === 0x7b ? 0 : -1);
      expectName = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      open.pop();
      expectName = false;
    } else if (c === 0x2c /* , */) {
      expectName = top >= 0;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39) || c === 0x74 /* t */ || c === 0x66 /* f */ || c === 0x6e /* n */) {
      // A number or a literal: to its end.
      let j = i;
      let fraction = false;
      while (j < n) {
        const d = bytes[j];
        if (d === 0x2c || d === 0x5d || d === 0x7d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
        if (d === 0x2e /* . */ || d === 0x65 /* e */ || d === 0x45 /* E */) fraction = true;
        j++;
      }
      weight += (top === -1 ? ELEMENT : 0) + (fraction && c !== 0x74 && c !== 0x66 && c !== 0x6e ? HEAP_NUMBER : 0);
      i = j - 1;
    }
  }
  return weight;
}

/** The weight an answer may have under this cap on its bytes. */
export const weightCap = (maxBodyBytes: number): number => maxBodyBytes * WEIGHT_PER_BYTE_CAP;

/**
 * Why this answer is not parsed, or undefined when it may be. Texts too short to reach the cap are not
 * scanned (the densest JSON, `[[[[…`, weighs under 80 bytes a character).
 */
export function tooHeavy(text: string | Uint8Array, maxBodyBytes: number): string | undefined {
  const cap = weightCap(maxBodyBytes);
  if (text.length * 80 <= cap) return undefined;
  const weight = answerWeight(text);
  if (weight <= cap) return undefined;
  return `the answer (${inMb(typeof text === 'string' ? Buffer.byteLength(text) : text.length)}) would take about ${inMb(weight)} of memory once parsed, over the ${inMb(cap)} --max-body-mb allows: it was not parsed (a larger --max-body-mb reads it)`;
}

/** An answer left unparsed for its weight: a transport failure of the target, as one over the cap is. */
export class AnswerTooHeavy extends Error {
  readonly code = 'ANSWER_TOO_HEAVY';
}

/** JSON.parse of an answer that is not too heavy (throws AnswerTooHeavy, or JSON.parse's SyntaxError). */
export function parseAnswer(text: string, maxBodyBytes: number): unknown {
  const heavy = tooHeavy(text, maxBodyBytes);
  if (heavy) throw new AnswerTooHeavy(heavy);
  return JSON.parse(text);
}

