// A failure as the parts every report shows, in the same order (STYLE.md lesson 4): heading, expected
// vs received, the message, the response, the reproduction curl. The terminal (and through it JUnit)
// lays these parts out as text and the HTML page as elements, so both say the same thing; deciding
// here what is relevant (which headers, how much body) keeps them from drifting apart.
import { STATUS_CODES } from 'node:http';
import { curlOf } from '../data/exchange.ts';
import type { CheckResult, Outcome } from '../results/results.ts';
import { clip, safe } from './text.ts';

/** About 1 KB of body: enough to see the error envelope or the offending member, short enough to scan. */
export const SHOWN_BODY = 1024;

/**
 * The response headers a conformance verdict turns on (media type, Retry-After, CORS, Location…);
 * the rest are noise in a failure and stay in results.json.
 */
const RELEVANT_HEADER = /^(content-type|retry-after|location|allow|www-authenticate|access-control-allow-origin|vary|(x-)?ratelimit-.*)$/;

export const MARK: Record<Outcome, string> = { pass: '✓', fail: '✗', warn: '⚠', skip: '-', 'not-run': '○', error: '‼' };

export interface ResponseView {
  /** `GET https://…/worlds/w1` */
  request: string;
  /** `404 Not Found` */
  status: string;
  durationMs: number;
  headers: Array<[string, string]>;
  body: string;
}

export interface FailureView {
  outcome: Outcome;
  mark: string;
  /** `[AUTH-1] answers 401 without a key (auth)` */
  heading: string;
  expected?: string;
  received?: string;
  message?: string;
  response?: ResponseView;
  curl?: string;
}

/** `[ID, ID] title`: the JUnit test name and the heading start with the requirement ids (CI searches by them). */
export const nameOf = (check: CheckResult) => `[${check.requirementIds.join(', ') || 'no id'}] ${safe(check.title)}`;

export function failureView(check: CheckResult): FailureView {
  const f = check.failure;
  const x = f?.exchange;
  const expected = f?.expected === undefined ? undefined : safe(f.expected);
  const received = f?.received === undefined ? undefined : safe(f.received);
  // Per-response checks repeat the problems as both message and received: say it once.
  const message = f && f.message.trim() !== (f.received ?? '').trim() ? safe(f.message) : undefined;
  return {
    outcome: check.outcome,
    mark: MARK[check.outcome],
    heading: `${nameOf(check)} (${check.area})`,
    expected, received,
    // A check that ended without a failure record (e.g. an error with only a reason) still says why.
    message: message ?? (f ? undefined : check.reason === undefined ? undefined : safe(check.reason)),
    response: x && {
      request: safe(`${x.method} ${x.url}`),
      status: `${x.status} ${STATUS_CODES[x.status] ?? ''}`.trim(),
      durationMs: x.durationMs,
      headers: Object.entries(x.responseHeaders).filter(([k]) => RELEVANT_HEADER.test(k.toLowerCase())).map(([k, v]) => [safe(k), safe(v)]),
      body: safe(clip(pretty(x.responseBody), SHOWN_BODY)),
    },
    // The curl the run built has the key as $API_KEY; rebuild it the same way when absent.
    curl: f?.curl !== undefined ? safe(f.curl) : x ? safe(curlOf(x)) : undefined,
  };
}

/** JSON bodies indented so a member can be found; anything else (including bodies cut by the recorder) as received. */
function pretty(body: string): string {
  if (!body) return '(empty body)';
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
