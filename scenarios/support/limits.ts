// The `limit` values of GET /worlds the worlds and generated areas send, and the most worlds a 2xx
// may hold for each under every reading SPEC.md's "`limit` of `GET /worlds`: default 20, maximum 100"
// leaves open (a value over 100 clamped or refused; one that is no page size read as the default,
// as none, or refused). A refusal is a 4xx with the error envelope; a 5xx is never one.

/** The cap of GET /worlds (Limits: "maximum 100"), and its default page (Limits: "default 20"). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 20;

export interface LimitValue {
  /** As sent in the query string. */
  value: string;
  /** The most worlds a 2xx answer may hold (the tenant holding more than 100). */
  atMost: number;
  /** Why that bound: the readings that stay within SPEC.md. */
  readings: string;
}

/** Over the maximum: clamped to 100, or refused. */
export const OVER_MAX: readonly LimitValue[] = [
  { value: '101', atMost: MAX_LIMIT, readings: 'clamped to 100, or refused' },
  { value: '1000', atMost: MAX_LIMIT, readings: 'clamped to 100, or refused' },
];

/**
 * Values a lenient or careless parser misreads: how such a value is read is not shown (not a page
 * size: the default, none, the number before the text, the fraction rounded, or the maximum), so a 2xx
 * is held only to the maximum SPEC.md states: at most 100, whatever the reading.
 */
const misread = (value: string, readings: string): LimitValue => ({ value, atMost: MAX_LIMIT, readings });
export const MISREAD: readonly LimitValue[] = [
  misread('0', 'the default (20), none, the maximum, or refused'),
  misread('abc', 'the default (20), the maximum, or refused'),
  misread('', 'the default (20), none, the maximum, or refused'),
  misread('-1', 'the default (20), none, one, the maximum, or refused'),
  misread('1.5', 'one or two (rounded), the default (20), or refused'),
  misread('20abc', '20 (the number before the text), the default (20), or refused'),
  misread('1e2', '100 (the number it writes), the default (20), or refused'),
  misread(`1${'0'.repeat(399)}`, 'clamped to 100 (a number over the maximum), or refused'),
];

/** How a value is quoted in a failure: a long one shortened. */
export const shown = (value: string) => (value.length > 24 ? `${value.slice(0, 6)}… (${value.length} characters)` : JSON.stringify(value));
