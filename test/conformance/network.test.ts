// The gate on a real network, on loopback: what stands between a CI runner and a staging deployment
// (a load balancer closing idle connections, a forward proxy, a CONNECT proxy, TLS with a private CA)
// and a target that sends too much. Each run is `npm run conformance` as a user starts it, against the
// reference deployment behind the server under test, over a small set of areas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { conformance } from './run-cli.ts';
import { front, httpProxy, hugeBodyServer, privateCa, tlsFront, type Loopback, type PrivateCa } from './loopback.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-network-'));
const KEY = 'mk_test_network_key_000000000001';
const DOCUMENT = readFileSync(new URL('../../contract/openapi.json', import.meta.url), 'utf8');
/** The proxy variables of this machine stay out of the runs: each test sets its own. */
const NO_PROXY_ENV = { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '', NO_PROXY: '', no_proxy: '', NODE_EXTRA_CA_CERTS: '' };
const open: Loopback[] = [];
let reference: RunningReference;
let ca: PrivateCa;

beforeAll(async () => {
  reference = await startReference({ keys: [{ key: KEY, tenantId: 'network', plan: 'enterprise', rpm: 1_000_000 }] });
  // A certificate for a name that resolves nowhere (RFC 6761 .invalid) and for 127.0.0.1.
  ca = privateCa(['staging.invalid', '127.0.0.1']);
});
afterAll(async () => {
  await Promise.all(open.map((l) => l.close()));
  await reference.close();
  rmSync(dir, { recursive: true, force: true });
});
const keep = <T extends Loopback>(l: T) => { open.push(l); return l; };

async function run(baseUrl: string, label: string, extra: string[] = [], env: Record<string, string> = {}) {
  const r = await conformance(['--base-url', baseUrl, '--api-key', KEY, '--only', 'worlds', '--rpm', '0', '--report-dir', join(dir, label), ...extra], { env: { ...NO_PROXY_ENV, ...env } });
  const verdict = r.stdout.trim().split('\n').at(-1) ?? '';
  process.stdout.write(`  ${label}: exit ${r.code}; ${verdict}${r.stderr ? `; stderr: ${r.stderr.trim()}` : ''}\n`);
  return r;
}

describe('a keep-alive connection closed by the target as a request goes out', () => {
  it('is not the target\'s failure: through a front closing each connection 3 ms after its answer, 3 runs in a row pass', async () => {
    const late = keep(await front(reference.url, { closeAfterMs: 3 }));
    for (let i = 1; i <= 3; i++) {
      const r = await run(late.url, `late-${i}`);
      expect(r.code, r.stdout.slice(-2500)).toBe(0);
      expect(r.stdout).toMatch(/nothing left behind/);
    }
    process.stdout.write(`  requests the late-closing front dropped as it closed: ${late.count.dropped}\n`);
  }, budget(120_000));

  it('is sent again on a new connection, every time: a front that drops every request on a reused connection still passes', async () => {
    const dropping = keep(await front(reference.url, { dropOnReuse: true }));
    const r = await run(dropping.url, 'drop-on-reuse');
    expect(r.code, r.stdout.slice(-2500)).toBe(0);
    // The run did meet stale connections (each one a request the front never answered).
    expect(dropping.count.dropped).toBeGreaterThan(0);
  }, budget(60_000));
});

