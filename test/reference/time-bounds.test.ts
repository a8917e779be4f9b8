// Simulated time stays finite and every advance ends: a world's elapsed time and a persona's clock
// have a ceiling (an advance past it is refused, 400, and changes nothing), so no step is lost to
// rounding and nothing non-finite is stored or served (docs/interface-choices.md, "Time").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { psyche } from '../../reference/engine/psyche/index.ts';
import { expectError, startHarness, type Harness } from './harness.ts';
import { advance, newWorld, type WorldDoc } from '../../reference/engine/world/index.ts';
import { SINGLE_STEP_TICK_SECONDS } from '../../reference/engine/world/simulate.ts';
import { MAX_ELAPSED_SECONDS } from '../../reference/engine/world/limits.ts';
import { getOwn } from '../../reference/engine/keyed.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const YEAR = 31_536_000;

async function world(ratio: number) {
  const created = await h.call('createWorld', { body: {
    definition: { identity: { name: 'Clock' }, time: { type: 'accelerated', ratio } },
    entities: [{ name: 'mara', type: 'persona' }, { name: 'me', type: 'user' }],
  } });
  expect(created.status).toBe(201);
  return { id: created.body.result.worldId as string };
}

/** Every number of a JSON value, with its path; a null where a number was is reported as such. */
function nonFinite(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => nonFinite(v, `${path}/${i}`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${path}/${k}`));
  return [];
}

describe('a world\'s time has a ceiling', () => {
  it('refuses a tick that would take the world past it, then still ticks (ratio 1e20)', async () => {
    const params = await world(1e20);
    expectError(await h.call('tickWorld', { params, body: { seconds: YEAR } }), 400, 'VALIDATION_ERROR');
    const snap = (await h.call('getWorldSnapshot', { params })).body.result;
    expect(snap.progression.elapsedTime).toBe(0);
    await h.call('updateWorld', { params, body: { definition: { time: { ratio: 1 } } } });
    const tick = await h.call('tickWorld', { params, body: { seconds: 3e-8 } });
    expect(tick.status).toBe(200);
    expect(tick.body.result.elapsedTime).toBeGreaterThan(0);
  });

  it('ends a tiny tick on a world far in time (elapsed near the ceiling)', async () => {
    const params = await world(1e4);
    for (let i = 0; i < 3; i++) expect((await h.call('tickWorld', { params, body: { seconds: YEAR } })).status).toBe(200);
    const before = (await h.call('getWorldSnapshot', { params })).body.result.progression.elapsedTime;
    expect(before).toBeGreaterThan(9e11);
    await h.call('updateWorld', { params, body: { definition: { time: { ratio: 1 } } } });
    const tiny = await h.call('tickWorld', { params, body: { seconds: 3e-8 } });
    expect(tiny.status).toBe(200);
    const long = await h.call('tickWorld', { params, body: { seconds: 100_000 } });
    expect(long.status).toBe(200);
    expect(long.body.result.elapsedTime).toBe(before + 3e-8 + 100_000);
  });

  it('refuses a ratio of 1e308 with a maximum tick instead of storing Infinity', async () => {
    const params = await world(1e308);
    expectError(await h.call('tickWorld', { params, body: { seconds: YEAR } }), 400, 'VALIDATION_ERROR');
    expectError(await h.call('timeJump', { params, body: { seconds: YEAR } }), 400, 'VALIDATION_ERROR');
    const snap = (await h.call('getWorldSnapshot', { params })).body.result;
    expect(nonFinite(snap).filter((p) => !p.includes('/payload'))).toEqual([]);
  });

  it('refuses an imported elapsedTime past the ceiling', async () => {
    const params = await world(1);
    const snap = (await h.call('getWorldSnapshot', { params })).body.result;
    const broken = { ...snap, progression: { ...snap.progression, elapsedTime: 1e20 } };
    expectError(await h.call('putWorldSnapshot', { params, body: { snapshot: broken } }), 400, 'VALIDATION_ERROR');
    expect((await h.call('tickWorld', { params, body: { seconds: 100_000 } })).status).toBe(200);
  });
});

describe('a persona\'s clock has a ceiling', () => {
  it('refuses a tick past it and keeps every number finite', async () => {
    const created = await h.call('createPersona', { body: { config: { identity: { name: 'Solo' } } } });
    const params = { id: created.body.result.personaId };
    // A percept stamped near the ceiling is pending; ticks toward it stay finite.
    expect((await h.call('perceive', { params, body: { type: 'far', timestamp: 8e15 } })).status).toBe(200);
    expectError(await h.call('perceive', { params, body: { type: 'too far', timestamp: 1e300 } }), 400, 'VALIDATION_ERROR');
    for (let i = 0; i < 3; i++) expect((await h.call('tickPersona', { params, body: { seconds: YEAR } })).status).toBe(200);
    const snap = (await h.call('getPersonaSnapshot', { params })).body.result;
    expect(nonFinite(snap)).toEqual([]);
  });
});

describe('advance, on the engine', () => {
  const newOne = () => newWorld({ definition: { identity: { name: 'E' } }, entities: [{ name: 'mara', type: 'persona' }] }, 'w', 1_000);

  it('refuses to advance a world stored past the ceiling instead of looping for ever', () => {
    const w = newOne();
    w.progression.elapsedTime = 1e20;
    expect(() => advance(w, 100_000, 'tick')).toThrow(/elapsed time/);
    expect(w.progression.elapsedTime).toBe(1e20);
  });

  it('ends an advance whose steps rounding would make empty', () => {
    const w = newOne();
    w.progression.elapsedTime = MAX_ELAPSED_SECONDS - 1;
    expect(advance(w, 0.5, 'tick').result.elapsedTime).toBe(MAX_ELAPSED_SECONDS - 0.5);
    expect(advance(w, 1e-9, 'tick').result.elapsedTime).toBe(MAX_ELAPSED_SECONDS - 0.5 + 1e-9);
  });

  it('moves a tick longer than four hours in one step, so its cost does not grow with seconds', () => {
    // Counted at the psyche: one elapse per persona per step (the emotion history keeps only samples
    // that moved, so its length no longer counts steps).
    const steps = (seconds: number) => {
      const w = newOne();
      const spy = vi.spyOn(psyche, 'elapse');
      try { advance(w, seconds, 'tick'); return spy.mock.calls.length; } finally { spy.mockRestore(); }
    };
    expect(steps(SINGLE_STEP_TICK_SECONDS)).toBe(100);
    expect(steps(YEAR)).toBe(1);
  });
});
