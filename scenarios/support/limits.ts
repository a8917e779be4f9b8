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
 * Values a lenient or careless parser misreads. Where no reading is a page size above 20 (not a
 * number, negative, zero, a fraction, a number with trailing text) a 2xx holds at most 20: the
 * default, none, the number read before the text (20abc), the fraction rounded. A number written
 * otherwise (1e2) or longer than any page (400 digits) may be read as its value: at most 100.
 */
export const MISREAD: readonly LimitValue[] = [
  { value: '0', atMost: DEFAULT_LIMIT, readings: 'the default (20), none, or refused' },
  { value: 'abc', atMost: DEFAULT_LIMIT, readings: 'the default (20), or refused' },
  { value: '', atMost: DEFAULT_LIMIT, readings: 'the default (20), none, or refused' },
  { value: '-1', atMost: DEFAULT_LIMIT, readings: 'the default (20), none, one, or refused' },
  { value: '1.5', atMost: DEFAULT_LIMIT, readings: 'one or two (rounded), the default (20), or refused' },
  { value: '20abc', atMost: DEFAULT_LIMIT, readings: '20 (the number before the text), the default (20), or refused' },
  { value: '1e2', atMost: MAX_LIMIT, readings: '100 (the number it writes), the default (20), or refused' },
  { value: `1${'0'.repeat(399)}`, atMost: MAX_LIMIT, readings: 'clamped to 100 (a number over the maximum), or refused' },
];

/** How a value is quoted in a failure: a long one shortened. */
export const shown = (value: string) => (value.length > 24 ? `${value.slice(0, 6)}… (${value.length} characters)` : JSON.stringify(value));
