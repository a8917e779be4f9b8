// A long advance of a large world runs in slices: another tenant is answered while it runs, and a
// change of the same world waits for it, so neither is lost (reference/server/exclusive.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEYS, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

it('answers another tenant during a one-year tick of 400 personas, and queues a chat of that world behind it', async () => {
  const entities = [...Array.from({ length: 400 }, (_, n) => ({ name: `p${n}`, type: 'persona' })), { name: 'me', type: 'user' }];
  const created = await h.call('createWorld', { body: { definition: { identity: { name: 'Crowd' } }, entities } });
  const params = { id: created.body.result.worldId };
  const order: string[] = [];
  const tick = h.call('tickWorld', { params, body: { seconds: 31_536_000 } }).then((r) => { order.push('tick'); return r; });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const chat = h.call('chat', { params, body: { from: 'me', to: 'p0', message: 'hello' } }).then((r) => { order.push('chat'); return r; });
  const other = h.call('listWorlds', { key: KEYS.b }).then((r) => { order.push('other tenant'); return r; });
  const [t, c, o] = await Promise.all([tick, chat, other]);
  expect([t.status, c.status, o.status]).toEqual([200, 200, 200]);
  expect(order).toEqual(['other tenant', 'tick', 'chat']);
  // Both changes are kept: the chat happened after the year had passed.
  const snap = (await h.call('getWorldSnapshot', { params })).body.result;
  expect(snap.progression.elapsedTime).toBe(31_536_000);
  expect(snap.recentEvents.at(-1)).toMatchObject({ type: 'chat', timestamp: snap.createdAt + 31_536_000_000 });
});
