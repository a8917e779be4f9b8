// Small hostile servers on loopback, each run bounded: the run ends within --deadline-s plus cleanup,
// writes its reports and exits with the right code; a key echoed in any encoding reaches neither the
// output nor a report. Each server answers the preflight correctly (the bundled contract as its
// document, 200 to GET /worlds?limit=1) and misbehaves on everything else.
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformance } from './run-cli.ts';
import { formsOf } from '../../suite/data/redact.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-hostile-'));
const KEY = 'mk_test_hostile_key_0123456789abcdef';
const DOCUMENT = readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8');
const servers: Server[] = [];
const sockets = new Set<Socket>();
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

type Behaviour = (req: IncomingMessage, res: ServerResponse) => void;

async function hostile(behaviour: Behaviour): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/openapi.json') { res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT); return; }
    if (req.url === '/worlds?limit=1') { res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{"worlds":[]}}'); return; }
    behaviour(req, res);
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server whose /openapi.json is this text and which answers every other request as a correct empty deployment would. */
async function hostileDocument(text: string): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/openapi.json') { res.writeHead(200, { 'content-type': 'application/json' }).end(text); return; }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{"worlds":[]}}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const DEADLINE_S = 8;
/** A request timeout longer than the deadline. */
const SLOW_MS = 12_000;
/**
 * When a run bounded by the deadline has ended: the deadline, one request timeout of cleanup, and the
 * command's start and reports, which a busy machine slows (measured: 43.6 s at a load of 15 on 2 cores,
 * where the quiet machine's 20 s of slack had been enough). A run the deadline did not end takes minutes:
 * each of its requests waits its own timeout.
 */
