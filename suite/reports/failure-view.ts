// A failure as the parts every report shows, in the same order: heading, expected
// vs received, the message, the response, the reproduction curl. The terminal (and through it JUnit)
// lays these parts out as text and the HTML page as elements, so both say the same thing; deciding
// here what is relevant (which headers, how much body) keeps them from drifting apart.
import { STATUS_CODES } from 'node:http';
import { curlOf, type Exchange } from '../data/exchange.ts';
import type { CheckResult, Outcome } from '../results/results.ts';
import { recordedLength, safe, shortened } from './text.ts';
import { shownBody } from './focus.ts';

/** About 1 KB of body: enough to see the error envelope or the offending member, short enough to scan. */
export const SHOWN_BODY = 1024;

/** A URL longer than this is cut where the response is shown, its length said (the curl keeps it whole). */
export const SHOWN_VALUE = 300;

/**
 * The curl of an exchange as a report shows it: whole, so that it pastes (never cut in the middle of
 * the command); a request the recording could not keep whole (a URL or body over 4 KB) is said in a
 * shell comment instead, since no curl of it would send the same request.
 */
function pasteable(curl: string): string {
  const cut = [...curl.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => recordedLength(m[1])).filter((n): n is number => n !== undefined);
  if (!cut.length) return curl;
  const longest = Math.max(...cut).toLocaleString('en-US');
  return `# not repeatable from here: the request had a part of ${longest} characters, more than a run keeps (results.json has its start)`;
}

/** The id a request's path names after /worlds/ or /personas/ (what the run made and its cleanup removed). */
const namedResource = (url: string) => /\/(?:worlds|personas)\/([^/?#]{4,})/.exec(url)?.[1];

/**
 * The response headers a conformance verdict turns on (media type, Retry-After, CORS, Location…);
 * the rest are noise in a failure and stay in results.json.
 */
const RELEVANT_HEADER = /^(content-type|retry-after|location|allow|www-authenticate|access-control-allow-origin|vary|(x-)?ratelimit-.*)$/;

export const MARK: Record<Outcome, string> = { pass: '✓', fail: '✗', warn: '⚠', partial: '◐', skip: '-', 'not-run': '○', error: '‼' };

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
  /** Why the curl alone would fail after the run, and the request to send first (when the run knows it). */
  setup?: { note: string; curl?: string };
}

export interface ViewOptions {
  /** The run left what it created (--keep): a reproduction can use it as it is. */
  kept?: boolean;
}

/** Ids a check's name lists before it says how many more it covers. */
const NAMED_IDS = 4;
/**
 * The requirement ids as a check's name shows them: all of them up to NAMED_IDS, else the first two
 * and how many more (the model's check covers about forty: a name a reader scans, the ids stay in the
 * check's requirementIds, and a failure names the one it broke).
 */
export const idsLabel = (ids: readonly string[]) => (ids.length > NAMED_IDS ? `${ids.slice(0, 2).join(', ')} and ${ids.length - 2} more` : ids.join(', '));

/** `[ID, ID] title`: the JUnit test name and the heading start with the requirement ids (CI searches by them). */
export const nameOf = (check: CheckResult) => `[${idsLabel(check.requirementIds) || (check.id === 'run' ? 'run' : 'no id')}] ${safe(check.title)}`;

/** Whether `message` only repeats the title, expected and received (as a CheckFailure's message does). */
function repeats(message: string, f: NonNullable<CheckResult['failure']>): boolean {
  const rest = [f.title, f.expected, f.received].reduce<string>((m, part) => (part ? m.replace(part, '') : m), message);
  return !rest.replace(/\b(expected|received):|\(see title\)/g, '').trim();
}

/** `201 {"worldId":…}` when the body is shown below anyway: the status, and where the body is. */
function withoutBody(received: string, x: NonNullable<CheckResult['failure']>['exchange']): string {
  if (!x) return received;
  const m = /^(\d{3}) ([\s\S]+)$/.exec(received);
  return m && Number(m[1]) === x.status && x.responseBody.startsWith(m[2].replace(/…$/, '')) ? `${m[1]} (the response below)` : received;
}

export function failureView(check: CheckResult, options: ViewOptions = {}): FailureView {
  const f = check.failure;
  const x = f?.exchange;
  // A per-response row expects what its requirement's title says, and the heading says it already.
  const expected = f?.expected === undefined || (check.responses !== undefined && f.expected === f.title) ? undefined : safe(f.expected);
  const received = f?.received === undefined ? undefined : safe(withoutBody(f.received, x));
  // A message that only says the title, expected and received again (per-response problems, a
  // CheckFailure's own message) is said once: its title, which nothing else shows.
  const message = !f || f.message.trim() === (f.received ?? '').trim() ? undefined : safe(repeats(f.message, f) ? f.title : f.message);
  const responses = check.responses === undefined ? '' : `, ${check.responses} response${check.responses === 1 ? '' : 's'} checked`;
  return {
    outcome: check.outcome,
    mark: MARK[check.outcome],
    heading: `${nameOf(check)} (${check.area}${responses})`,
    expected, received,
    // A check that ended without a failure record (e.g. an error with only a reason) still says why.
    message: message ?? (f ? undefined : check.reason === undefined ? undefined : safe(check.reason)),
    response: x && {
      request: safe(`${x.method} ${shortened(x.url, SHOWN_VALUE)}`),
      status: `${x.status} ${STATUS_CODES[x.status] ?? ''}`.trim(),
      durationMs: x.durationMs,
      headers: Object.entries(x.responseHeaders).filter(([k]) => RELEVANT_HEADER.test(k.toLowerCase())).map(([k, v]) => [safe(k), safe(v)]),
      // Never cut before the member the check asserted: a large body shows the members the failure names.
      body: safe(shownBody(x.responseBody, [f?.title, f?.expected, f?.received, f?.message], SHOWN_BODY)),
    },
    // The curl the run built reads the key from a variable ($API_KEY…); rebuild it the same way when absent.
    curl: f?.curl !== undefined ? safe(pasteable(f.curl)) : x ? safe(pasteable(curlOf(x))) : undefined,
    setup: setupOf(f, x, options),
  };
}

/** What a reproduction after the run needs first: the creation the run sent, or at least --keep. */
function setupOf(f: CheckResult['failure'], x: Exchange | undefined, options: ViewOptions): FailureView['setup'] {
  if (f?.setup) {
    return {
      note: `${f.setup.id} was made by the run${options.kept ? '' : ' and soft-deleted at its end (--keep leaves it)'}: make one first, then put its id in place of ${f.setup.id}`,
      curl: safe(pasteable(f.setup.curl)),
    };
  }
  const named = x && !options.kept ? namedResource(x.url) : undefined;
  return named ? { note: safe(`what the run made (${named} here) its cleanup soft-deleted: run again with --keep to repeat this request after the run`) } : undefined;
}

/** What a failure says in one line: its title, or for a per-response row (titled by its requirement) the first problem. */
export const foldedWhy = (check: CheckResult): string =>
  (check.responses !== undefined ? check.failure?.received?.split('\n')[0] : undefined) ?? check.failure?.title ?? check.reason ?? '';
