// The rate-limit key measured over time (scenarios/rate-limit.test.ts judges what this records).
// One measurement serves every RATE check, in four steps:
// 1. burst: requests sent as fast as the suite can (several in flight) until the first 429;
// 2. per key: while the key is refused (a 429 before and after), the main key and the other tenant's
//    key are sent once each;
// 3. the wait: the last 429's Retry-After is waited (plus 100 ms) and one request sent; when the
//    Retry-After is not a usable wait, the key is probed until it is accepted;
// 4. the window: from that accepted request, one window long, every request the limiter lets through
//    is taken (a burst whenever a probe is accepted, probes every 1/60 of a window while refused; none
//    in its last twentieth), each answer placed inside the window only when it came before its end;
//    when that count cannot settle the plan's lower bound (answers late, the suite too slow), the key
//    is exhausted, waited out and counted once more; after the window the key is probed until it is
//    accepted again (how long refusals really last).
// Every answer of the rate-limit key is kept with when it was sent and received, so that the checks
// compare Retry-After with what the deployment did. Nothing here waits longer than a window or two
// (a Retry-After of an hour is never waited), and the number of requests is bounded by the plan.
import type { Client, Reply } from '../../suite/http/client.ts';
import { noteWait } from '../../suite/http/waits.ts';

export type Sender = 'rate' | 'main' | 'second';

export interface Answer {
  who: Sender;
  /** performance.now() when the request left and when its answer was in. */
  sentAt: number;
  gotAt: number;
  status: number;
  code?: string;
  retryAfter?: string;
  reply: Reply;
}

export interface MeasureInput {
  client: Client;
  keys: { rate: string; main: string; second?: string };
  windowMs: number;
  /** The plan's number a window; undefined: unknown (no plan named) or custom (enterprise). */
  limit?: number;
  /** Main-key requests sent paced (not provoking 429) during the window, for RATE-6. */
  pacedMain?: () => Promise<unknown>;
}

export interface Measurement {
  windowMs: number;
  limit?: number;
  /** Step 1. */
  burst: { sent: number; accepted: number; ms: number };
  /** Every answer of the rate-limit key, in the order they came. */
  answers: Answer[];
  /** Step 2: a request of the rate-limit key refused before and after the others were sent. */
  perKey?: { before: Answer; served: Answer[]; after: Answer };
  /** Step 3: the refusal whose Retry-After was waited, how long, and the answer after it. */
  waited?: { refusal: Answer; waitMs: number; next: Answer };
  /** Why no wait was tried (its Retry-After was no usable wait). */
  notWaited?: string;
  /** Step 4, from the first request accepted after the refusals (the second count's, when the first could not tell). */
  window?: CountedWindow;
  /** Why step 4 did not happen. */
  noWindow?: string;
}

/** Requests in flight during a burst: the rate reached must not hang on the target's latency. */
export const IN_FLIGHT = 16;
/** Brackets tried for step 2 before saying none held, and the key's requests each may spend to see a 429 again. */
const PER_KEY_TRIES = 5;
const RESPEND_MOST = 20;
/** Slots a window is probed in while the key is refused. */
const PROBES_PER_WINDOW = 60;
/** Added to a Retry-After before the request that tests it: timers and clocks are not exact. */
export const WAIT_MARGIN_MS = 100;

/** The longest Retry-After a per-minute limit can need: the window, rounded up, and a second of rounding. */
export const longestWait = (windowMs: number) => Math.ceil(windowMs / 1000) + 1;

/** A Retry-After that says a whole number of seconds (RATE-2). */
export const wholeSeconds = (value: string | undefined): value is string => value !== undefined && /^\d+$/.test(value.trim());

/**
 * Whether the first burst goes on after `ms` with `sent` sent and `accepted` accepted and no 429: with
 * a known limit, until more were accepted than any correct limit accepts in that time (no limit:
 * RATE-1 fails) or four windows have passed (too slow to tell), at most eight times the plan; with
 * none (not named, custom), up to 2,600 requests, above the largest fixed plan (pro, 2,000).
 */
export const burstGoesOn = (limit: number | undefined, windowMs: number, ms: number, sent: number, accepted: number) =>
  limit === undefined ? sent < 2600 : accepted <= mostAccepted(limit, windowMs, ms) && ms < 4 * windowMs && sent < 8 * limit;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, Math.max(0, ms)));
const ok = (a: Answer) => a.status >= 200 && a.status < 300;

