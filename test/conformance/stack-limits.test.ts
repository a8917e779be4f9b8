// An answer the HTTP stack in front of a service gives to an oversize request (suite/data/stack-limits.ts)
// is the stack's: never judged as the service's envelope or contract, nor as "no answer" when the stack
// ends the connection. The same answer to a request of ordinary size is the service's, and fails.
import { describe, expect, it } from 'vitest';
import { bundledContract, loadDocuments } from '../../suite/checks/documents.ts';
import { inspect } from '../../suite/checks/response.ts';
import { expectNo5xx } from '../../suite/generate/probe.ts';
import { TransportFailure } from '../../suite/data/failure.ts';
import { requestSize, stackHangUp } from '../../suite/data/stack-limits.ts';
import type { Exchange } from '../../suite/data/exchange.ts';
import fc from 'fast-check';
import { generatedOperations, passesStacks, requestsFor, resolve, short } from '../../suite/generate/requests.ts';

const docs = await loadDocuments(bundledContract(), bundledContract());
const { bundled, served } = docs.validators;
const headers = { accept: 'application/json', 'x-api-key': 'mk_test_0000000000000000' };
const LONG_URL = `http://127.0.0.1:8080/worlds/${'x'.repeat(6_000)}`;
const SHORT_URL = 'http://127.0.0.1:8080/worlds/nonexistent';
const NGINX_414 = '<html>\r\n<head><title>414 Request-URI Too Large</title></head>\r\n<body>\r\n<center><h1>414 Request-URI Too Large</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';

/** What the per-response checks say of an answer to GET /worlds/{id} at this URL. */
function judged(url: string, status: number, contentType: string | undefined, text: string, body?: string) {
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : undefined; } catch { /* text */ }
  return inspect({
    method: 'GET', operation: { operationId: 'getWorld', path: '/worlds/{id}' }, status, contentType, body: parsed, text, bundled, served,
    size: requestSize('GET', url, headers, body),
  });
}

describe('an answer of the HTTP stack to an oversize request', () => {
  it.each([
    ['nginx 414 HTML', 414, 'text/html', NGINX_414],
    ["Node's 431 with no body", 431, undefined, ''],
    ["uvicorn's 400 text/plain", 400, 'text/plain; charset=utf-8', 'Invalid HTTP request received.'],
  ])('%s is reported as refused by the stack, not as an envelope or contract failure', (_label, status, contentType, text) => {
    const x = judged(LONG_URL, status, contentType, text);
    expect(x.problems).toEqual({});
    expect(x.refusedByStack).toMatch(/^refused by the HTTP stack before the service: \d{3} .* to a request line (and headers )?of 6,\d{3} bytes/);
    // The checks that applied say why they could not look.
    expect(Object.keys(x.notChecked ?? {})).toEqual(expect.arrayContaining(['ENV-2', 'CONTRACT-2']));
  });

  it('413 HTML to a request with a body is refused by the stack too', () => {
    const x = judged(SHORT_URL, 413, 'text/html', '<html><body>413 Request Entity Too Large</body></html>', 'x'.repeat(150_000));
    expect(x.problems).toEqual({});
    expect(x.refusedByStack).toMatch(/413 \(text\/html\) to a body of 150,000 bytes/);
  });
});

