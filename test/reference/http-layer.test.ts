// Errors raised below the routes (malformed HTTP, over-long URL or headers, missing Host, slow
// headers or bodies) still answer with the error envelope, and a request that trickles in is ended
// by a timeout instead of holding its socket for ever.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, startHarness, type Harness } from './harness.ts';

const TIMEOUT_MS = 1_000;
let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startHarness({ requestTimeoutMs: TIMEOUT_MS });
  port = Number(new URL(h.url).port);
});
afterAll(async () => h.close());

/** Writes raw bytes (in parts, with pauses) and reads until the server closes or `waitMs` passes. */
function raw(parts: string[], { pauseMs = 0, waitMs = 5_000 } = {}): Promise<{ status: number; headers: string; body: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no answer within ${waitMs} ms: ${JSON.stringify(data.slice(0, 200))}`)); }, waitMs);
    socket.on('data', (chunk) => { data += chunk.toString('utf8'); });
    socket.on('error', () => { /* the server may reset after answering */ });
    socket.on('close', () => {
      clearTimeout(timer);
      const [head, ...rest] = data.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n'), closedAfterMs: Date.now() - started });
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        socket.write(part);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    });
  });
}

function expectEnvelope(reply: { status: number; headers: string; body: string }, status: number) {
  expect(reply.status, reply.headers).toBe(status);
  expect(reply.headers.toLowerCase()).toContain('content-type: application/json');
  const body = JSON.parse(reply.body);
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
}

const host = 'Host: 127.0.0.1\r\n';
const key = `X-API-Key: ${KEYS.a}\r\n`;

describe('malformed HTTP', () => {
  it('answers a duplicate Content-Length with 400 in the envelope', async () => {
    expectEnvelope(await raw([`POST /worlds HTTP/1.1\r\n${host}${key}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`]), 400);
  });
  it('answers a space in the path with 400 in the envelope', async () => {
    expectEnvelope(await raw([`GET /wor lds HTTP/1.1\r\n${host}${key}\r\n`]), 400);
  });
  it('answers a bad chunk with 400 in the envelope', async () => {
    expectEnvelope(await raw([`POST /worlds HTTP/1.1\r\n${host}${key}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`]), 400);
  });
  it('answers a URL over 16 KB with 431 or 414 in the envelope', async () => {
    const reply = await raw([`GET /worlds?x=${'a'.repeat(17_000)} HTTP/1.1\r\n${host}${key}\r\n`]);
    expect([414, 431]).toContain(reply.status);
    expectEnvelope(reply, reply.status);
  });
  it('answers headers over 16 KB with 431 in the envelope', async () => {
    expectEnvelope(await raw([`GET /worlds HTTP/1.1\r\n${host}${key}X-Big: ${'b'.repeat(17_000)}\r\n\r\n`]), 431);
  });
  it('answers a request without Host with 400 in the envelope', async () => {
    expectEnvelope(await raw([`GET /worlds HTTP/1.1\r\n${key}Connection: close\r\n\r\n`]), 400);
  });
});

describe('timeouts', () => {
  it('answers headers that never end with 408 in the envelope, within the request timeout', async () => {
    const reply = await raw([`GET /worlds HTTP/1.1\r\n${host}`, 'X-Slow: 1\r\n'], { pauseMs: 100, waitMs: TIMEOUT_MS * 5 });
    expectEnvelope(reply, 408);
    expect(reply.closedAfterMs).toBeLessThan(TIMEOUT_MS * 4);
  });
  it('ends a body that trickles in, answering 408 in the envelope', async () => {
    const head = `POST /worlds HTTP/1.1\r\n${host}${key}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const reply = await raw([head, '{"defin', 'ition":'], { pauseMs: 200, waitMs: TIMEOUT_MS * 5 });
    expectEnvelope(reply, 408);
    expect(reply.closedAfterMs).toBeLessThan(TIMEOUT_MS * 4);
  });
  it('still answers an ordinary request on the same server', async () => {
    expect((await h.call('listWorlds')).status).toBe(200);
  });
});

describe('a body on a request that takes none (issue 32: GET /openapi.json with 38 KB, behind nginx)', () => {
  // nginx talks to its upstream with `Connection: close`; a server that answers before reading the
  // body closes a socket with unread bytes, the kernel sends a reset, and nginx's answer is cut.
  it('reads the body before it answers and closes, so the whole answer arrives and no reset', async () => {
    const body = 'x'.repeat(38_000);
    const outcome = await new Promise<{ early: number; data: Buffer; error?: string }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let early = -1, error: string | undefined;
      const timer = setTimeout(() => { socket.destroy(); reject(new Error('no end of the answer within 5 s')); }, 5_000);
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', (e: NodeJS.ErrnoException) => { error = e.code ?? e.message; });
      socket.on('close', () => { clearTimeout(timer); resolve({ early, data: Buffer.concat(chunks), error }); });
      socket.on('connect', () => {
        socket.write(`GET /openapi.json HTTP/1.1\r\n${host}Connection: close\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1_000)}`);
        // The rest comes later: an answer before it means the body was not read first.
        setTimeout(() => { early = Buffer.concat(chunks).length; socket.write(body.slice(1_000)); }, 500);
      });
    });
    expect(outcome.early, 'bytes answered before the body was whole').toBe(0);
    expect(outcome.error, 'socket error').toBeUndefined();
    const text = outcome.data.toString('utf8');
    const [head] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    expect(outcome.data.length - Buffer.byteLength(head) - 4).toBe(length);
    expect(() => JSON.parse(outcome.data.subarray(Buffer.byteLength(head) + 4).toString('utf8'))).not.toThrow();
  });
});
