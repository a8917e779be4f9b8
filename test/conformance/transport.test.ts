// The transport's rules, in process and on loopback: which requests are sent again (an idempotent one
// that a stale keep-alive connection lost, nothing else), POST never twice, the size cap, and which
// proxy the environment names for a URL.
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { request } from 'undici';
import { transport } from '../../suite/http/transport.ts';
import { proxyFor } from '../../suite/http/proxy.ts';
import { whyFailed } from '../../suite/http/why.ts';
import { cutAnswers, GATHER_BYTES } from '../../suite/http/cut-answers.ts';
import { budget } from '../budget.ts';

const servers: Server[] = [];
afterAll(async () => { await Promise.all(servers.map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); }))); });

/** A server whose connections answer once, then close unanswered when the next request arrives (a close crossing a request). */
async function onceAConnection(): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const used = new WeakSet<Socket>();
  const server = createServer((req, res) => {
    if (used.has(req.socket)) { req.socket.destroy(); return; }
    used.add(req.socket);
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{}}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const send = async (url: string, method: string, maxBodyBytes?: number) => {
  const res = await request(url, { method: method as 'GET', body: method === 'GET' || method === 'DELETE' ? undefined : '{}', headers: { 'content-type': 'application/json' }, ...transport(method, maxBodyBytes) });
  await res.body.text();
  return res.statusCode;
};

describe('a request lost to a stale keep-alive connection', () => {
  it('is sent again on a new connection when its method is idempotent', async () => {
    const s = await onceAConnection();
    for (const method of ['GET', 'PUT', 'DELETE', 'GET']) expect(await send(`${s.url}/x`, method), method).toBe(200);
    // Every request reached the server once: the ones lost never reached it.
    expect(s.seen).toEqual(['GET /x', 'PUT /x', 'DELETE /x', 'GET /x']);
  });

  it('never happens to POST or PATCH: each goes on a connection of its own, and is sent once', async () => {
    const s = await onceAConnection();
    for (const method of ['GET', 'POST', 'PATCH', 'POST']) expect(await send(`${s.url}/y`, method), method).toBe(200);
    expect(s.seen).toEqual(['GET /y', 'POST /y', 'PATCH /y', 'POST /y']);
  });

  it('is a connection the target drops unanswered on its first request: not sent again, the target\'s failure', async () => {
    let requests = 0;
    const server = createServer((req) => { requests++; req.socket.destroy(); });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/z`;
    await expect(send(url, 'GET')).rejects.toMatchObject({ code: expect.stringMatching(/UND_ERR_SOCKET|ECONNRESET/) });
    expect(requests).toBe(1);
  });

  it('is never a 503 or a 429: a status is the target\'s answer, judged as it came', async () => {
    let requests = 0;
    const server = createServer((_req, res) => { requests++; res.writeHead(requests === 1 ? 503 : 429, { 'retry-after': '0' }).end(); });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    expect(await send(url, 'GET')).toBe(503);
    expect(await send(url, 'GET')).toBe(429);
    expect(requests).toBe(2);
  });
});

/**
 * A late-closing front, written on raw sockets so that nothing of Node's HTTP server softens it: it
 * answers one request on a connection, closes the connection 3 ms later, and drops unanswered any
 * request that arrives on it meanwhile (as a load balancer's idle timeout does).
 */
async function lateClosing(): Promise<{ url: string; answered: Map<string, number>; dropped: () => number }> {
  const answered = new Map<string, number>();
  let dropped = 0;
  const server = createTcpServer((socket) => {
    let buffer = Buffer.alloc(0);
    let closing = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      if (closing) { dropped++; return; }
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1');
      if (buffer.length < end + 4 + Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0)) return;
      const method = head.split(' ')[0];
      answered.set(method, (answered.get(method) ?? 0) + 1);
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 13\r\n\r\n${method === 'HEAD' ? '' : '{"result":{}}'}`);
      closing = true;
      setTimeout(() => socket.destroy(), 3);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/late`, answered, dropped: () => dropped };
}

describe('a front closing each connection 3 ms after its answer', () => {
  const METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'POST', 'PATCH'];

  it('loses no request of any method: each is answered once, however the closes cross the requests', async () => {
    const front = await lateClosing();
    const failed: string[] = [];
    for (const method of METHODS) {
      // One after another, 0 to 5 ms apart: requests meet connections at every moment of their close.
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, i % 6));
        try {
          const res = await request(front.url, { method: method as 'GET', body: method === 'GET' || method === 'HEAD' ? undefined : '{"a":1}', headers: { 'content-type': 'application/json' }, ...transport(method) });
          await res.body.text();
          if (res.statusCode !== 200) failed.push(`${method} → ${res.statusCode}`);
        } catch (err) {
          failed.push(`${method} → ${(err as Error & { code?: string }).code ?? (err as Error).message}`);
        }
      }
    }
    expect(failed).toEqual([]);
    // Each request reached the front once: the ones it dropped were sent again (idempotent ones), and
    // POST and PATCH, alone on their connections, were never dropped, so never sent twice.
    for (const method of METHODS) expect(front.answered.get(method), method).toBe(30);
    process.stdout.write(`  requests the late-closing front dropped as it closed: ${front.dropped()}\n`);
  }, budget(60_000));

  it('sends HEAD and OPTIONS again when a stale connection lost them, as GET', async () => {
    const s = await onceAConnection();
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'HEAD', 'OPTIONS']) {
      const res = await request(`${s.url}/h`, { method: method as 'GET', ...transport(method) });
      await res.body.text();
      expect(res.statusCode, method).toBe(200);
    }
    expect(s.seen).toEqual(['GET /h', 'HEAD /h', 'OPTIONS /h', 'HEAD /h', 'OPTIONS /h']);
  });
});

describe('the size cap', () => {
  it('stops reading past it, and says so', async () => {
    const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(Buffer.alloc(300_000, 'x')); });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const err = await send(url, 'GET', 100_000).catch((e: unknown) => e);
    expect(whyFailed(err, { url, maxBodyBytes: 100_000 })).toBe('the answer is larger than 0.1 MB (--max-body-mb): it was not read further');
    expect(await send(url, 'GET', 400_000)).toBe(200);
  });

  it('has what cut answers read collected once 24 MB of them has gathered (GET and POST alike)', async () => {
    const cap = 8 * 2 ** 20;
    const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(Buffer.alloc(cap + 1, 'x')); });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Cuts until a collection: it comes at the cut that brings what gathered to 24 MB, not before.
    // The connection's close reaches the transport a moment after the request's error: waited for.
    const start = cutAnswers();
    const cutsNeeded = Math.ceil((GATHER_BYTES - start.gathered) / cap);
    for (let cut = 1; cut <= cutsNeeded; cut++) {
      await expect(send(url, cut % 2 ? 'GET' : 'POST', cap)).rejects.toMatchObject({ code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
      const expected = cut === cutsNeeded
        ? { collections: start.collections + 1, gathered: 0 }
        : { collections: start.collections, gathered: start.gathered + cut * cap };
      await vi.waitFor(() => expect(cutAnswers(), `after cut ${cut} of ${cutsNeeded}`).toEqual(expected), { timeout: budget(5_000), interval: 10 });
    }
    expect(cutAnswers().gathered).toBe(0);
    // A whole answer under the cap is not a cut: nothing gathers.
    expect(await send(url, 'GET', cap + 2)).toBe(200);
    expect(cutAnswers().gathered).toBe(0);
    // Nor is a connection the target drops half-way through an answer under the cap.
    const dropping = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' }); res.write('{"result":'); setTimeout(() => res.socket?.destroy(), 20); });
    servers.push(dropping);
    await new Promise<void>((r) => dropping.listen(0, '127.0.0.1', r));
    await expect(send(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}`, 'POST', cap)).rejects.toBeDefined();
    await new Promise((r) => setTimeout(r, 50));
    expect(cutAnswers()).toEqual({ collections: start.collections + 1, gathered: 0 });
  });
});

