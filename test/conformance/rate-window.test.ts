// The pure judgements of the rate-limit measurement (scenarios/support/rate-window.ts), on answers
// written by hand: a Retry-After longer than the refusal lasted, a wait that did not suffice, the
// most a correct limit accepts over a span, the longest Retry-After a per-window limit may give, what
// a counted window certainly shows of the plan's lower bound, and how long the limiter's window lasts.
import { describe, expect, it } from 'vitest';
import { burstInOneWindow, countIn, longestWait, mostAccepted, overstated, waitsThatFailed, wholeSeconds, windowEdge, windowFloor, type Answer } from '../../scenarios/support/rate-window.ts';

const answer = (sentAt: number, status: number, retryAfter?: string, latency = 5): Answer =>
  ({ who: 'rate', sentAt, gotAt: sentAt + latency, status, retryAfter, reply: undefined as never });
/** `n` accepted answers sent from `from`, `every` ms apart. */
const accepted = (n: number, from: number, every = 10, latency = 5) => Array.from({ length: n }, (_, i) => answer(from + i * every, 200, undefined, latency));

describe('Retry-After compared with what the deployment did', () => {
  it('a Retry-After of 3 s, accepted again 2.9 s later, is not overstated (a second of rounding up)', () => {
    expect(overstated([answer(0, 429, '3'), answer(2_900, 200)])).toEqual([]);
  });

  it('a Retry-After of a whole 60 s window, accepted again 2 s later, is overstated', () => {
    const found = overstated([answer(0, 429, '60'), answer(2_000, 200)]);
    expect(found).toHaveLength(1);
    expect(found[0].acceptedAfterMs).toBe(2_005);
  });

  it('a refusal never followed by an acceptance says nothing of its Retry-After', () => {
    expect(overstated([answer(0, 429, '3600')])).toEqual([]);
  });

  it('a request refused after the Retry-After passed, nothing accepted between, is a wait that failed', () => {
    const found = waitsThatFailed([answer(0, 429, '0'), answer(200, 429, '0')]);
    expect(found.map((f) => f.refused.sentAt)).toEqual([200]);
  });

  it('a refusal after an acceptance that spent what the wait freed is no failed wait', () => {
    expect(waitsThatFailed([answer(0, 429, '1'), answer(1_200, 200), answer(1_300, 429, '1')])).toEqual([]);
  });

  it('a refusal sent before the Retry-After passed is no failed wait', () => {
    expect(waitsThatFailed([answer(0, 429, '2'), answer(1_000, 429, '1')])).toEqual([]);
  });
});

describe('bounds of a correct limit', () => {
  it('over less than a window, at most the plan and a tenth on each side of one edge', () => {
    expect(mostAccepted(100, 60_000, 10_000)).toBe(220);
    expect(mostAccepted(100, 60_000, 60_000)).toBe(330);
  });

  it('Retry-After never longer than the window, rounded up, and a second', () => {
    expect(longestWait(60_000)).toBe(61);
    expect(longestWait(3_000)).toBe(4);
  });

  it('whole seconds only: digits, not milliseconds written as a fraction or a date', () => {
    expect(wholeSeconds('3')).toBe(true);
    expect(wholeSeconds('1.5')).toBe(false);
    expect(wholeSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBe(false);
    expect(wholeSeconds(undefined)).toBe(false);
  });
});

describe('a counted window and the lower bound (89 of a plan of 100 is short; 90 holds)', () => {
  const W = 3_000;
  const judge = (answers: Answer[]) => windowFloor({ start: 0, end: W, ...countIn(answers, 0, W) }, 100);

  it('89 accepted then refusals to the window\'s last tenth: short, certainly', () => {
    expect(judge([...accepted(89, 0), answer(900, 429, '3'), answer(2_800, 429, '1')])).toBe('short');
  });

  it('a probe sent before the end but answered after it (the limiter may have turned) does not count, and keeps the shortfall from being certain', () => {
    const answers = [...accepted(89, 0), answer(900, 429, '3'), answer(2_900, 200, undefined, 150)];
    expect(countIn(answers, 0, W)).toMatchObject({ accepted: 89, uncertain: 1, refused: 1 });
    expect(judge(answers)).toBe('undecided');
  });

  it('90 answered inside the window: holds', () => {
    expect(judge([...accepted(90, 0), answer(950, 429, '3')])).toBe('holds');
  });

  it('fewer, never refused: the suite sent too slowly (its own failure, not the deployment\'s)', () => {
    expect(judge(accepted(60, 0, 45))).toBe('too-slow');
  });

  it('fewer and refused, but nothing sent in the last 0.4 s of 3: a token bucket refilling to the end could have made it up (too slow)', () => {
    expect(judge([...accepted(80, 0), answer(850, 429, '1'), answer(2_600, 429, '1')])).toBe('too-slow');
  });
});

describe('how long the window that the burst after the wait began in is sure to last', () => {
  const W = 3_000;

  it('from a probe refused just before the key was free again: nearly a whole window', () => {
    const answers = [...accepted(100, -4_000), answer(-1_020, 429, '1'), answer(-60, 429, '1'), answer(0, 200)];
    expect(windowEdge(answers, 0, W)).toBe(W - 60);
  });

  it('from one wait of Retry-After: the window began no sooner than it said, less a second of rounding and the slack', () => {
    // Refused at -2,100 with Retry-After 2: free again no sooner than -2,100 + 2,000 - 1,250 = -1,350.
    expect(windowEdge([...accepted(100, -3_000, 5), answer(-2_100, 429, '2'), answer(0, 200)], 0, W)).toBe(W - 1_350);
  });

  it('no refusal since the last accepted request: nothing is known, the window may end at once', () => {
    expect(windowEdge([answer(-500, 429, '1'), answer(-100, 200), answer(0, 200)], 0, W)).toBe(0);
  });

  it('a Retry-After that overstates never makes the window longer than from the request that opened it', () => {
    expect(windowEdge([answer(-1_000, 429, '4'), answer(0, 200)], 0, W)).toBe(W);
  });

  it('a burst answered before that edge stayed in one window; one answered after it may span two', () => {
    expect(burstInOneWindow({ start: 0, burstMs: 1_600, edge: 1_650 })).toBe(true);
    expect(burstInOneWindow({ start: 0, burstMs: 1_700, edge: 1_650 })).toBe(false);
  });
});
