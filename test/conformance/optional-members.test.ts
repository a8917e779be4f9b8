// What the FastAPI deployments of the self-test do with Optional members (anyOf [X, null] in their
// document), at the proxy, against an echo server that serves the reference's document: the legal one
// (frameworks.ts: null is the default, as pydantic has it) and the fault optional-member-unchecked
// (faults.ts: a value of another type taken for none). Only top-level Optional members are touched;
// a required member keeps whatever it was given, for the service to refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startFaultProxy, type FaultHooks } from '../../suite/self-test/proxy.ts';
import { FRAMEWORK_DOCUMENTS } from '../../suite/self-test/frameworks.ts';
import { FAULTS } from '../../suite/self-test/faults.ts';

const document = readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8');
let upstream: Server;
let base = '';
beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/openapi.json' ? document : JSON.stringify({ result: { received: body === '' ? null : JSON.parse(body) } }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => { upstream.close(() => r()); upstream.closeAllConnections(); }));

/** What the service behind the proxy received for each body sent, in order. */
async function received(hooks: FaultHooks, sent: Array<[string, unknown]>): Promise<unknown[]> {
  const proxy = await startFaultProxy(base, hooks, { keys: { mainKey: 'mk_test_main' } });
  try {
    const out: unknown[] = [];
    for (const [path, body] of sent) {
      const res = await request(proxy.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'mk_test_main' }, body: JSON.stringify(body) });
      out.push(((await res.body.json()) as { result: { received: unknown } }).result.received);
    }
    return out;
  } finally {
    await proxy.close();
  }
}

describe('a FastAPI deployment (the fastapi framework document)', () => {
  const hooks = FRAMEWORK_DOCUMENTS.find((d) => d.id === 'fastapi')!.hooks!;

  it('takes null for an Optional member as its default: left out, as if absent', async () => {
    expect(await received(hooks, [
      ['/personas/p1/perceive', { type: 'greeting', timestamp: null, spaceId: null }],
      ['/worlds/w1/time-jump', { seconds: null }],
    ])).toEqual([{ type: 'greeting' }, {}]);
  });

  it('leaves null on a required member, and every other value, to the service', async () => {
    expect(await received(hooks, [
      ['/worlds/w1/interact', { actionId: null, actor: 'user', target: 'ana' }],
      ['/personas/p1/perceive', { type: 'greeting', timestamp: 'not-a-number' }],
    ])).toEqual([{ actionId: null, actor: 'user', target: 'ana' }, { type: 'greeting', timestamp: 'not-a-number' }]);
  });
});

describe('the fault optional-member-unchecked', () => {
  const fault = FAULTS.find((f) => f.id === 'optional-member-unchecked')!;

  it('takes a wrong-typed Optional member for none, and only that', async () => {
    expect(await received(fault, [
      ['/personas/p1/perceive', { type: 'greeting', timestamp: 'not-a-number', spaceId: 12345 }],
      ['/personas/p1/perceive', { type: 'greeting', timestamp: 1700000000 }],
      ['/worlds/w1/interact', { actionId: 12345, actor: 'user', target: 'ana' }],
    ])).toEqual([{ type: 'greeting' }, { type: 'greeting', timestamp: 1700000000 }, { actionId: 12345, actor: 'user', target: 'ana' }]);
  });
});