const ENDS_WITHIN_S = DEADLINE_S + SLOW_MS / 1000 + budget(20_000) / 1000;
async function runAgainst(url: string, label: string, extra: string[] = []) {
  const started = Date.now();
  const run = await conformance(['--base-url', url, '--api-key', KEY, '--only', 'worlds,simulation', '--deadline-s', String(DEADLINE_S), '--timeout-ms', '1500', '--report-dir', join(dir, label), ...extra]);
  process.stdout.write(`  hostile target "${label}": exit ${run.code} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { ...run, seconds: (Date.now() - started) / 1000, reports: existsSync(join(dir, label)) ? readdirSync(join(dir, label)) : [] };
}

describe('the preflight of a hostile target', () => {
  it('says in one line that the target answered but did not finish, with exit 2', async () => {
    const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.write('{"openapi": "3.1.0", '); });
    server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const run = await conformance(['--base-url', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--api-key', KEY, '--timeout-ms', '1000', '--report-dir', join(dir, 'stall')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/openapi\.json answered but did not finish: no complete answer within 1000 ms/);
  }, budget(60_000));

  it('says what it saw when /openapi.json is not a document, and goes on to fail OAS-1', async () => {
    const url = await hostileDocument('{}');
    const run = await conformance(['--base-url', url, '--api-key', KEY, '--only', 'openapi', '--timeout-ms', '1500', '--report-dir', join(dir, 'nodoc')]);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/openapi\.json is not a valid OpenAPI document: .*OAS-1 fails/);
    expect(run.stdout).not.toContain('[object Object]');
    const results = JSON.parse(readFileSync(join(dir, 'nodoc', 'results.json'), 'utf8'));
    expect(results.requirements.find((q: any) => q.id === 'OAS-1').outcome).toBe('fail');
  }, budget(60_000));
});

describe('a hostile target', () => {
  it('that drip-feeds one byte a second: the run ends near its deadline, with reports, exit 2', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(timer));
    });
    // A request timeout longer than the deadline: only the deadline can end this run. Cleanup then
    // asks for the lists once (a create may have been applied unanswered) and waits one timeout.
    const run = await runAgainst(url, 'drip', ['--timeout-ms', String(SLOW_MS)]);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(2);
    expect(run.seconds).toBeLessThan(ENDS_WITHIN_S);
    expect(run.stdout).toMatch(/the lists could not be read \(GET \/worlds: no answer in time\): records the ledger missed may remain/);
    expect(run.reports).toEqual(expect.arrayContaining(['junit.xml', 'results.json', 'report.html']));
    expect(run.stdout).toMatch(/INCOMPLETE: the run stopped before its end \(deadline/);
  }, budget(60_000));

  it('silent after the preflight: the run ends near its deadline, with reports, exit 2', async () => {
    const url = await hostile(() => undefined);
    const run = await runAgainst(url, 'silent', ['--timeout-ms', String(SLOW_MS)]);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(2);
    expect(run.seconds).toBeLessThan(ENDS_WITHIN_S);
    expect(run.reports).toContain('results.json');
    const results = JSON.parse(readFileSync(join(dir, 'silent', 'results.json'), 'utf8'));
    // Nothing was answered: no per-response requirement may read "pass".
    for (const id of ['ENV-1', 'ENV-2', 'ENV-3', 'CONTRACT-1', 'CONTRACT-2']) expect(results.requirements.find((q: any) => q.id === id).outcome, id).not.toBe('pass');
  }, budget(60_000));

  it('that cuts every body: failures of the target (exit 1), not of the suite', async () => {
    const url = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"result":{"wor');
      setTimeout(() => res.destroy(), 20);
    });
    // A deadline a loaded machine cannot reach first: the cut answers come at once, the verdict is the test.
    const run = await runAgainst(url, 'cut', ['--deadline-s', '40']);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'cut', 'results.json'), 'utf8'));
    expect(results.checks.filter((c: any) => c.outcome === 'error').map((c: any) => c.id)).toEqual([]);
    expect(results.requirements.find((q: any) => q.id === 'WORLD-1').outcome).toBe('fail');
  }, budget(60_000));

  it('that answers every request with 1 MB of empty objects: not parsed, failures of the target that say why (exit 1)', async () => {
    // 1 MB of `{}` is 350,000 objects: about 21 MB of heap each time, were it parsed (suite/http/answer-weight.ts).
    const heavy = Buffer.from(`{"result":[${Array(350_000).fill('{}').join(',')}]}`);
    const url = await hostile((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end(heavy); });
    const run = await runAgainst(url, 'heavy', ['--only', 'worlds', '--deadline-s', '60', '--timeout-ms', '10000']);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'heavy', 'results.json'), 'utf8'));
    expect(results.checks.filter((c: any) => c.outcome === 'error').map((c: any) => c.id)).toEqual([]);
    const messages: string[] = results.checks.filter((c: any) => c.failure).map((c: any) => String(c.failure.message));
    expect(messages.filter((m: string) => /would take about 2\d\.\d+ MB of memory once parsed, over the 8 MB --max-body-mb allows/.test(m)).length, messages.slice(0, 3).join('\n')).toBeGreaterThan(0);
    // It came whole: not "no complete answer".
    expect(messages.filter((m: string) => /would take about/.test(m) && /no complete answer/.test(m))).toEqual([]);
  }, budget(120_000));

  it('that echoes the key in every encoding: it appears in no output and no report', async () => {
    // The suite's own list and the encodings written out here, so that the test does not rest on the code it checks.
    const forms = [...new Set([...formsOf(KEY), ...echoed(KEY)])];
    let echoes = 0;
    const url = await hostile((req, res) => {
      echoes++;
      const key = String(req.headers['x-api-key'] ?? '');
      const b64 = Buffer.from(key).toString('base64');
      const hex = Buffer.from(key).toString('hex');
      const percent = [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
      // Header names too (lower-cased by the HTTP layer): the key, its hex, percent-encoded, base64url.
      res.writeHead(200, {
        'content-type': 'application/json', 'x-echo': b64, 'x-echo-url': encodeURIComponent(key), 'x-echo-pct': percent, 'x-echo-upper': key.toUpperCase(),
        [`x-${key.toUpperCase()}`]: '1', [`x-h-${hex}`]: '1', [`x-p-${percent}`]: '1', [`x-b-${Buffer.from(key).toString('base64url')}`]: '1',
      });
      // Every form in the body, as text and as a JSON text whose escapes decode to the key itself.
      const escaped = [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      const body = JSON.stringify({ result: { worldId: `w-${b64}`, basic: Buffer.from(`user:${key}`).toString('base64'), url: encodeURIComponent(key), b64url: Buffer.from(key).toString('base64url'), plain: key, forms: echoed(key) } });
      res.end(body.replace('"plain"', `"escaped":"${escaped}","plain"`));
    });
    // A deadline a loaded machine cannot reach first: the test is worth the answers the run got.
    const run = await runAgainst(url, 'echo', ['--deadline-s', '40']);
    expect(run.code, run.stdout.slice(-1500) + run.stderr).toBe(1);
    expect(echoes).toBeGreaterThan(10);
    expect(run.reports).toContain('results.json');
    // Nonsense answers are the target's failures, not faults of the suite.
    const results = JSON.parse(readFileSync(join(dir, 'echo', 'results.json'), 'utf8'));
    expect(results.checks.filter((c: any) => c.outcome === 'error').map((c: any) => `${c.id}: ${c.failure?.title}`)).toEqual([]);
    const texts = [run.stdout, run.stderr, ...run.reports.map((f) => readFileSync(join(dir, 'echo', f), 'utf8'))];
    for (const [i, text] of texts.entries()) {
      const lower = text.toLowerCase();
      for (const form of forms) expect(lower.includes(form.toLowerCase()), `text ${i}: a form of the key: ${form}`).toBe(false);
      // Decoded once more (percent, JSON, C and HTML escapes, hex), no key either.
      expect(decoded(text).toLowerCase(), `text ${i}, decoded`).not.toContain(KEY.slice(8).toLowerCase());
    }
    // "user:<key>" encoded: the key's bytes sit at another offset of the base64 text.
    const basic = Buffer.from(`user:${KEY}`).toString('base64');
    for (const text of texts) expect(text).not.toContain(basic.slice(8, 40));
  }, budget(60_000));
});

/** The text with every escape a key could hide behind decoded (twice, for double encodings), and hex runs read as bytes. */
function decoded(text: string): string {
  let out = text;
  for (let i = 0; i < 2; i++) {
    out = out
      .replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\x([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&(?:amp;)?#x([0-9a-f]+);/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/&(?:amp;)?#(\d+);/g, (_m, d: string) => String.fromCharCode(Number(d)))
      .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return out + out.replace(/(?:[0-9a-f]{2}){8,}/gi, (h) => Buffer.from(h, 'hex').toString('latin1'));
}

/** A key as a deployment may echo it: cased, percent-encoded byte by byte (or twice), JSON, C and HTML escapes, quoted-printable, hex, base64 variants. */
function echoed(key: string): string[] {
  const bytes = [...Buffer.from(key)];
  const each = (f: (b: number) => string) => bytes.map(f).join('');
  const h = (b: number) => b.toString(16).padStart(2, '0');
  const b64 = Buffer.from(key).toString('base64');
  return [
    key, key.toUpperCase(), each((b) => `%${h(b).toUpperCase()}`), each((b) => `%${h(b)}`), each((b) => `%25${h(b)}`),
    each((b) => `\\u00${h(b)}`), each((b) => `\\x${h(b)}`), each((b) => `&#x${h(b)};`), each((b) => `&#${b};`), each((b) => `=${h(b).toUpperCase()}`),
    Buffer.from(key).toString('hex'), Buffer.from(key).toString('hex').toUpperCase(),
    b64, b64.replace(/=+$/, ''), Buffer.from(key).toString('base64url'), Buffer.from(key).toString('base64url').toLowerCase(), encodeURIComponent(b64),
  ];
}
