// The arrivals loop on a clock the test owns (vitest's fake timers): every request fired once, in
// order, never before it is due, and a stall answered with a burst of the requests due meanwhile
// (an open model: the schedule is not stretched). No real time passes, so no machine can fail it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchArrivals } from '../../load/node/arrivals.ts';

beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] }); });
afterEach(() => { vi.useRealTimers(); });

describe('dispatchArrivals', () => {
  it('fires every request once, in order, never before its due time', async () => {
    const fired: Array<{ k: number; due: number; at: number }> = [];
    // 200 requests at uneven gaps (0.25 ms to 12 ms): both the timer and the setImmediate paths.
    const dueAt = (k: number) => k * 3 + (k % 7) * 0.5 + (k % 3 === 0 ? 9 : 0);
    const done = dispatchArrivals({ count: 200, dueAt, fire: (k, due, at) => fired.push({ k, due, at }) });
    await vi.runAllTimersAsync();
    const { sent } = await done;
    expect(sent).toBe(200);
    expect(fired.map((f) => f.k)).toEqual(Array.from({ length: 200 }, (_, k) => k));
    for (const f of fired) {
      expect(f.due).toBe(dueAt(f.k));
      expect(f.at, `request ${f.k}`).toBeGreaterThanOrEqual(f.due);
    }
  });

  it('after a stall, sends what fell due meanwhile at once, then keeps the schedule', async () => {
    let stall = 0;
    const fired: Array<{ k: number; due: number; at: number }> = [];
    const done = dispatchArrivals({
      count: 100,
      dueAt: (k) => k * 10,
      now: () => performance.now() + stall,
      fire: (k, due, at) => {
        fired.push({ k, due, at });
        // Request 20 blocks the loop for 95 ms: requests 21 to 29 fall due during it.
        if (k === 20) stall += 95;
      },
    });
    await vi.runAllTimersAsync();
    expect((await done).sent).toBe(100);
    const after = fired.filter((f) => f.k > 20 && f.k <= 29);
    // All nine go out in the same turn, right after the stall, late but not early.
    expect(new Set(after.map((f) => f.at)).size).toBe(1);
    for (const f of after) expect(f.at).toBeGreaterThanOrEqual(f.due);
    for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(f.due);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    let n = 0;
    const done = dispatchArrivals({ count: 100, dueAt: (k) => k * 10, signal: controller.signal, fire: () => { if (++n === 10) controller.abort(); } });
    await vi.runAllTimersAsync();
    expect((await done).sent).toBe(10);
  });
});