describe('the proxy for a URL', () => {
  const saved = { ...process.env };
  afterEach(() => { for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) { if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k]; } });
  const set = (env: Record<string, string>) => {
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) delete process.env[k];
    Object.assign(process.env, env);
  };

  it('is HTTPS_PROXY for https, HTTP_PROXY for http (and for https without HTTPS_PROXY), in either case', () => {
    set({ HTTPS_PROXY: 'http://secure:3128', http_proxy: 'http://plain:3128' });
    expect(proxyFor('https://staging.example')).toEqual({ shown: 'http://secure:3128', from: 'HTTPS_PROXY' });
    expect(proxyFor('http://staging.example')).toEqual({ shown: 'http://plain:3128', from: 'HTTP_PROXY' });
    set({ HTTP_PROXY: 'http://plain:3128' });
    expect(proxyFor('https://staging.example')?.from).toBe('HTTP_PROXY');
  });

  it('is none for loopback, for what NO_PROXY names (a host, a .suffix, host:port) and for NO_PROXY=*', () => {
    set({ HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: 'internal.example, .corp, api.example:8443' });
    for (const url of ['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:80', 'https://internal.example', 'https://a.b.corp', 'https://api.example:8443']) expect(proxyFor(url), url).toBeUndefined();
    for (const url of ['https://api.example', 'https://staging.example', 'http://corp.example']) expect(proxyFor(url), url).toBeDefined();
    set({ HTTPS_PROXY: 'http://p:1', NO_PROXY: '*' });
    expect(proxyFor('https://staging.example')).toBeUndefined();
  });

  it('never shows the proxy\'s user and password', () => {
    set({ HTTPS_PROXY: 'http://alice:s3cret@proxy.corp:3128' });
    expect(proxyFor('https://staging.example')?.shown).toBe('http://proxy.corp:3128 (credentials not shown)');
  });
});
