// The fault proxy itself, against a small echo server: what no hook touches goes through byte for
// byte; hooks rewrite requests and responses, answer without forwarding, and close() ends waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { json, operationOf, startFaultProxy, wait, type FaultHooks } from '../../suite/self-test/proxy.ts';
import { slowFault } from '../../suite/self-test/faults/helpers.ts';

let upstream: Server;
let base = '';
let hits = 0;
beforeAll(async () => {
  upstream = createServer((req, res) => {
    hits += 1;
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      if (req.url === '/spaced') {
        // Formatting a re-serialisation would lose.
        res.writeHead(200, { 'content-type': 'application/json', 'x-extra': 'kept' });
        res.end('{ "result" :  { "n": 1.50 } }');
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ method: req.method, url: req.url, key: req.headers['x-api-key'] ?? null, origin: req.headers.origin ?? null, body }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => { upstream.close(() => r()); upstream.closeAllConnections(); }));

async function through(hooks: FaultHooks, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const proxy = await startFaultProxy(base, hooks, { keys: { mainKey: 'mk_test_main' } });
  try {
    const res = await request(proxy.url + path, { method: (init.method ?? 'GET') as 'GET', headers: init.headers, body: init.body });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  } finally {
    await proxy.close();
  }
}

describe('fault proxy', () => {
  it('passes what no hook touches through unchanged: status, headers, body bytes, query, key and origin', async () => {
    const spaced = await through({}, '/spaced');
    expect(spaced.text).toBe('{ "result" :  { "n": 1.50 } }');
    expect(spaced.headers['x-extra']).toBe('kept');
    const echo = await through({}, '/worlds?limit=2&cursor=a%2Fb%3D', { method: 'POST', headers: { 'x-api-key': 'k1', origin: 'https://o.example', 'content-type': 'application/json' }, body: '{"a":  1}' });
    expect(echo.status).toBe(201);
    expect(JSON.parse(echo.text)).toEqual({ method: 'POST', url: '/worlds?limit=2&cursor=a%2Fb%3D', key: 'k1', origin: 'https://o.example', body: '{"a":  1}' });
  });

  it('passes the answer through byte for byte when only the request is hooked (it is then not parsed)', async () => {
    const spaced = await through({ request(req) { req.headers['x-seen'] = '1'; } }, '/spaced');
    expect(spaced.text).toBe('{ "result" :  { "n": 1.50 } }');
    const hooked = await through({ request() {}, response() {} }, '/spaced');
    expect(hooked.text, 'a response hook that changes nothing sends the original bytes too').toBe('{ "result" :  { "n": 1.50 } }');
  });

  it('rewrites the request: method, path, query, headers, JSON body', async () => {
    const echo = await through({
      request(req) {
        req.query.set('limit', '7');
        req.headers['x-api-key'] = 'swapped';
        delete req.headers.origin;
        (req.body as Record<string, unknown>).added = true;
      },
    }, '/worlds?limit=2', { method: 'POST', headers: { 'x-api-key': 'k1', origin: 'https://o.example', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(JSON.parse(echo.text)).toEqual({ method: 'POST', url: '/worlds?limit=7', key: 'swapped', origin: null, body: '{"a":1,"added":true}' });
  });

  it('answers without forwarding, and rewrites responses (status, headers, JSON body)', async () => {
    const before = hits;
    const answered = await through({ answer: () => json(200, { result: { ok: true } }) }, '/worlds/w1', { method: 'DELETE' });
    expect(answered).toMatchObject({ status: 200, text: '{"result":{"ok":true}}' });
    expect(hits).toBe(before);
    const rewritten = await through({
      response(res) { res.status = 500; res.headers['content-type'] = 'text/plain'; (res.body as Record<string, unknown>).method = 'changed'; },
    }, '/x');
    expect(rewritten.status).toBe(500);
    expect(rewritten.headers['content-type']).toBe('text/plain');
    expect(JSON.parse(rewritten.text).method).toBe('changed');
  });

  it('names the operation of SPEC.md a request is, with its path parameters', () => {
    expect(operationOf('POST', '/worlds/w%201/chat')).toEqual({ operationId: 'chat', params: { id: 'w 1' } });
    expect(operationOf('DELETE', '/worlds/w1/personas/ana')).toEqual({ operationId: 'removeWorldPersona', params: { id: 'w1', pid: 'ana' } });
    expect(operationOf('GET', '/openapi.json').operationId).toBe('getOpenApi');
    expect(operationOf('GET', '/nowhere').operationId).toBeUndefined();
  });

  it('delays with slowFault, and close() ends a pending wait at once', async () => {
    const t0 = Date.now();
    await through(slowFault(120), '/x');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    const proxy = await startFaultProxy(base, { request: (_req, ctx) => wait(60_000, ctx) });
    const pending = request(proxy.url + '/x').then(() => 'answered', () => 'dropped');
    await new Promise((r) => setTimeout(r, 50));
    const t1 = Date.now();
    await proxy.close();
    expect(await pending).toBe('dropped');
    expect(Date.now() - t1).toBeLessThan(2_000);
  });
});

describe('the fault proxy as the service it stands for', () => {
  // A front that pools its connections to the service (Apache httpd's mod_proxy reuses them without
  // limit) and sends a request on one the proxy has just closed answers its own 502 page: the proxy
  // must not close idle connections sooner than the reference would (its Keep-Alive header says when).
  it('keeps an idle connection at least as long as the reference (Fastify with its server options)', async () => {
    const { default: Fastify } = await import('fastify');
    const { fastifyServerOptions } = await import('../../reference/platform/errors.ts');
    const app = Fastify(fastifyServerOptions());
    app.get('/x', async () => ({ ok: true }));
    const service = await app.listen({ port: 0, host: '127.0.0.1' });
    const proxy = await startFaultProxy(service, {});
    const idle = async (url: string) => {
      const res = await request(`${url}/x`);
      await res.body.text();
      return Number(/timeout=(\d+)/.exec(String(res.headers['keep-alive']))?.[1]);
    };
    try {
      const [direct, proxied] = [await idle(service), await idle(proxy.url)];
      expect(direct, 'the reference says how long it keeps an idle connection').toBeGreaterThan(0);
      expect(proxied, 'seconds the proxy keeps an idle connection').toBeGreaterThanOrEqual(direct);
    } finally {
      await proxy.close();
      await app.close();
    }
  });
});
