// The values that break servers, as fast-check arbitraries: extreme and boundary numbers, number
// literals JSON.stringify cannot write (1e400, -0, 30- and 400-digit integers), strings that are names of
// built-in object members, unicode that is hard to store, huge strings, and nesting thousands of
// levels deep. A value that must reach the wire as written (a literal or a deep nesting) is a RAW
// token, spliced into the body text by bodyText(): generated bodies stay small plain data that
// fast-check can shrink (a depth shrinks as an integer).
import fc from 'fast-check';
import { jsonType, setMember } from './schema.ts';

/** Names of members every plain object has: used as a key or a name, they reach Object.prototype. */
export const BUILTIN_NAMES = [
  '__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf',
  'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__', 'length', 'then',
] as const;

const RAW = '\u0000RAW:';
/** A value written into the body text as is (no JSON quoting). */
export const raw = (text: string) => `${RAW}${text}`;
const RAW_TOKEN = /"\\u0000RAW:((?:[^"\\]|\\.)*)"/g;

/** The body text of a generated body: JSON, with RAW tokens spliced in as written. */
export function bodyText(body: unknown): string {
  return JSON.stringify(body).replace(RAW_TOKEN, (_m, text: string) => JSON.parse(`"${text}"`) as string);
}

/** Numbers at the edges: of doubles, of safe integers, of 32-bit integers, of the contract's bounds. */
export const extremeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, -0, 0, 5e-324, Number.MAX_SAFE_INTEGER + 2, -(2 ** 53) - 2, 2 ** 31, -(2 ** 31) - 1, 2 ** 32, 1e21, 1e-7, 0.1, -1, 31_536_000, 31_536_001, 1_000_000_000),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Integers of 400 digits: an integer literal no double holds, where a parser of big integers or of floats may overflow. */
export const LONG_INTEGERS = [`1${'0'.repeat(399)}`, `-${'9'.repeat(400)}`] as const;

/** Number literals that JSON allows and doubles do not hold (parsed as Infinity, or rounded). */
export const numberLiteral = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '-0', '1E+308', '0.00000000000000000000000000001', '9007199254740993', ...LONG_INTEGERS).map(raw);

/**
 * Any code point but a lone surrogate: fast-check's `unit: 'binary'`, the same values for the same seed
 * (an index over the two ranges), without the table of a million entries it builds the first time
 * (over a second of CPU in every worker that generates).
 */
export const anyCodePoint = fc.nat({ max: 0x10ffff - 0x800 }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + 0x800),
  // The way back lets fast-check splice its dangerous strings (`__proto__`, `constructor`…) into strings.
  (value) => {
    const cp = typeof value === 'string' ? value.codePointAt(0) : undefined;
    if (cp === undefined || String.fromCodePoint(cp) !== value || (cp >= 0xd800 && cp < 0xe000)) throw new Error('not one code point');
    return cp < 0xd800 ? cp : cp - 0x800;
  },
);

/** Strings that trip parsers, stores and prompt builders. */
export const nastyString = fc.oneof(
  { arbitrary: fc.constantFrom(...BUILTIN_NAMES), weight: 4 },
  { arbitrary: fc.constantFrom('', ' ', '\u0000', '\ud800', '\udfff', '😀', '\u202e', 'ﷺ', '\r\n', '%00', '../..', '{{x}}', '${x}', '<script>', "'; --", 'null', 'undefined', 'NaN', '-1', '1e400'), weight: 3 },
  { arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }), weight: 2 },
  // Past Express's 100 KB body limit at most, within nginx's 1 MiB (suite/data/stack-limits.ts): a
  // longer one is refused before the service by a stock stack, and proves nothing of the service.
  { arbitrary: fc.constantFrom(10_001, 100_000, 150_000).map((n) => 'x'.repeat(n)), weight: 1 },
);

/** Nesting `depth` levels deep, as text: arrays, or objects whose member is named `a` or a built-in name. */
export const deepNesting = fc.record({
  depth: fc.oneof(fc.constantFrom(100, 1_000, 5_000, 20_000), fc.integer({ min: 1, max: 20_000 })),
  kind: fc.constantFrom('array', 'object', '__proto__'),
}).map(({ depth, kind }) => {
  const [open, close] = kind === 'array' ? ['[', ']'] : [`{"${kind === 'object' ? 'a' : kind}":`, '}'];
  return raw(`${open.repeat(depth)}0${close.repeat(depth)}`);
});

/** A plain JSON value (any type), for wrong types and extra members. */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, [], {}, [null], { '': null }),
  extremeNumber,
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
);

/** The value breaking servers most often, of any type: what a member is replaced with. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyValue, weight: 4 },
  { arbitrary: numberLiteral, weight: 1 },
  { arbitrary: deepNesting, weight: 1 },
  { arbitrary: fc.array(fc.tuple(fc.constantFrom(...BUILTIN_NAMES), anyValue), { minLength: 1, maxLength: 3 }).map(objectOf), weight: 1 },
);

/** An object with these own members, `__proto__` included. */
export function objectOf(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) setMember(out, key, value);
  return out;
}

/** The JSON type of a value, as a schema names it; a RAW token is 'raw'. */
export const typeOf = (value: unknown): string => (typeof value === 'string' && value.startsWith(RAW) ? 'raw' : jsonType(value));
