// Rate limits (needs --rate-limit-key, a key the run may exhaust): one measurement of the key over
// time (support/rate-window.ts: a burst to the first 429, another key sent while it is refused, the
// Retry-After waited, then one window counted slot by slot) judged by each check. Requests of the
// rate-limit key are sent without pacing, on purpose; the time it takes is about two windows (the
// embedded reference's 3 s; a deployment's minute) and the plan's number of requests two or three times.
import { describe } from 'vitest';
import { check, api, config, expectFor, notRun, skip, type Reply } from './support/index.ts';
import { PLAN_RPM } from '../contract/plans.ts';
import { burstInOneWindow, leastAccepted, longestWait, mostInARow, measure, mostAccepted, overstated, waitsThatFailed, wholeSeconds, windowFloor, type Answer, type Measurement } from './support/rate-window.ts';

const client = api();
/** Main-key requests sent paced during the window: RATE-6 (suite/results/main-key-limits.ts) counts their 429s. */
const PACED_MAIN = 8;

/** The plan's limit a window: undefined when no plan was named or it is custom (enterprise). */
const planLimit = (): number | undefined => {
  const { plan, planNamed } = config();
  return !planNamed || plan === 'enterprise' ? undefined : PLAN_RPM[plan];
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let measured: Promise<Measurement> | undefined;
/** The one measurement every check reads (made by the first check that runs). */
function measurement(): Promise<Measurement> {
  const c = config();
  measured ??= measure({
    client, windowMs: c.rateWindowMs, limit: planLimit(),
    keys: { rate: c.rateLimitKey!, main: c.apiKey, second: c.secondKey },
    // One after another, as the client paces the main key (under its plan: never past it).
    pacedMain: async () => { for (let i = 0; i < PACED_MAIN; i++) await client.call('listWorlds', { query: { limit: '1' } }); },
  });
  return measured;
}

/** Every 429 of the rate-limit key. */
const refusals = (m: Measurement) => m.answers.filter((a) => a.status === 429);

/**
 * A measurement with a 429 to look at; else why not. No 429 fails the deployment (RATE-1) only when
 * more requests were accepted than any limit of the plan's number accepts in the time they took.
 * Fewer, and the suite did not send fast enough to tell: its own failure (error), not the deployment's
 * and never a silent "not run". A limit not named or custom (enterprise) may be above all it sent.
 */
async function limited(ctx: Parameters<typeof notRun>[0], id: 'RATE-1' | 'other'): Promise<Measurement> {
  const m = await measurement();
  if (refusals(m).length) return m;
  const { sent, accepted, ms } = m.burst;
  const perWindow = Math.floor((sent * m.windowMs) / Math.max(ms, 1));
  if (m.limit === undefined) {
    notRun(ctx, `no 429 after ${sent} requests (${perWindow} a window), but the key's limit is ${config().planNamed ? 'custom (enterprise)' : 'not named'} and may be higher; name its fixed plan with --rate-limit-plan to check it`);
  }
  const most = mostAccepted(m.limit, m.windowMs, ms);
  if (accepted <= most) {
    throw new Error(`suite: sent ${sent} requests in ${seconds(ms)} (${perWindow} a window of ${seconds(m.windowMs)}), too slowly to tell: a limit of ${m.limit} a window may accept ${most} in that time. `
      + 'The suite could not reach the plan\'s rate (a busy machine, a slow link): nothing is known of the deployment\'s limit');
  }
  if (id !== 'RATE-1') notRun(ctx, 'no 429 to look at: the key was never limited (RATE-1 fails)');
  expectFor(m.answers.at(-1)?.reply, false, {
    title: `no 429 after ${accepted} requests accepted in ${seconds(ms)}: the key is not limited`,
    expected: `429 RATE_LIMITED once past the plan's ${m.limit} a window (a correct limit accepts at most ${most} in ${seconds(ms)})`,
    received: `${accepted} accepted of ${sent} sent in ${seconds(ms)}`,
  });
  return m;
}

const quote = (a: Answer) => `${a.status} Retry-After ${a.retryAfter === undefined ? '(none)' : `'${a.retryAfter}'`} ${a.reply.text.slice(0, 160)}`;

describe('per-key rate limit', () => {
  check('RATE-1', 'answers 429 RATE_LIMITED past the limit, on every refusal', { needs: ['rateLimitKey'] }, async (ctx) => {
    const m = await limited(ctx, 'RATE-1');
    const wrong = refusals(m).filter((a) => a.code !== 'RATE_LIMITED');
    expectFor(wrong[0]?.reply, !wrong.length, {
      title: `${wrong.length} of ${refusals(m).length} answers 429 are not RATE_LIMITED`,
      expected: '429 {"error": {"code": "RATE_LIMITED", …}}', received: wrong[0] ? quote(wrong[0]) : '',
    });
  });

  check('RATE-2', 'gives Retry-After as a whole number of seconds on every 429', { needs: ['rateLimitKey'] }, async (ctx) => {
    const m = await limited(ctx, 'other');
    const wrong = refusals(m).filter((a) => !wholeSeconds(a.retryAfter));
    expectFor(wrong[0]?.reply, !wrong.length, {
      title: `${wrong.length} of ${refusals(m).length} answers 429 have no Retry-After in whole seconds`,
      expected: 'Retry-After: <digits>', received: wrong[0] ? quote(wrong[0]) : '',
    });
  });

  check('RATE-3', 'accepts a request sent after waiting Retry-After, which is never longer than a window', { needs: ['rateLimitKey'] }, async (ctx) => {
    const m = await limited(ctx, 'other');
    const bound = longestWait(m.windowMs);
    const long = refusals(m).filter((a) => wholeSeconds(a.retryAfter) && Number(a.retryAfter) > bound);
    expectFor(long[0]?.reply, !long.length, {
      title: `Retry-After ${long[0]?.retryAfter} s is longer than the window of a per-minute limit`,
      expected: `at most ${bound} s (the window of ${seconds(m.windowMs)}, rounded up)`, received: long[0] ? quote(long[0]) : '',
    });
    if (m.notWaited) notRun(ctx, `${m.notWaited}: nothing to wait (RATE-2 fails)`);
    const w = m.waited!;
    expectFor(w.next.reply, w.next.status >= 200 && w.next.status < 300, {
      title: `still ${w.next.status} after waiting the Retry-After of ${w.refusal.retryAfter} s`,
      expected: `a 2xx for a request sent ${seconds(w.waitMs)} after the 429`, received: quote(w.next),
    });
    const failed = waitsThatFailed(m.answers);
    expectFor(failed[0]?.refused.reply, !failed.length, {
      title: `${failed.length} request(s) refused although sent after a Retry-After had passed (none accepted in between)`,
      expected: `a 2xx ${failed[0]?.refusal.retryAfter} s after the 429 that said so`,
      received: failed[0] ? `${seconds(failed[0].refused.sentAt - failed[0].refusal.gotAt)} after that 429: ${quote(failed[0].refused)}` : '',
    });
  });

  check('RATE-4', "accepts the named plan's number over a window: about the plan after a wait, never a number per second", { needs: ['rateLimitKey', 'planNamed'] }, async (ctx) => {
    if (config().plan === 'enterprise') skip(ctx, 'the enterprise limit is custom: nothing to compare with');
    const m = await limited(ctx, 'other');
    if (!m.window) notRun(ctx, `${m.noWindow ?? 'no window was counted'} (RATE-3 fails)`);
    const limit = m.limit!;
    const w = m.window!;
    const last: Reply | undefined = m.answers.at(-1)?.reply;
    const plan = `the ${config().plan} plan's ${limit} a window of ${seconds(m.windowMs)}`;
    const counted = `${w.accepted} accepted over one window of ${seconds(m.windowMs)}${w.attempt === 2 ? ' (the second window counted: the first could not tell)' : ''}`;
    // What the deployment certainly did is judged first; what the suite could not tell, last.
    // At most twice the plan over a window and a tenth: a fixed window's edge inside it, or a full
    // bucket refilled. A limit a second (or any shorter window) accepts its number in each. Counted
    // are the answers that came before the window's end: the limiter let them through inside it.
    expectFor(last, w.accepted <= Math.floor(2.2 * limit + 1e-9), {
      title: `${counted}: more than any limit of ${limit} a window accepts`,
      expected: `at most ${Math.floor(2.2 * limit + 1e-9)} (${plan}: twice it across a window's edge, and a tenth)`, received: `${w.accepted} accepted over ${seconds(m.windowMs)}`,
    });
    // At least the plan, less a tenth: a fixed window, a sliding one and a token bucket each accept
    // their number over a window when every slot is taken as it comes. A shortfall is the
    // deployment's only when certain (support/rate-window.ts windowFloor): refused in the window,
    // the suite sending to its last tenth, and the answers late past its end not making it up.
    const floor = windowFloor(w, limit);
    expectFor(last, floor !== 'short', {
      title: `${counted}, sent as fast as the key was accepted (refused ${w.refused} times in it)`,
      expected: `at least ${leastAccepted(limit)} (${plan}, less a tenth)`, received: `${w.accepted} accepted, answered inside the window${w.uncertain ? ` (${w.uncertain} more after its end)` : ''}`,
    });
    // Right after the wait Retry-After asked, a new window has begun (or a bucket has refilled only
    // that long): the burst then meets its 429 within the plan's number, with a tenth. More is a
    // failure only when the burst was answered before the window could end (burstInOneWindow: a
    // window on the deployment's clock began when the key was free again, known to about the second
    // Retry-After rounds up); slower, it may span two windows (the suite's error).
    const most = mostInARow(limit);
    expectFor(last, w.burst <= most || !burstInOneWindow(w), {
      title: `accepted ${w.burst} requests in a row (${seconds(w.burstMs)}) after waiting Retry-After, before the next 429`,
      expected: `at most ${most} (${plan}, and a tenth)`, received: `${w.burst} accepted`,
    });
    if (floor === 'undecided') {
      throw new Error(`suite: ${counted}, ${w.uncertain} more answered after its end: whether the limiter let those through inside it cannot be told (answers too slow on this machine), so nothing is known of ${plan}`);
    }
    if (floor === 'too-slow') {
      throw new Error(`suite: ${counted}, ${w.refused ? `but it sent nothing in the last ${seconds(w.idleEndMs)}` : 'none refused'}: too slowly to take every slot of ${plan}`);
    }
    if (w.burst > most) {
      throw new Error(`suite: ${w.burst} accepted in a row after the wait${w.attempt === 2 ? ' (twice)' : ''}, but the burst took ${seconds(w.burstMs)}, longer than the ${seconds(w.edge - w.start)} the limiter's window was sure to last: it may span two; nothing is known of the limit's number`);
    }
  });

  check('RATE-5', 'serves another key while the rate-limit key is refused (limits are per key)', { needs: ['rateLimitKey'] }, async (ctx) => {
    const m = await limited(ctx, 'other');
    if (!m.perKey) notRun(ctx, 'the rate-limit key was never refused long enough to send another key between two of its 429s');
    const { served, before, after } = m.perKey!;
    const refused = served.filter((a) => a.status < 200 || a.status >= 300);
    const name = (a: Answer) => (a.who === 'main' ? 'the main key (same tenant)' : "the other tenant's key");
    expectFor(refused[0]?.reply, !refused.length, {
      title: `${refused.map(name).join(' and ')} refused while the rate-limit key was limited: the limit is not per key`,
      expected: `a 2xx for each other key, between two 429s of the rate-limit key (${seconds(after.gotAt - before.sentAt)} apart)`,
      received: refused.map((a) => `${name(a)}: ${quote(a)}`).join('\n'),
    });
  });

  check('RATE-7', 'gives Retry-After no longer than the key is really refused (to its rounding)', { needs: ['rateLimitKey'] }, async (ctx) => {
    const m = await limited(ctx, 'other');
    const after = refusals(m).filter((r) => wholeSeconds(r.retryAfter) && m.answers.some((a) => a.status < 300 && a.status >= 200 && a.sentAt >= r.gotAt));
    if (!after.length) notRun(ctx, 'the key was never accepted after a 429 with a Retry-After in seconds: nothing to compare it with');
    const lies = overstated(m.answers);
    const worst = lies.sort((a, b) => Number(b.refusal.retryAfter) * 1000 - b.acceptedAfterMs - (Number(a.refusal.retryAfter) * 1000 - a.acceptedAfterMs))[0];
    expectFor(worst?.refusal.reply, !lies.length, {
      title: `${lies.length} of ${after.length} answers 429 said to wait longer than the key was refused`,
      expected: 'Retry-After no more than the rounding up of the time until the key is accepted again',
      received: worst ? `Retry-After ${worst.refusal.retryAfter} s, and the key was accepted ${seconds(worst.acceptedAfterMs)} later` : '',
    });
  });
});

