// Proving the suite, a fourth way (docs/self-test.md): the reference as real deployments
// front it. Every stack of suite/self-test/stacks.ts must pass the suite under --strict (behind a real
// nginx, Apache httpd, lighttpd, HAProxy and Caddy with their stock configurations, behind the refusals
// of common HTTP servers, under several seeds; behind Apache httpd and lighttpd every area, where ERR-12,
// a SHOULD naming their own pages, must warn and nothing else), each refusal must have happened at least once, and every
// control (the service's own error page behind the stack) must fail on the requirements it names. Where
// a server is not installed its entries say so in one line and the rest runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AREAS, requirement, requirementById } from '../../contract/requirements.ts';
import { runStacks, type DialectMatrixResult, type Stack } from '../../suite/self-test/dialect-matrix.ts';
import { renderFamily } from '../../suite/self-test/runner.ts';
import { startBench, type Bench } from '../../suite/self-test/bench.ts';
import { FRAMEWORK_DOCUMENTS, STACKS } from '../../suite/self-test/stacks.ts';
import { FAULTS } from '../../suite/self-test/faults/urls.ts';
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

/**
 * Not stacks: checks of the judge of `warns` (ERR-12 behind Apache httpd and lighttpd), on the errors
 * area's malformed URLs alone. An emulated Apache answers its 404 page to %2F: the entry warns as it
 * must and passes; with nothing in front, no page of a stack shows, and an entry that must warn fails.
 */
const OWN_PAGE = FAULTS.find((f) => f.id === 'stack-404-page-to-encoded-slash')!;
const JUDGE_WARNS: Stack[] = [
  {
    id: 'check-own-pages-warned', style: '(a check of the judge)', areas: ['errors'], only: ['ERR-11', 'ERR-12'], warns: ['ERR-12'], rewrite: () => undefined, hooks: { answer: OWN_PAGE.answer },
    description: 'the 404 page of an emulated Apache httpd to %2F: ERR-12 warns, as the entry requires',
  },
  {
    id: 'check-own-pages-unseen', style: '(a check of the judge)', areas: ['errors'], only: ['ERR-11', 'ERR-12'], warns: ['ERR-12'], rewrite: () => undefined,
    description: 'nothing in front: ERR-12 passes, and an entry that requires its warning fails',
  },
];

let judged: DialectMatrixResult;
let bench: Bench | undefined;

beforeAll(async () => {
  bench = await startBench(dir);
  matrix = await runStacks({ workDir: dir, bench, stacks: [MISSING, ...STACKS], print: (line) => printed.push(line) });
  table = renderFamily(matrix);
  // On the same reference, apart: one of them must fail, and the family's table counts the stacks.
  judged = await runStacks({ workDir: dir, bench, stacks: JUDGE_WARNS, print: (line) => printed.push(line) });
  process.stdout.write(`${printed.join('\n')}\n${table}\n`);
}, budget(900_000));
afterAll(async () => {
  await bench?.target.close();
  rmSync(dir, { recursive: true, force: true });
});

const verdict = (id: string) => [...matrix.verdicts, ...judged.verdicts].find((v) => v.id === id)!;

describe('the stacks catalogue', () => {
  it('holds nginx, Apache httpd, lighttpd, HAProxy, Caddy, the five refusals, several seeds and controls, with unique ids, known areas and requirements', () => {
    expect(new Set(STACKS.map((s) => s.id)).size).toBe(STACKS.length);
    for (const s of STACKS) {
      expect(s.areas.length, s.id).toBeGreaterThan(0);
      for (const a of s.areas) expect(AREAS as readonly string[], `${s.id}: area ${a}`).toContain(a);
      for (const id of s.control?.mustFail ?? []) expect(requirementById.has(id), `${s.id}: requirement ${id}`).toBe(true);
    }
    expect(STACKS.filter((s) => s.front && !s.control).map((s) => s.id)).toEqual(expect.arrayContaining(['nginx-stock', 'apache-stock', 'lighttpd-stock', 'haproxy-stock', 'caddy-stock']));
    // The fronts that answer some requests themselves run every area, warning only on the SHOULD that
    // names their own pages, and the generated area under two seeds more, each sending other requests.
    for (const id of ['apache-stock', 'lighttpd-stock']) {
      expect(STACKS.find((s) => s.id === id), id).toMatchObject({ areas: [...AREAS], warns: ['ERR-12'] });
      expect(STACKS.find((s) => s.id === `${id}-seeds`), id).toMatchObject({ areas: ['generated'], seeds: [2, 3] });
    }
    for (const s of STACKS) for (const id of s.warns ?? []) expect(requirement(id).level, `${s.id}: ${id} warns, a SHOULD`).toBe('SHOULD');
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

  it.each([['nginx-414', [1, 2, 3]], ['apache-stock-seeds', [2, 3]], ['lighttpd-stock-seeds', [2, 3]]])('%s gives a correct deployment one verdict under every seed', (id, seeds) => {
    const v = verdict(id);
    if (v.missing) return;
    expect(v.seeds?.map((x) => x.seed)).toEqual(seeds);
    expect(v.seeds?.map((x) => `${x.exitCode} ${x.failed.join()}`)).toEqual(seeds.map(() => '0 '));
  });

  it.each(['apache-stock', 'lighttpd-stock'])('%s: the whole suite passes, a user\'s run exits 0, and only ERR-12 warns, naming the front\'s own page', (id) => {
    const v = verdict(id);
    if (v.missing) return;
    expect(v, JSON.stringify(v.messages)).toMatchObject({ ok: true, areas: [...AREAS], userExitCode: 0, failed: ['ERR-12'], warnings: ['ERR-12'] });
    expect(v.messages.join('\n')).toMatch(/the page of (Apache|lighttpd)\//);
  });
});

describe('an entry that must warn on its stack\'s own pages', () => {
  it('passes when they showed: ERR-12 warned, nothing else, a user\'s run exit 0', () => {
    expect(verdict('check-own-pages-warned'), JSON.stringify(verdict('check-own-pages-warned').messages)).toMatchObject({ ok: true, failed: ['ERR-12'], warnings: ['ERR-12'], userExitCode: 0 });
    expect(printed.find((l) => l.includes('check-own-pages-warned'))).toMatch(/✓ check-own-pages-warned: passed, warned on ERR-12 as it must/);
  });

  it('fails when none showed, and says so', () => {
    expect(verdict('check-own-pages-unseen')).toMatchObject({ ok: false, failed: [], exitCode: 0 });
    expect(printed.find((l) => l.includes('check-own-pages-unseen'))).toMatch(/✗ check-own-pages-unseen: FAILED though legal: did not warn on ERR-12 \(the stack's own pages never showed\)/);
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
