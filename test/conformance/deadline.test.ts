// Cleanup's requests end at their deadline whatever the collector does meanwhile, and at once when
// abandoned (suite/http/deadline.ts). On Node 20, AbortSignal.any([AbortSignal.timeout(ms), other])
// lost its timeout to a garbage collection, and a cleanup against a target that drip-feeds its
// answers waited forever.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { getJson } from '../../suite/run/sweep.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const servers: Server[] = [];
afterAll(async () => { await Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); }))); });

/** Answers 200 and then a space every 100 ms, never finishing. */
async function drip(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 100);
    res.on('close', () => clearInterval(timer));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The request's outcome, or 'still waiting' when it has not ended after a bound far past its deadline. */
async function within<T>(work: Promise<T>, boundMs: number): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still waiting'>((r) => { timer = setTimeout(() => r('still waiting'), boundMs); });
  try { return await Promise.race([work, bound]); } finally { clearTimeout(timer); }
}

describe('a cleanup request to a target that never finishes its answer', () => {
  it('ends at its deadline though the collector runs meanwhile', async () => {
    const baseUrl = await drip();
    const abandon = new AbortController();
    const collecting = setInterval(gc, 20);
    try {
      const outcome = await within(getJson({ baseUrl, apiKey: 'k', runId: 'r', timeoutMs: 300, until: Date.now() + 60_000, abandon: abandon.signal }, '/worlds'), 10_000);
      expect(outcome).toEqual({ status: 0, why: 'no answer in time' });
    } finally {
      clearInterval(collecting);
    }
  });

  it('ends when abandoned, with the reason it was given', async () => {
    const baseUrl = await drip();
    const abandon = new AbortController();
    setTimeout(() => abandon.abort(new Error('abandoned by a second Ctrl-C')), 200);
    const outcome = await within(getJson({ baseUrl, apiKey: 'k', runId: 'r', timeoutMs: 30_000, until: Date.now() + 60_000, abandon: abandon.signal }, '/worlds'), 10_000);
    expect(outcome).toEqual({ status: 0, why: 'abandoned by a second Ctrl-C' });
  });
});