export async function measure(input: MeasureInput): Promise<Measurement> {
  const { client, keys, windowMs, limit } = input;
  const m: Measurement = { windowMs, limit, burst: { sent: 0, accepted: 0, ms: 0 }, answers: [] };
  const probeMs = windowMs / PROBES_PER_WINDOW;

  const send = async (who: Sender, prepaced = false): Promise<Answer> => {
    const sentAt = performance.now();
    // The other keys' requests are paced by their plans (only the rate-limit key is spent): their 429 is read, not waited out.
    const reply = await client.call('listWorlds', { key: keys[who] ?? null, query: { limit: '1' }, expect429: true, paced: who !== 'rate' && !prepaced });
    const a: Answer = { who, sentAt, gotAt: performance.now(), status: reply.status, code: reply.body?.error?.code, retryAfter: reply.headers['retry-after'], reply };
    if (who === 'rate') m.answers.push(a);
    return a;
  };

  /** Requests of the rate-limit key, IN_FLIGHT at a time, until a 429, `until` (none is sent after it), or `goesOn` says no more. */
  const burst = async (until = Infinity, goesOn: (ms: number, sent: number, accepted: number) => boolean = () => true) => {
    let sent = 0, accepted = 0, refused: Answer | undefined;
    const began = performance.now();
    const sender = async () => {
      while (!refused && performance.now() < until && goesOn(performance.now() - began, sent, accepted)) {
        sent += 1;
        const a = await send('rate');
        if (a.status === 429) refused ??= a;
        else if (ok(a)) accepted += 1;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
    return { sent, accepted, refused };
  };

  /**
   * One request of each other key, bracketed by two refused requests of the rate-limit key; tried again
   * when a bracket does not hold: a token bucket frees a request now and then while the key is still
   * limited (at 100 a 3 s window, one every 30 ms).
   */
  const perKey = async () => {
    const others = (['main', 'second'] as const).filter((w) => keys[w]);
    for (let attempt = 0; attempt < PER_KEY_TRIES; attempt++) {
      // The other keys' paced slots are taken first, then the key is spent again to a refusal: a wait
      // (a pacer's) between its 429 and the bracket let a token bucket free it (RATE-5 not run in 3 of 6 runs).
      await Promise.all(others.map((w) => client.takePace(keys[w])));
      let before = await send('rate');
      for (let spent = 1; before.status !== 429 && ok(before) && spent < RESPEND_MOST; spent++) before = await send('rate');
      if (before.status !== 429) continue;
      const served = await Promise.all(others.map((w) => send(w, true)));
      const after = await send('rate');
      if (after.status === 429) return { before, served, after };
    }
    return undefined;
  };

  /** Probes until the key is accepted (or `until`): the accepted answer. */
  const probeUntilAccepted = async (until: number) => {
    while (performance.now() < until) {
      const a = await send('rate');
      if (ok(a)) return a;
      await sleep(probeMs);
    }
    return undefined;
  };

  // 1. The burst.
  const started = performance.now();
  const first = await burst(Infinity, (ms, sent, accepted) => burstGoesOn(limit, windowMs, ms, sent, accepted));
  m.burst = { sent: first.sent, accepted: first.accepted, ms: performance.now() - started };
  if (!first.refused) return m;

  // 2. Per key, while the key is refused.
  m.perKey = await perKey();

  let paced: Promise<unknown> | undefined;
  // 3 and 4. The wait, then one window counted; counted again (once) when the count could not tell.
  const accepted = await waitOut(lastRefusal(), true);
  if (!accepted) return m;
  m.window = await countWindow(accepted);
  if (limit !== undefined && !windowTells(m.window, limit)) {
    // Exhaust the key again (a new window's or bucket's worth), wait, and count a second window.
    const exhausted = await burst(Infinity, (ms, sent, acc) => burstGoesOn(limit, windowMs, ms, sent, acc));
    const again = exhausted.refused ? await waitOut(lastRefusal(), false) : undefined;
    if (again) m.window = { ...(await countWindow(again)), attempt: 2 };
  }
  // After the window, until the key is accepted again: how long its refusals really last (RATE-7).
  await probeUntilAccepted(performance.now() + windowMs + longestWait(windowMs) * 1000);
  await paced;
  return m;

  function lastRefusal() { return [...m.answers].reverse().find((a) => a.status === 429)!; }

  /**
   * Step 3: the refusal's Retry-After waited and one request sent, as a client told to wait does
   * (`m.waited`, RATE-3); else probes. The first accepted answer. The second time (`record` false) the
   * key is probed from a second before Retry-After ends, which finds when it is free again to a
   * probe's interval (windowEdge): a burst then has nearly a whole window to stay inside one.
   */
  async function waitOut(refusal: Answer, record: boolean): Promise<Answer | undefined> {
    const wait = wholeSeconds(refusal.retryAfter) ? Number(refusal.retryAfter) : undefined;
    if (!record && wait !== undefined && wait <= longestWait(windowMs)) {
      noteWait(wait * 1000, `waiting the Retry-After of the 429 (${wait} s), probing in its last second`);
      await sleep(refusal.gotAt + (wait - 1) * 1000 - performance.now());
    } else if (wait !== undefined && wait <= longestWait(windowMs)) {
      const waitMs = wait * 1000 + WAIT_MARGIN_MS;
      noteWait(waitMs, `waiting the Retry-After of the 429 (${wait} s) before sending again`);
      await sleep(refusal.gotAt + waitMs - performance.now());
      const next = await send('rate');
      m.waited = { refusal, waitMs, next };
      if (ok(next)) return next;
    } else if (record) {
      m.notWaited = wait === undefined ? `Retry-After ${refusal.retryAfter === undefined ? 'missing' : `'${refusal.retryAfter}'`} is no number of seconds` : `Retry-After ${wait} s is longer than a window`;
    }
    noteWait(2 * windowMs, 'probing the rate-limit key until it is accepted again');
    const found = await probeUntilAccepted(performance.now() + 2 * windowMs + longestWait(windowMs) * 1000);
    if (!found && record) m.noWindow = `the key was not accepted again within ${((2 * windowMs) / 1000 + longestWait(windowMs)).toFixed(0)} s of its last 429`;
    return found;
  }

  /**
   * Step 4: one window from `accepted`, every slot taken (a burst whenever a probe is accepted, probes
   * every 1/60 of a window while refused). Nothing is sent in the window's last twentieth, so that
   * what is sent is answered inside it; what is answered after its end is counted apart.
   */
  async function countWindow(accepted: Answer): Promise<CountedWindow> {
    const start = accepted.sentAt;
    const end = start + windowMs;
    const stop = end - windowMs / QUIET_END;
    noteWait(windowMs, `counting what the rate-limit key is accepted over one window (${windowMs / 1000} s)`);
    paced ??= input.pacedMain?.();
    const second = await burst(stop);
    const inARow = { burst: 1 + second.accepted, burstMs: (second.refused?.gotAt ?? performance.now()) - start };
    m.perKey ??= await perKey();
    while (performance.now() < stop) {
      await sleep(Math.min(probeMs, stop - performance.now()));
      if (performance.now() >= stop) break;
      const probe = await send('rate');
      if (ok(probe)) await burst(stop);
      // A key refilled a token at a time (a bucket) may be accepted again before the bracket closes: tried at each refusal until one holds.
      else if (!m.perKey && probe.status === 429) m.perKey = await perKey();
    }
    // Every request of the window answered before the count.
    return { start, end, ...inARow, edge: windowEdge(m.answers, start, windowMs), ...countIn(m.answers, start, end), attempt: 1 };
  }
}

/** The window's last part (1/QUIET_END of it) in which the count sends nothing. */
export const QUIET_END = 20;

export interface CountedWindow extends WindowCount {
  start: number;
  end: number;
  /** Accepted in a row from `start` until the first 429, `burstMs` later. */
  burst: number;
  burstMs: number;
  /** The earliest the limiter's window holding `start` can end (windowEdge). */
  edge: number;
  /** 2 when the first count could not tell and a second window was counted. */
  attempt: 1 | 2;
}

// ---- What a measurement shows (pure: test/conformance/rate-window.test.ts) ----

export interface WindowCount {
  /** Accepted requests sent in the window and answered before its end: the limiter let them through inside it. */
  accepted: number;
  /** Accepted requests sent in the window and answered after its end: the limiter may have let them through after it. */
  uncertain: number;
  /** Refusals sent in the window and answered before its end: the key was refused inside it. */
  refused: number;
  /** From the last request sent in the window to its end: time in which the suite took no slot. */
  idleEndMs: number;
}

/** The answers of the rate-limit key over [start, end), each placed by when it left and when it was answered (the limiter decided in between). */
export function countIn(answers: readonly Answer[], start: number, end: number): WindowCount {
  const sent = answers.filter((a) => a.sentAt >= start && a.sentAt < end);
  const inside = sent.filter((a) => a.gotAt < end);
  return {
    accepted: inside.filter(ok).length,
    uncertain: sent.filter((a) => ok(a) && a.gotAt >= end).length,
    refused: inside.filter((a) => a.status === 429).length,
    idleEndMs: end - Math.max(start, ...sent.map((a) => a.sentAt)),
  };
}

/**
 * What a window's count says of the lower bound (at least the plan, less a tenth). A shortfall is the
 * deployment's only when it is certain: the key was refused inside the window, the suite kept sending
 * until its last tenth (a token bucket refills to the end: a tenth is the most the suite may leave
 * untaken), and even the accepted answers that came after the window's end would not make up for it.
 * - holds: at least that many were accepted inside the window;
 * - short: fewer, certainly (RATE-4 fails);
 * - undecided: enough only if answers that came after the end count (a slow machine: the suite cannot tell);
 * - too-slow: fewer, but the key was never refused in it, or the suite stopped sending early (its own failure).
 */
export type Floor = 'holds' | 'short' | 'undecided' | 'too-slow';

export const leastAccepted = (limit: number) => Math.floor(0.9 * limit + 1e-9);

export function windowFloor(w: WindowCount & { start: number; end: number }, limit: number): Floor {
  if (w.accepted >= leastAccepted(limit)) return 'holds';
  if (w.accepted + w.uncertain >= leastAccepted(limit)) return 'undecided';
  if (!w.refused || w.idleEndMs > (w.end - w.start) / 10) return 'too-slow';
  return 'short';
}

/** The most accepted in a row right after the wait: the plan, and a tenth. */
export const mostInARow = (limit: number) => Math.floor(1.1 * limit + 1e-9);

/**
 * The earliest the limiter's window holding `start` can end, for windows on the deployment's clock
 * (a burst answered before it stayed inside one window). That window began after every refusal of
 * the run just before `start` (sent after the last request accepted before it), and no sooner than
 * its Retry-After said, less the second of rounding up and the slack RATE-7 allows (and no later than
 * `start`: a Retry-After that overstates is RATE-7's failure, not a longer window). Probing the key
 * until it is accepted narrows this to a probe's interval; one wait of Retry-After, to about a second.
 */
export function windowEdge(answers: readonly Answer[], start: number, windowMs: number): number {
  const before = answers.filter((a) => a.sentAt < start);
  const lastAccepted = Math.max(-Infinity, ...before.filter(ok).map((a) => a.sentAt));
  const began = before.filter((a) => a.status === 429 && a.sentAt > lastAccepted).map((r) => {
    const said = wholeSeconds(r.retryAfter) && Number(r.retryAfter) <= longestWait(windowMs) ? Number(r.retryAfter) * 1000 - 1000 - CLOCK_SLACK_MS : 0;
    return Math.min(start, r.sentAt + Math.max(0, said));
  });
  return Math.max(start - windowMs, ...began) + windowMs;
}

/** Whether the burst after the wait (up to the 429 that ended it) was answered before the limiter's window could end. */
export const burstInOneWindow = (w: Pick<CountedWindow, 'burstMs' | 'start' | 'edge'>) => w.start + w.burstMs <= w.edge;

/** Whether a counted window gives RATE-4 a verdict on both bounds (else it is counted once more). */
export const windowTells = (w: CountedWindow, limit: number) => {
  const floor = windowFloor(w, limit);
  return (floor === 'holds' || floor === 'short') && (w.burst <= mostInARow(limit) || burstInOneWindow(w));
};


/** Slack of the clocks compared with Retry-After: a request's time at the deployment is somewhere between its send and its answer. */
export const CLOCK_SLACK_MS = 250;

/**
 * Refusals whose Retry-After said longer than the deployment really refused: the key was accepted
 * again more than a second (the rounding up) and the slack before it said. The gap is measured
 * generously (from the refused request's send to the accepted one's answer).
 */
export function overstated(answers: readonly Answer[]): Array<{ refusal: Answer; acceptedAfterMs: number }> {
  const out: Array<{ refusal: Answer; acceptedAfterMs: number }> = [];
  for (const r of answers) {
    if (r.status !== 429 || !wholeSeconds(r.retryAfter)) continue;
    const gaps = answers.filter((a) => ok(a) && a.sentAt >= r.gotAt).map((a) => a.gotAt - r.sentAt);
    if (!gaps.length) continue;
    const gap = Math.min(...gaps);
    if (Number(r.retryAfter) * 1000 > gap + 1000 + CLOCK_SLACK_MS) out.push({ refusal: r, acceptedAfterMs: gap });
  }
  return out;
}

/**
 * Requests refused although they were sent after the Retry-After of an earlier refusal had passed,
 * with no request of the key accepted in between (which would have spent what the wait freed).
 */
export function waitsThatFailed(answers: readonly Answer[]): Array<{ refusal: Answer; refused: Answer }> {
  const out: Array<{ refusal: Answer; refused: Answer }> = [];
  const accepted = answers.filter(ok);
  for (const later of answers) {
    if (later.status !== 429) continue;
    const refusal = answers.find((r) => r.status === 429 && wholeSeconds(r.retryAfter) && later.sentAt >= r.gotAt + Number(r.retryAfter) * 1000 + WAIT_MARGIN_MS
      && !accepted.some((a) => a.gotAt >= r.sentAt && a.sentAt <= later.gotAt));
    if (refusal) out.push({ refusal, refused: later });
  }
  return out;
}

/**
 * The most a correct limit of `limit` a window accepts over `ms` from any start: a fixed window
 * whose edges fall inside the span accepts its number in each window it touches; a token bucket
 * (capacity and refill the plan a window) accepts less. With the tolerance of a tenth.
 */
export const mostAccepted = (limit: number, windowMs: number, ms: number) => Math.floor(1.1 * limit * (Math.floor(ms / windowMs) + 2));