describe('an answer of the HTTP stack to a path it refuses (measured: Apache httpd 2.4, lighttpd 1.4)', () => {
  const APACHE_404 = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN"><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
  const inspectAt = (url: string, status: number, server?: string) => inspect({
    method: 'GET', status, contentType: 'text/html', body: APACHE_404, text: APACHE_404, bundled, served, size: requestSize('GET', url, headers, undefined), server,
  });

  it.each([
    ["Apache's 404 page to an id holding %2F", 'http://127.0.0.1:8080/worlds/a%2Fb', 404, 'Apache/2.4.71 (Debian)', /404 \(text\/html, Server: Apache\/2\.4\.71 \(Debian\)\) to a path holding an encoded slash/],
    ["lighttpd's 400 page to an id holding an encoded control character", 'http://127.0.0.1:8080/worlds/a%01', 400, 'lighttpd/1.4.69', /400 \(text\/html, Server: lighttpd\/1\.4\.69\) to a path holding a control character/],
    ["lighttpd's 400 page to %7F", 'http://127.0.0.1:8080/personas/a%7F', 400, undefined, /400 \(text\/html\) to a path holding a control character/],
  ])('%s is the stack\'s, naming it', (_label, url, status, server, why) => {
    const x = inspectAt(url, status, server);
    expect(x.problems).toEqual({});
    expect(x.refusedByStack).toMatch(why);
  });

  it.each([
    ['a 404 page to a path without %2F', 'http://127.0.0.1:8080/worlds/a%01', 404],
    ['a 400 page to %2F (Apache answers 404)', 'http://127.0.0.1:8080/worlds/a%2Fb', 400],
    ['a 404 page to a plain id', SHORT_URL, 404],
  ])('%s is the service\'s answer: its envelope is judged (ENV-2)', (_label, url, status) => {
    const x = inspectAt(url, status);
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toContain('ENV-2');
  });
});

describe('controls: what is still the service\'s answer', () => {
  it('an HTML 400 to a request of ordinary size breaks the envelope (ENV-2, ENV-3)', () => {
    const x = judged(SHORT_URL, 400, 'text/html', '<html>Bad Request</html>');
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toEqual(expect.arrayContaining(['ENV-2', 'ENV-3']));
  });

  it('a JSON 414 to an oversize request is the service\'s answer, judged as such', () => {
    const x = judged(LONG_URL, 414, 'application/json', '{"message":"too long"}');
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toContain('ENV-2');
  });

  it('a 413 HTML to a request without a body, or a 400 HTML to a short URL, is the service\'s', () => {
    expect(judged(SHORT_URL, 413, 'text/html', '<html>413</html>').refusedByStack).toBeUndefined();
    expect(Object.keys(judged(SHORT_URL, 413, 'text/html', '<html>413</html>').problems)).toContain('ENV-2');
  });

  // A stack refusal is excused only for a request with the property its status is about: its size.
  it.each([
    ['413 HTML to a 13-byte body', 413, 'text/html', '<html>413 Request Entity Too Large</html>', SHORT_URL, '{"seconds":1}'],
    ['413 HTML to a body of 8 KiB', 413, 'text/html', '<html>413 Request Entity Too Large</html>', SHORT_URL, 'x'.repeat(8 * 1024)],
    ['431 without a body to a short GET', 431, undefined, '', SHORT_URL, undefined],
    ['414 HTML to a short GET', 414, 'text/html', NGINX_414, SHORT_URL, undefined],
    ['414 HTML to a short URL with a large body', 414, 'text/html', NGINX_414, SHORT_URL, 'x'.repeat(150_000)],
  ])('%s is the service\'s answer: its envelope is judged (ENV-2)', (_label, status, contentType, text, url, body) => {
    const x = judged(url, status, contentType, text, body);
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toContain('ENV-2');
  });

  it('431 without a body to a request whose headers pass 4 KiB is the stack\'s; a 414 to it is not (its URL is short)', () => {
    const big = requestSize('GET', SHORT_URL, { ...headers, cookie: 'c'.repeat(5_000) }, undefined);
    const ask = (status: number) => inspect({ method: 'GET', operation: { operationId: 'getWorld', path: '/worlds/{id}' }, status, contentType: undefined, body: undefined, text: '', bundled, served, size: big });
    expect(ask(431).refusedByStack).toMatch(/431 \(no body\) to a request line and headers of 5,\d{3} bytes/);
    expect(ask(414).refusedByStack).toBeUndefined();
  });

  it('a 500 HTML to an oversize request is the service\'s (or its stack\'s) failure', () => {
    const x = judged(LONG_URL, 500, 'text/html', '<html>Internal Server Error</html>');
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toContain('ENV-2');
  });
});

