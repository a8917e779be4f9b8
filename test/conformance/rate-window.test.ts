// The pure judgements of the rate-limit measurement (scenarios/support/rate-window.ts), on answers
// written by hand: a Retry-After longer than the refusal lasted, a wait that did not suffice, the
// most a correct limit accepts over a span, the longest Retry-After a per-window limit may give.
import { describe, expect, it } from 'vitest';
import { longestWait, mostAccepted, overstated, waitsThatFailed, wholeSeconds, type Answer } from '../../scenarios/support/rate-window.ts';

const answer = (sentAt: number, status: number, retryAfter?: string): Answer =>
  ({ who: 'rate', sentAt, gotAt: sentAt + 5, status, retryAfter, reply: undefined as never });

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
