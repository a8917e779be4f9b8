// Proving the suite, a fourth way (docs/self-test.md): the reference as real deployments
// front it. Every stack of suite/self-test/stacks.ts must pass the suite under --strict (behind a real
// nginx, Apache httpd, lighttpd, HAProxy and Caddy with their stock configurations, behind the refusals
// of common HTTP servers, under several seeds), each refusal must have happened at least once, and every
// control (the service's own error page behind the stack) must fail on the requirements it names. Where
// a server is not installed its entries say so in one line and the rest runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AREAS, requirementById } from '../../contract/requirements.ts';
import { runStacks, type DialectMatrixResult, type Stack } from '../../suite/self-test/dialect-matrix.ts';
import { renderFamily } from '../../suite/self-test/runner.ts';
import { FRAMEWORK_DOCUMENTS, STACKS } from '../../suite/self-test/stacks.ts';
import { FrontMissing, nginxConfig } from '../../suite/self-test/nginx.ts';
import { apacheConfig } from '../../suite/self-test/apache.ts';
import { lighttpdConfig } from '../../suite/self-test/lighttpd.ts';
import { haproxyConfig } from '../../suite/self-test/haproxy.ts';
import { caddyConfig } from '../../suite/self-test/caddy.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-stacks-'));
let matrix: DialectMatrixResult;
const printed: string[] = [];
let table = '';

/** Not a stack: a front whose program is missing, as nginx is on a machine without it. */
const MISSING: Stack = {
  id: 'check-front-missing', style: '(a check of the runner)', areas: ['openapi'], rewrite: () => undefined,
  description: 'a front that cannot start here: one line, and the family runs on', front: async () => { throw new FrontMissing('nginx is not installed on this machine (Debian: apt-get install nginx)'); },
};