describe('behind a proxy', () => {
  it('goes through HTTP_PROXY to a host only the proxy can reach, and says so in its header', async () => {
    const target = keep(await front(reference.url));
    const proxy = keep(await httpProxy({ [`staging.invalid:${target.port}`]: target.port }));
    const r = await run(`http://staging.invalid:${target.port}`, 'forward-proxy', [], { HTTP_PROXY: proxy.url });
    expect(r.code, r.stdout.slice(-2500) + r.stderr).toBe(0);
    expect(r.stdout).toContain(`through the proxy ${proxy.url} (HTTP_PROXY`);
    // The proxy carried every request the target saw (the preflight's and the cleanup's too).
    expect(proxy.count.forwarded).toBeGreaterThan(10);
    expect(proxy.count.forwarded).toBe(target.count.requests);
    expect(proxy.count.tunnels).toBe(0);
  }, budget(60_000));

  it('tunnels through HTTPS_PROXY (CONNECT) to an https host with a private CA given in NODE_EXTRA_CA_CERTS', async () => {
    const tls = keep(await tlsFront(reference.url, ca));
    const proxy = keep(await httpProxy({ [`staging.invalid:${tls.port}`]: tls.port }));
    const r = await run(`https://staging.invalid:${tls.port}`, 'connect-proxy', [], { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(r.code, r.stdout.slice(-2500) + r.stderr).toBe(0);
    expect(r.stdout).toContain(`through the proxy ${proxy.url} (HTTPS_PROXY`);
    // Every request came through a tunnel: the name resolves nowhere else, and the proxy forwarded nothing in the clear.
    expect(proxy.count.tunnels).toBeGreaterThan(0);
    expect(proxy.count.forwarded).toBe(0);
    expect(tls.count.requests).toBeGreaterThan(10);
  }, budget(60_000));

  it('goes direct to the hosts NO_PROXY names', async () => {
    const proxy = keep(await httpProxy({}));
    // A name in NO_PROXY is looked up here, not handed to the proxy.
    const r = await conformance(['--base-url', 'http://staging.invalid:9', '--api-key', KEY, '--report-dir', join(dir, 'unresolvable')], { env: { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, NO_PROXY: '.invalid' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach http:\/\/staging\.invalid:9: (ENOTFOUND|EAI_AGAIN)/);
    expect(proxy.count.requests).toBe(0);
  }, budget(60_000));
});

describe('TLS with a private CA', () => {
  it('names the cause and NODE_EXTRA_CA_CERTS in one line when the CA is not trusted, exit 2 (loopback: past any proxy)', async () => {
    const tls = keep(await tlsFront(reference.url, ca));
    const proxy = keep(await httpProxy({}));
    const r = await conformance(['--base-url', tls.url, '--api-key', KEY, '--report-dir', join(dir, 'untrusted')], { env: { ...NO_PROXY_ENV, HTTPS_PROXY: proxy.url } });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/TLS: the certificate of 127\.0\.0\.1:\d+ is signed by an authority this machine does not trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
    expect(r.stderr).toMatch(/NODE_EXTRA_CA_CERTS=/);
    // This machine is never reached through the proxy.
    expect(proxy.count.requests).toBe(0);
  }, budget(60_000));
});

describe('an answer larger than --max-body-mb', () => {
  it('is the target\'s failure, and a 2 GiB answer leaves the run\'s processes under 600 MB together', async () => {
    const huge = keep(await hugeBodyServer(DOCUMENT, 2 * 1024 ** 3));
    const peaks = join(dir, 'peak-rss.txt');
    const hook = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));
    const r = await run(huge.url, 'huge', ['--timeout-ms', '20000'], { NODE_OPTIONS: `--import ${hook}`, PEAK_RSS_FILE: peaks });
    expect(r.code, r.stdout.slice(-2500) + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/the answer is larger than 8 MB \(--max-body-mb\)/);
    const peak = new Map<string, number>();
    for (const [pid, kb] of (existsSync(peaks) ? readFileSync(peaks, 'utf8') : '').trim().split('\n').map((l) => l.split(' '))) {
      peak.set(pid, Math.max(peak.get(pid) ?? 0, Math.round(Number(kb) / 1024)));
    }
    const total = [...peak.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(`  peak RSS: ${[...peak.values()].join(' + ')} = ${total} MB\n`);
    // The command reads the preflight's and the cleanup's answers; its scenario worker, a thread of
    // it, those of the checks. About 320 MB on this run with or without the huge answer
    // (docs/benchmarks.md, "Memory"); one answer read whole would be 2 GiB.
    expect(peak.size).toBeGreaterThan(0);
    expect(total).toBeLessThan(600);
  }, budget(90_000));
});