describe('a connection the stack ends on an oversize request', () => {
  const failure = (refusedByStack: string | undefined) => new TransportFailure({
    title: 'no answer', received: 'HTTPParserError: Invalid EOF state',
    exchange: { method: 'GET', url: LONG_URL, requestHeaders: {}, status: 0, responseHeaders: {}, responseBody: '', durationMs: 1, checked: [], problems: {}, ...(refusedByStack ? { refusedByStack } : {}) } satisfies Exchange,
  });

  it('is the stack\'s refusal: the generated area does not count it as no answer (ENV-4, GEN-1)', () => {
    const why = stackHangUp(requestSize('GET', LONG_URL, headers, undefined), 'HTTPParserError: Invalid EOF state');
    expect(why).toMatch(/^refused by the HTTP stack before the service: the connection ended without a complete answer/);
    expect(() => expectNo5xx(failure(why), 'GET /worlds/xxx [long-url]', 'ENV-4')).not.toThrow();
  });

  it('is the target\'s failure on a request of ordinary size', () => {
    expect(stackHangUp(requestSize('GET', SHORT_URL, headers, undefined), 'UND_ERR_SOCKET: other side closed')).toBeUndefined();
    expect(() => expectNo5xx(failure(undefined), 'GET /worlds/nonexistent', 'ENV-4')).toThrow(/no answer in time/);
  });
});

describe('a path a stock stack refuses before the service', () => {
  it.each(['/personas/..%2F..', '/personas/%2E%2E%2F%2E%2E', '/personas/%00', '/personas/%'])('%s answered 400 HTML by nginx is the stack\'s refusal', (path) => {
    const x = judged(`http://127.0.0.1:8080${path}`, 400, 'text/html', '<html><head><title>400 Bad Request</title></head></html>');
    expect(x.problems).toEqual({});
    expect(x.refusedByStack).toMatch(/^refused by the HTTP stack before the service: 400 \(text\/html\) to a path/);
  });

  it.each(['/personas/..%2Fx', '/worlds/x/personas/..%2F..', '/personas/%ED%A0%80'])('%s stays below the root: an HTML 400 is the service\'s', (path) => {
    const x = judged(`http://127.0.0.1:8080${path}`, 400, 'text/html', '<html>Bad Request</html>');
    expect(x.refusedByStack).toBeUndefined();
    expect(Object.keys(x.problems)).toContain('ENV-2');
  });
});

describe('what generated requests hold', () => {
  // What every common front passes through as sent (suite/self-test/stacks.ts): no body on GET, HEAD or
  // DELETE (lighttpd's 400), no control character in the URL (lighttpd's 400), no %2F in a path (Apache's
  // 404, lighttpd decodes it) and no dot segment (resolved by Apache and lighttpd, refused by nginx).
  const owned = { worldId: 'wld_0123456789abcdef0123', personaId: 'prs_0123456789abcdef0123', entity: 'ana' };
  const ops = generatedOperations(docs, true);
  const CONTROL_ESCAPE = /%(0[0-9A-F]|1[0-9A-F]|7F|C2%(8[0-9A-F]|9[0-9A-F]))/i;

  it('stay within what every common stack passes unchanged, and still hold what breaks services', () => {
    const all = ops.flatMap((op) => fc.sample(requestsFor(op), { seed: 12, numRuns: 15 }).map((req) => ({ op, req, r: resolve(req, op, owned) })));
    for (const { op, req, r } of all) {
      const query = r.query ? new URLSearchParams(r.query).toString() : '';
      const what = `${op.method} ${short(r.url)}?${short(query)} [${req.variant}]`;
      if (!passesStacks.body(op.method)) expect(r.bodyText, what).toBeUndefined();
      expect(r.url, what).not.toMatch(/%2F/i);
      expect(r.url.split('/').filter((seg) => seg === '.' || seg === '..'), what).toEqual([]);
      expect(`${r.url}?${query}`, what).not.toMatch(CONTROL_ESCAPE);
    }
    // Unicode in paths and queries, and unexpected bodies where a method may carry one.
    expect(all.some(({ r }) => /%[89A-F][0-9A-F]/i.test(r.url))).toBe(true);
    expect(all.some(({ r }) => /%[89A-F][0-9A-F]/i.test(new URLSearchParams(r.query ?? {}).toString()))).toBe(true);
    expect(all.some(({ req }) => req.variant === 'unexpected-body')).toBe(true);
  });
});
