// The smallest valid instance of a schema (read by schema.ts): required members only, strings of their
// minimum length (or matching their pattern), numbers inside their bounds. Checks that need "any valid
// body" take it (served.ts): it follows the document, and is checked against it before it is sent.
import fc from 'fast-check';
import { armsOf, isObject, matches, MAX_DEPTH, mergeAllOf, setMember, typeOf, type Json } from './schema.ts';

/** A value of a string format a deployment may check (formats are not asserted by the suite's ajv, but may be by a server). */
const FORMATTED: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z', date: '2026-01-01', time: '00:00:00Z', email: 'conformance@example.com', uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/', 'uri-reference': '/x', hostname: 'example.com', ipv4: '127.0.0.1', ipv6: '::1',
};

/** The largest product of a pattern's counted repetitions (`{n}`, `{n,m}`) that strings are made for. */
const MAX_REPETITIONS = 10_000;
/** Strings sampled from a pattern; those that fit the schema's lengths are kept. */
const PATTERN_SAMPLES = 200;

/**
 * Strings matching a served `pattern` (u flag, as JSON Schema reads it) within [min, max] characters,
 * at most PATTERN_SAMPLES of them, made once per pattern: none when JavaScript cannot read it, when its
 * counted repetitions multiply past MAX_REPETITIONS (`^a{10000000}$` took 12 s and 3.2 GB for three
 * strings), or when none of the samples fits (a pattern of 50 characters under a maxLength of 10:
 * fast-check's filter would retry for ever). Counted repetitions are multiplied as if each held the
 * next, so the bound errs toward making none; the caller then makes plain strings, and a body that
 * does not validate is never sent as valid (suite/generate/requests.ts checks it first).
 */
export function matchingStrings(pattern: string, min: number, max: number): readonly string[] {
  const key = `${min}/${max}/${pattern}`;
  let found = madeFor.get(key);
  if (!found) {
    found = [];
    try {
      const re = new RegExp(pattern, 'u');
      if (repetitions(pattern) <= MAX_REPETITIONS) {
        found = [...new Set(fc.sample(fc.stringMatching(re), { numRuns: PATTERN_SAMPLES, seed: 1 }).filter((s) => fitsLength(s, min, max)))];
      }
    } catch { /* a pattern JS cannot read: none */ }
    if (madeFor.size >= 1_000) madeFor.clear();
    if (key.length < 4_096) madeFor.set(key, found); // no long Map keys (reference/store/shared.ts HASHED_LENGTH)
  }
  return found;
}
const madeFor = new Map<string, string[]>();

/** Lengths count code points, as JSON Schema counts them. */
const fitsLength = (s: string, min: number, max: number) => {
  const n = [...s].length;
  return n >= min && n <= max;
};

function repetitions(pattern: string): number {
  let product = 1;
  for (const m of pattern.matchAll(/(?<!\\)\{(\d+)(?:,(\d*))?\}/g)) {
    product *= Math.max(Number(m[1]), Number(m[2] || 0), 1);
    if (product > MAX_REPETITIONS) break;
  }
  return product;
}

function stringOf(schema: Json): string {
  const min = schema.minLength ?? 1;
  if (typeof schema.format === 'string' && FORMATTED[schema.format]) return FORMATTED[schema.format];
  if (typeof schema.pattern === 'string') {
    const sample = matchingStrings(schema.pattern, min, schema.maxLength ?? Infinity)[0];
    if (sample !== undefined) return sample;
  }
  return 'x'.repeat(Math.max(1, min));
}

function numberOf(schema: Json, integer: boolean): number {
  const lo = schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined);
  const hi = schema.maximum ?? (typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined);
  const fits = (n: number) => (schema.minimum === undefined || n >= schema.minimum) && (typeof schema.exclusiveMinimum !== 'number' || n > schema.exclusiveMinimum)
    && (schema.maximum === undefined || n <= schema.maximum) && (typeof schema.exclusiveMaximum !== 'number' || n < schema.exclusiveMaximum)
    && (!integer || Number.isInteger(n)) && (typeof schema.multipleOf !== 'number' || schema.multipleOf <= 0 || Number.isInteger(n / schema.multipleOf));
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : 1;
  const candidates = [1, lo !== undefined ? Math.ceil(lo / step) * step : undefined, lo !== undefined ? (Math.floor(lo / step) + 1) * step : undefined,
    lo !== undefined && hi !== undefined ? (lo + hi) / 2 : undefined, hi !== undefined ? Math.floor(hi / step) * step : undefined, 0, step];
  return candidates.find((n): n is number => n !== undefined && Number.isFinite(n) && fits(n)) ?? lo ?? hi ?? 1;
}

