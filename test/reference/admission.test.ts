// What a tenant's large requests take before their bodies are read (reference/server/admission.ts):
// a full tenant's create is refused without a parse, on a connection that stays usable; a tenant's
// large bodies take turns, and a client that gives up half-way does not hold the turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { KEYS, startHarness, TEST_KEYS, type Harness } from './harness.ts';
import { buildApp } from '../../reference/index.ts';
import { KeyRegistry } from '../../reference/platform/index.ts';
import { createMemoryStore } from '../../reference/store/index.ts';
import { LargeBodyGate } from '../../reference/server/admission.ts';

const FULL = 'mk_test_admission_full_0000001';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ keys: [...TEST_KEYS, { key: FULL, tenantId: 'full', plan: 'pro', quotas: { storedBytes: 10_000 } }] });
});
afterAll(() => h.close());

describe('before the body is read', () => {
  it('refuses a create that would pass the stored bytes by its announced length, unparsed, and the connection goes on', async () => {
    const agent = new Agent({ connections: 1 });
    try {
      // Not JSON at all: a parse would answer 400, so a 403 shows none was made.
      const garbage = 'x'.repeat(600_000);
      const refused = await request(`${h.url}/worlds`, { method: 'POST', dispatcher: agent, headers: { 'x-api-key': FULL, 'content-type': 'application/json' }, body: garbage });
      expect(refused.statusCode).toBe(403);
      expect(((await refused.body.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
      const next = await request(`${h.url}/worlds`, { method: 'POST', dispatcher: agent, headers: { 'x-api-key': FULL, 'content-type': 'application/json' }, body: JSON.stringify({ definition: { identity: { name: 'small' } } }) });
      expect(next.statusCode).toBe(201);
      await next.body.dump();
    } finally {
      await agent.close();
    }
  });
});

describe('large bodies of one tenant take turns', () => {
  const big = (n: number) => JSON.stringify({ definition: { identity: { name: `w${n}`, description: 'd'.repeat(200_000) } } });

  it('answers every one of many sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => h.raw('POST', '/worlds', { key: KEYS.b, body: big(n) })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
  });

  it('a client that stops half-way through its body does not keep the next one waiting', async () => {
    const { port } = new URL(h.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /worlds HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEYS.b}\r\nContent-Type: application/json\r\nContent-Length: 500000\r\n\r\n{"definition":`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    const after = await h.raw('POST', '/worlds', { key: KEYS.b, body: big(9) });
    expect(after.status).toBe(201);
  });
});

describe('a large body gives way to other requests', () => {
  // Counted in turns of the event loop, not timed: a ticker advances once per turn (setImmediate)
  // while the server, built in-process and fed by inject (no sockets, so no I/O makes turns of its
  // own), handles one request. A large body's steps each wait for a turn; a small body's do not.
  async function turnsFor(body: string): Promise<{ turns: number; status: number }> {
    const app = await buildApp({ store: createMemoryStore(), registry: new KeyRegistry(TEST_KEYS) });
    try {
      await app.ready();
      let turns = 0;
      let running = true;
      const tick = () => { if (running) { turns++; setImmediate(tick); } };
      setImmediate(tick);
      await new Promise((r) => setImmediate(r)); // the ticker is going
      const start = turns;
      const reply = await app.inject({ method: 'POST', url: '/worlds', headers: { 'x-api-key': KEYS.a, 'content-type': 'application/json' }, payload: body });
      running = false;
      return { turns: turns - start, status: reply.statusCode };
    } finally {
      await app.close();
    }
  }
  const world = (description: string) => JSON.stringify({ definition: { identity: { name: 'w', description } } });

  it('is decoded, parsed, validated and stored in turns of their own; a small one is not held up', async () => {
    const large = await turnsFor(world('d'.repeat(300_000)));
    const small = await turnsFor(world('small'));
    expect([large.status, small.status]).toEqual([201, 201]);
    // Four steps that wait: before the decode, before the parse, before validation, before the handler.
    expect(large.turns).toBeGreaterThanOrEqual(4);
    expect(small.turns).toBeLessThanOrEqual(1);
  });

  it("the next of a tenant's large bodies starts in a later turn than the one that let it go", async () => {
    const gate = new LargeBodyGate();
    const fake = () => {
      const close: Array<() => void> = [];
      return {
        request: { headers: { 'content-length': '100000' }, principal: { tenantId: 't' } },
        reply: { raw: { once: (_: string, f: () => void) => close.push(f) } },
        close: () => close.forEach((f) => f()),
      };
    };
    const first = fake();
    const second = fake();
    await gate.hook(first.request as never, first.reply as never);
    let started = false;
    const waiting = gate.hook(second.request as never, second.reply as never).then(() => { started = true; });
    first.close();
    for (let i = 0; i < 5; i++) await Promise.resolve(); // microtasks: the same turn
    await new Promise((r) => process.nextTick(r));
    expect(started).toBe(false);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    await waiting;
    expect(started).toBe(true);
  });
});