beforeAll(async () => {
  matrix = await runStacks({ workDir: dir, stacks: [MISSING, ...STACKS], print: (line) => printed.push(line) });
  table = renderFamily(matrix);
  process.stdout.write(`${printed.join('\n')}\n${table}\n`);
}, budget(900_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verdict = (id: string) => matrix.verdicts.find((v) => v.id === id)!;

describe('the stacks catalogue', () => {
  it('holds nginx, Apache httpd, lighttpd, HAProxy, Caddy, the five refusals, several seeds and controls, with unique ids, known areas and requirements', () => {
    expect(new Set(STACKS.map((s) => s.id)).size).toBe(STACKS.length);
    for (const s of STACKS) {
      expect(s.areas.length, s.id).toBeGreaterThan(0);
      for (const a of s.areas) expect(AREAS as readonly string[], `${s.id}: area ${a}`).toContain(a);
      for (const id of s.control?.mustFail ?? []) expect(requirementById.has(id), `${s.id}: requirement ${id}`).toBe(true);
    }
    expect(STACKS.filter((s) => s.front && !s.control).map((s) => s.id)).toEqual(expect.arrayContaining(['nginx-stock', 'apache-stock', 'lighttpd-stock', 'haproxy-stock', 'caddy-stock']));
    // The fronts that answer some requests themselves run under three seeds, each sending other requests.
    for (const id of ['apache-stock', 'lighttpd-stock']) expect(STACKS.find((s) => s.id === id)?.seeds, id).toEqual([1, 2, 3]);
    expect(STACKS.filter((s) => s.mustShow && !s.control).map((s) => s.mustShow)).toEqual(expect.arrayContaining(['431', '400 text/plain', 'a cut answer', '414', '413']));
    expect(STACKS.some((s) => (s.seeds?.length ?? 0) >= 3)).toBe(true);
    expect(STACKS.filter((s) => s.control).length).toBeGreaterThanOrEqual(2);
    // The framework documents join the family where they are spread.
    for (const f of FRAMEWORK_DOCUMENTS) expect(STACKS).toContain(f);
  });

  it('starts nginx with its stock limits: nothing about sizes, buffers or timeouts, one plain proxy_pass', () => {
    const conf = nginxConfig('/tmp/x', 8080, new URL('http://127.0.0.1:9000'));
    expect(conf).not.toMatch(/client_max_body_size|large_client_header_buffers|client_header_buffer_size|_timeout|proxy_buffer/);
    expect(conf.match(/proxy_pass [^;]+;/g)).toEqual(['proxy_pass http://127.0.0.1:9000;']);
    expect(conf).toMatch(/listen 127\.0\.0\.1:8080;/);
  });

  // Stock configuration: nothing about sizes, buffers, timeouts or URL parsing, one line that proxies.
  const upstream = new URL('http://127.0.0.1:9000');
  it.each([
    ['Apache httpd', apacheConfig('/tmp/x', 8080, upstream), /LimitRequest|AllowEncodedSlashes|Timeout|nocanon|MergeSlashes/, /^ProxyPass \/ [^\n]+$/gm, ['ProxyPass / http://127.0.0.1:9000/'], /Listen 127\.0\.0\.1:8080/],
    ['lighttpd', lighttpdConfig('/tmp/x', 8080, upstream), /http-parseopts|max-request|timeout|url-normalize/, /^proxy\.server[^\n]+$/gm, ['proxy.server = ( "" => ( ( "host" => "127.0.0.1", "port" => 9000 ) ) )'], /server\.port = 8080/],
    ['HAProxy', haproxyConfig('/tmp/x', 8080, upstream), /tune\.|maxconn|option/, /^ {2}server [^\n]+$/gm, ['  server s1 127.0.0.1:9000'], /bind 127\.0\.0\.1:8080/],
    ['Caddy', caddyConfig('/tmp/x', 8080, upstream), /max_size|timeout|header_up|request_body/, /^ {2}reverse_proxy [^\n]+$/gm, ['  reverse_proxy 127.0.0.1:9000'], /127\.0\.0\.1:8080/],
  ])('starts %s with its stock configuration and one proxy line', (_name, conf, limits, proxyLine, proxies, listen) => {
    expect(conf).not.toMatch(limits);
    expect(conf.match(proxyLine)).toEqual(proxies);
    expect(conf).toMatch(listen);
  });
});

describe('a front that cannot run on this machine', () => {
  it('says so in one visible line, does not fail the family, and the rest runs', () => {
    expect(printed.filter((l) => l.includes('check-front-missing'))).toEqual([expect.stringMatching(/^ {2}\[ ?1\/\d+\] - check-front-missing: not run: nginx is not installed on this machine \(Debian: apt-get install nginx\) \(\d+\.\d s\)$/)]);
    expect(verdict('check-front-missing')).toMatchObject({ ok: true, missing: expect.stringMatching(/not installed/), requests: 0 });
    expect(table).toMatch(/not run here: check-front-missing/);
    expect(matrix.verdicts.length).toBe(STACKS.length + 1);
  });
});

describe('every stack', () => {
  it.each(STACKS.filter((s) => !s.control).map((s) => s.id))('%s passes under --strict, and its stack did what it is about', (id) => {
    const v = verdict(id);
    if (v.missing) {
      // One visible line: the entry could not run here (CI without nginx, Apache…), the rest ran.
      process.stdout.write(`  ${id}: not run: ${v.missing}\n`);
      expect(v.missing).toMatch(/is not installed on this machine/);
      return;
    }
    expect(v.error).toBeUndefined();
    expect(v.ok, `${id}: ${JSON.stringify({ failed: v.failed, messages: v.messages, notRun: v.notRun, suiteErrors: v.suiteErrors, shown: v.shown, seeds: v.seeds })}`).toBe(true);
    if (STACKS.find((s) => s.id === id)!.mustShow) expect(v.shown, `${id}: the stack refused nothing`).toBeGreaterThan(0);
  });

  it.each(['nginx-414', 'apache-stock', 'lighttpd-stock'])('%s gives a correct deployment one verdict under every seed', (id) => {
    const v = verdict(id);
    if (v.missing) return;
    expect(v.seeds?.map((x) => x.seed)).toEqual([1, 2, 3]);
    expect(v.seeds?.map((x) => `${x.exitCode} ${x.failed.join()}`)).toEqual(['0 ', '0 ', '0 ']);
  });
});

describe('the controls', () => {
  it.each(STACKS.filter((s) => s.control).map((s) => s.id))('%s fails on what it names: the service\'s own error page is judged, whatever stands in front', (id) => {
    const v = verdict(id);
    if (v.missing) { expect(v.missing).toMatch(/is not installed on this machine/); return; }
    expect(v.ok, `${id}: failed ${v.failed.join(', ')}; exit ${v.exitCode}; shown ${v.shown}`).toBe(true);
    for (const req of STACKS.find((s) => s.id === id)!.control!.mustFail) expect(v.failed).toContain(req);
  });
});