/** The arms of a union, those that say only null last: null is rarely what a body means. */
const nullLast = (arms: Json[]) => { const onlyNull = (a: Json) => a.type === 'null' || a.const === null; return [...arms.filter((a) => !onlyNull(a)), ...arms.filter(onlyNull)]; };

export function minimalInstance(schema: Json | undefined, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  const s = mergeAllOf(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
  const arms = armsOf(s);
  if (arms) {
    // The first arm whose smallest instance the whole schema holds (a `not` or an `if` beside the arms
    // may refuse it), null arms last; else the first that is not only null.
    const tried = nullLast(arms).map((arm) => minimalInstance(arm, depth + 1));
    const held = tried.findIndex((v) => v !== undefined && matches(s, v) !== false);
    return tried[held >= 0 ? held : 0];
  }
  switch (typeOf(s)) {
    case 'object': return objectInstance(s, depth);
    case 'array': return Array.from({ length: s.minItems ?? 0 }, () => minimalInstance(s.items, depth + 1) ?? {});
    case 'string': return stringOf(s);
    case 'integer': return numberOf(s, true);
    case 'number': return numberOf(s, false);
    case 'boolean': return true;
    case 'null': return null;
    default: return {};
  }
}

/** The smallest instance of each arm of a schema's `anyOf`/`oneOf` (null arms last), then the schema's own: a caller that validates them takes the first valid. */
export function minimalInstances(schema: Json | undefined): unknown[] {
  if (!isObject(schema)) return [minimalInstance(schema)];
  const out = nullLast(armsOf(mergeAllOf(schema)) ?? []).map((arm) => minimalInstance(arm));
  out.push(minimalInstance(schema));
  const seen = new Set<string>();
  return out.filter((v) => { const key = JSON.stringify(v) ?? 'undefined'; return !seen.has(key) && (seen.add(key), true); });
}

/**
 * The smallest object a schema holds: its required members, then what they need (dependentRequired),
 * then optional members in the document's order until minProperties is met (free members of an open
 * object after those), skipping a member whose presence `not` refuses; an `if` decides whether `then`
 * or `else` applies, and the object is made again under it.
 */
function objectInstance(s: Json, depth: number): Json {
  const props: Json = isObject(s.properties) ? s.properties : {};
  const free: Json | undefined = s.additionalProperties === false ? undefined : isObject(s.additionalProperties) ? s.additionalProperties : {};
  const out: Json = {};
  const put = (name: string) => {
    if (Object.hasOwn(out, name)) return;
    setMember(out, name, minimalInstance(props[name] ?? free ?? {}, depth + 1) ?? {});
    const needs = isObject(s.dependentRequired) && Array.isArray(s.dependentRequired[name]) ? s.dependentRequired[name] : [];
    for (const n of needs) if (typeof n === 'string') put(n);
  };
  for (const name of Array.isArray(s.required) ? s.required : []) if (typeof name === 'string') put(name);
  const size = () => Object.keys(out).length;
  const min = typeof s.minProperties === 'number' ? s.minProperties : 0;
  const refused = () => isObject(s.not) && matches(s.not, out) === true;
  // Optional members whose smallest value is not null first (pydantic's `X | None` takes its X).
  const optional = Object.keys(props).filter((k) => !Object.hasOwn(out, k));
  for (const name of optional) {
    if (size() >= min && !refused()) break;
    const before = { ...out };
    put(name);
    // A member that makes `not` hold (or breaks maxProperties) is taken back.
    if ((isObject(s.not) && matches(s.not, out) === true && !(isObject(s.not) && matches(s.not, before) === true))
      || (typeof s.maxProperties === 'number' && size() > s.maxProperties)) {
      for (const k of Object.keys(out)) if (!Object.hasOwn(before, k)) delete out[k];
    }
  }
  for (let i = 1; free && size() < min && i <= min; i++) put(`member${i}`);
  if (isObject(s.if) && depth < MAX_DEPTH) {
    const branch = matches(s.if, out) !== false ? s.then : s.else;
    if (isObject(branch)) {
      const { if: _if, then: _then, else: _else, ...rest } = s;
      const again = minimalInstance({ allOf: [rest, branch] }, depth + 1);
      if (isObject(again) && matches(s.if, again) === matches(s.if, out)) return again;
    }
  }
  return out;
}
