// The k6 bundles: built by esbuild from load/k6/*.ts, they import nothing but k6's own modules,
// use no syntax newer than ES2017, and, run against stand-ins for k6's modules (k6 itself is
// not installed here), configure arrival-rate scenarios with per-endpoint thresholds, tag every
// request with its operationId, check Retry-After on 429, and write the shared summary.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoadBundles } from '../../load/build.ts';
import { MIX } from '../../load/model/mix.ts';
import { resolveConfig } from '../../load/model/config.ts';
import { defaultThresholds } from '../../load/model/thresholds.ts';
import { PLANS } from '../../contract/plans.ts';
import type { LoadSummary } from '../../load/model/summary.ts';
import { freshState, loadBundle, type K6State } from './k6-stub/harness.ts';

let dir: string;
let outputs: string[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'load-bundle-'));
  outputs = await buildLoadBundles({ outdir: dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every module specifier the file loads: static imports, re-exports, import(), require(). */
function importsOf(code: string): string[] {
  return ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);
}

/** Syntax newer than ES2017 that goja-era k6 releases reject; esbuild's target must lower it. */
function newerThanEs2017(code: string): string[] {
  const found: string[] = [];
  const source = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (node: ts.Node): void => {
    const at = () => `${ts.SyntaxKind[node.kind]} at line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node)) && node.questionDotToken) found.push(`optional chaining: ${at()}`);
    if (ts.isBinaryExpression(node) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken, ts.SyntaxKind.AmpersandAmpersandEqualsToken].includes(node.operatorToken.kind)) found.push(`logical/nullish operator: ${at()}`);
    if (ts.isSpreadAssignment(node)) found.push(`object spread: ${at()}`);
    if (ts.isObjectBindingPattern(node) && node.elements.some((e) => e.dotDotDotToken)) found.push(`object rest: ${at()}`);
    if (ts.isPropertyDeclaration(node) || ts.isPrivateIdentifier(node)) found.push(`class field: ${at()}`);
    if (ts.isBigIntLiteral(node)) found.push(`BigInt: ${at()}`);
    if (ts.isForOfStatement(node) && node.awaitModifier) found.push(`for await: ${at()}`);
    if (ts.isCatchClause(node) && !node.variableDeclaration) found.push(`optional catch binding: ${at()}`);
    if (ts.isMetaProperty(node)) found.push(`import.meta: ${at()}`);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(`import(): ${at()}`);
    if (ts.isNumericLiteral(node) && node.getText().includes('_')) found.push(`numeric separator: ${at()}`);
    if (ts.isRegularExpressionLiteral(node) && (/\/[a-z]*s[a-z]*$/.test(node.text) || /\(\?<[=!]|\(\?<[A-Za-z]/.test(node.text))) found.push(`ES2018 regex: ${at()}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('npm run build:load', () => {
  it('writes one bundle per tier', () => {
    expect(outputs.map((f) => basename(f)).sort()).toEqual(PLANS.map((t) => `${t}.js`).sort());
  });

  it('bundles import nothing but k6 modules', () => {
    for (const file of outputs) {
      const imports = importsOf(readFileSync(file, 'utf8'));
      expect(imports, file).toEqual(expect.arrayContaining(['k6', 'k6/http', 'k6/execution', 'k6/metrics']));
      expect(imports.filter((m) => !/^k6(\/[a-z-/]+)?$/.test(m)), file).toEqual([]);
    }
  });

  it('bundles use no syntax newer than ES2017 and no Node globals', () => {
    for (const file of outputs) {
      const code = readFileSync(file, 'utf8');
      expect(newerThanEs2017(code), file).toEqual([]);
      expect(code, file).not.toMatch(/\bprocess\.(env|argv|exit)|\bBuffer\.|\brequire\(/);
    }
  });

  it('the syntax check itself catches what it looks for', () => {
    expect(newerThanEs2017('const a = b?.c ?? { ...d }; class X { y = 1 }')).toHaveLength(4);
    expect(importsOf('import a from "k6/http"; const fs = require("node:fs"); import("x");')).toEqual(['k6/http', 'node:fs', 'x']);
  });
});

// ---- Running a bundle on stand-ins of k6's modules ----

describe('a bundle run by k6 (stand-ins)', () => {
  const ENV = { LOAD_BASE_URL: 'http://target.test/', LOAD_API_KEY: 'mk_test_bundle_key', LOAD_WINDOW_MS: '1000', LOAD_DURATION: '10s' };

  it('declares arrival-rate scenarios per phase and thresholds per endpoint', async () => {
    freshState();
    const { options } = await loadBundle(dir, 'free', ENV);
    expect(options.scenarios.steady).toMatchObject({ executor: 'constant-arrival-rate', exec: 'steady', rate: 80, timeUnit: '1000ms', duration: '5000ms', tags: { phase: 'steady' } });
    expect(options.scenarios.ramp).toMatchObject({
      executor: 'ramping-arrival-rate', exec: 'ramp', startRate: 80, timeUnit: '1000ms', startTime: '5000ms',
      stages: [{ target: 150, duration: '5000ms' }], tags: { phase: 'ramp' },
    });
    for (const e of MIX) {
      const budget = ['getWorld', 'listWorlds', 'getPersonaState', 'listWorldEvents', 'queryWorld'].includes(e.operationId) ? [250, 500] : [500, 1000];
      expect(options.thresholds[`http_req_duration{endpoint:${e.operationId},phase:steady}`]).toEqual([`p(95)<${budget[0]}`, `p(99)<${budget[1]}`]);
      expect(options.thresholds[`http_req_failed{endpoint:${e.operationId},phase:steady}`]).toEqual(['rate<0.01']);
    }
    expect(options.thresholds['http_req_failed{phase:steady}']).toContainEqual({ threshold: 'rate<0.5', abortOnFail: true, delayAbortEval: '2500ms' });
    expect(options.thresholds.retry_after_on_429).toEqual(['rate>=1']);
    // A Rate of early 429s, which k6 passes when empty (no 429 seen), as the Node runner does.
    expect(options.thresholds.rate_limit_early).toEqual(['rate<=0']);
    expect(options.thresholds.rate_limit_onset).toBeUndefined();
    // The model's thresholds and nothing else: no always-true expression to make a submetric
    // appear, which buried the real ones in k6's own summary (108 of 148).
    const expressions = Object.values(options.thresholds as Record<string, Array<string | { threshold: string }>>).flat().map((t) => (typeof t === 'string' ? t : t.threshold));
    expect(expressions).toHaveLength(defaultThresholds(resolveConfig({ tier: 'free', windowMs: 1000, duration: '10s' })).length);
    expect(expressions.filter((e) => />=\s*0$/.test(e))).toEqual([]);
    // VUs from the rate and the slowest latency the thresholds accept (1 s): 150 req/s at the peak
    // (the free plan's 100 per 1 s window, to 150%), so 150 in flight, and 10 to spare.
    expect(options.scenarios.ramp).toMatchObject({ maxVUs: 160, preAllocatedVUs: 20, gracefulStop: '10000ms' });
  });

  it('computes its options with no environment at all (k6 archive, inspect, cloud run), and reads every knob', async () => {
    freshState();
    const bare = await loadBundle(dir, 'pro', {});
    // The real minute: pro's 2000 a minute, 80% steady, 150% at the end of the ramp.
    expect(bare.options.scenarios.steady).toMatchObject({ rate: 1600, timeUnit: '60000ms', duration: '60000ms' });
    expect(bare.options.scenarios.ramp.maxVUs).toBe(Math.ceil(50 * 1) + 10);
    freshState();
    const tuned = await loadBundle(dir, 'pro', { LOAD_TIMEOUT_MS: '2500', LOAD_MAX_VUS: '40', LOAD_P99_MS: '200', LOAD_DURATION: '20s', LOAD_WINDOW_MS: '5000' });
    expect(tuned.options.scenarios.steady).toMatchObject({ maxVUs: 40, gracefulStop: '2500ms', duration: '10000ms', timeUnit: '5000ms' });
    freshState();
    await expect(loadBundle(dir, 'pro', { LOAD_RAMP_TO: 'lots' })).rejects.toThrow(/^LOAD_RAMP_TO must be a number, got 'lots'$/);
    freshState();
    await expect(loadBundle(dir, 'enterprise', {})).rejects.toThrow(/LOAD_RPM N/);
  });

  it('uses LOAD_TIMEOUT_MS for every request', async () => {
    const k6 = freshState();
    const script = await loadBundle(dir, 'free', { ...ENV, LOAD_TIMEOUT_MS: '1234' });
    script.steady({ fx: { worlds: [{ id: 'w1', users: ['u'], personas: ['p'] }], personaIds: ['p1'] }, runTag: 't', setupRequests: 4 });
    expect(k6.requests[0].params.timeout).toBe('1234ms');
  });

  it('without a target or key, refuses in setup, naming the variable, and the run stops saying why', async () => {
    for (const [env, message] of [
      [{}, /^LOAD_BASE_URL is not set/],
      [{ LOAD_BASE_URL: 'http://target.test' }, /^LOAD_API_KEY is not set/],
      [{ LOAD_BASE_URL: 'target.test', LOAD_API_KEY: 'k' }, /^LOAD_BASE_URL must be an http\(s\) URL/],
    ] as const) {
      const k6 = freshState();
      const script = await loadBundle(dir, 'free', env);
      const data = script.setup();
      expect(data.error).toMatch(message);
      expect(k6.requests).toEqual([]);
      expect(() => script.steady(data)).toThrow(/test aborted: LOAD_/);
      const out = script.handleSummary({ metrics: {}, setup_data: data });
      const summary = JSON.parse(out['load-free.json']) as LoadSummary;
      expect(summary).toMatchObject({ verdict: 'fail', aborted: data.error });
      expect(out.stdout).toContain(`aborted: ${data.error}`);
      expect(out.stdout).not.toContain('no 429');
    }
  });

  it('a setup the target refuses stops the run, and the summary says what it answered', async () => {
    const k6 = freshState();
    const script = await loadBundle(dir, 'free', ENV);
    k6.respond = () => ({ status: 401, body: '{"error":{"code":"UNAUTHORIZED"}}', headers: {} });
    const data = script.setup();
    expect(data.error).toMatch(/^setup: POST \/worlds \(createWorld\) answered 401: .*UNAUTHORIZED/);
    const summary = JSON.parse(script.handleSummary({ metrics: {}, setup_data: data })['load-free.json']) as LoadSummary;
    expect(summary.aborted).toBe(data.error);
  });

  it('sets up through the interface, waiting out a 429, and tags each request with its operationId', async () => {
    const k6 = freshState();
    const script = await loadBundle(dir, 'free', ENV);
    let limited = false;
    k6.respond = (call): ReturnType<K6State['respond']> => {
      if (!limited) { limited = true; return { status: 429, body: '{}', headers: { 'Retry-After': '1' } }; }
      const id = call.url.endsWith('/worlds') ? { worldId: `w${k6.requests.length}` } : { personaId: `p${k6.requests.length}` };
      return { status: 201, body: JSON.stringify({ result: id }), headers: {} };
    };
    const data = script.setup();
    expect(k6.sleeps).toEqual([1]);
    expect(data.fx.worlds.map((w: { id: string }) => w.id)).toEqual(['w2', 'w3']);
    expect(data.fx.personaIds).toEqual(['p4', 'p5']);
    expect(data.setupRequests).toBe(4);

    k6.requests = [];
    k6.respond = () => ({ status: 200, body: '', headers: {} });
    for (k6.iteration = 0; k6.iteration < 100; k6.iteration++) script.steady(data);
    const byEndpoint = new Map<string, number>();
    for (const call of k6.requests) {
      expect(call.url.startsWith('http://target.test/')).toBe(true);
      expect(call.url).not.toMatch(/\/\/[^/]*\/\/|undefined/);
      expect(call.params.headers['X-API-Key']).toBe('mk_test_bundle_key');
      expect(call.params.tags.name).toBe(call.params.tags.endpoint);
      expect(call.params.responseCallback).toEqual({ expectedStatuses: [{ min: 200, max: 299 }] });
      byEndpoint.set(call.params.tags.endpoint, (byEndpoint.get(call.params.tags.endpoint) ?? 0) + 1);
    }
    expect(Object.fromEntries(byEndpoint)).toEqual(Object.fromEntries(MIX.map((e) => [e.operationId, e.weight])));
    expect(k6.checks.every((c) => c.name === 'status is 2xx' && c.ok)).toBe(true);
  });

  it('on the ramp, counts 429s as expected, checks Retry-After and records where they began', async () => {
    const k6 = freshState();
    const script = await loadBundle(dir, 'free', ENV);
    const data = { fx: { worlds: [{ id: 'w1', users: ['u'], personas: ['p'] }], personaIds: ['p1'] }, runTag: 't', setupRequests: 4 };
    k6.scenarioStart = Date.now() - 2500; // 2.5 s into the ramp: 7.5 s into the run
    k6.respond = () => ({ status: 429, body: '', headers: {} });
    k6.iteration = 0;
    script.ramp(data);
    k6.respond = () => ({ status: 429, body: '', headers: { 'Retry-After': '1' } });
    k6.iteration = 1;
    script.ramp(data);
    expect(k6.requests[0].params.responseCallback).toEqual({ expectedStatuses: [{ min: 200, max: 299 }, 429] });
    expect(k6.checks).toEqual([{ name: '429 carries Retry-After', ok: false }, { name: '429 carries Retry-After', ok: true }]);
    expect(k6.metrics.retry_after_on_429.map((m) => m.value)).toEqual([false, true]);
    expect(k6.metrics.rate_limited).toHaveLength(2);
    // The ramp climbs 14 req/s per second from 80: over the window (6.5 s, 7.5 s] it offered
    // (101 + 115) / 2 = 108 requests, 108% of the budget of 100.
    expect(k6.metrics.rate_limit_onset[0].value as number).toBeGreaterThan(106);
    expect(k6.metrics.rate_limit_onset[0].value as number).toBeLessThan(110);
  });

  it('writes reports/load-<tier>.json with the shared summary and the verdict of the thresholds', async () => {
    freshState();
    const script = await loadBundle(dir, 'starter', { ...ENV, LOAD_REPORT_DIR: 'reports/' });
    const metrics: Record<string, { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }> = {
      // Only what the model's thresholds name (and k6's base metrics): the steady phase per
      // endpoint, each phase's error rate, the 429s in total.
      'http_req_duration{endpoint:chat,phase:steady}': { values: { med: 20, 'p(95)': 700, 'p(99)': 900, max: 950, avg: 60, count: 40 }, thresholds: { 'p(95)<500': { ok: false }, 'p(99)<1000': { ok: true } } },
      'http_req_failed{endpoint:chat,phase:steady}': { values: { rate: 0, passes: 0, fails: 40 } },
      // The whole plan sent (2000 steady, 2875 on the ramp): a run short of it has no verdict (load/model/complete.ts).
      'http_req_failed{phase:steady}': { values: { rate: 0, passes: 0, fails: 2000 } },
      'http_req_failed{phase:ramp}': { values: { rate: 0, passes: 0, fails: 2875 } },
      rate_limited: { values: { count: 7 } },
      retry_after_on_429: { values: { rate: 1, passes: 7, fails: 0 } },
      rate_limit_onset: { values: { min: 101.2, count: 7 } },
      rate_limit_early: { values: { rate: 0, passes: 0, fails: 7 } },
    };
    const checks = [{ name: 'status is 2xx', passes: 83, fails: 0 }, { name: '429 carries Retry-After', passes: 7, fails: 0 }];
    const out = script.handleSummary({ metrics, root_group: { checks }, setup_data: { runTag: 'load-x', setupRequests: 4 }, state: { testRunDurationMs: 10_000 } });
    const summary = JSON.parse(out['reports/load-starter.json']) as LoadSummary;
    expect(summary.checks).toEqual(checks);
    expect(summary.phases[0].achievedRps).toBe(400);
    expect(summary).toMatchObject({ schema: 'simulation-load-summary/1', engine: 'k6', tier: 'starter', verdict: 'fail', setup: { requests: 4, runTag: 'load-x' } });
    expect(summary.thresholds.filter((t) => !t.ok).map((t) => t.id)).toEqual(['chat p95 (steady)']);
    expect(summary.phases[0].endpoints.find((e) => e.operationId === 'chat')).toMatchObject({ count: 40, errors: 0, ok: 40, latency: { p95: 700 } });
    expect(summary.phases[1].total).toMatchObject({ count: 2875, rateLimited: 7, ok: 2868, errors: 0 });
    expect(summary.onset).toMatchObject({ found: true, fractionOfLimit: 1.012 });
    expect(out.stdout).toMatch(/chat\s+40\s+20\.0\s+700\s+900\s+0\s+0/);
    expect(out.stdout).toContain('verdict: FAIL');
  });

  it('refuses an mk_live_ key in setup unless LOAD_ALLOW_LIVE is set', async () => {
    const k6 = freshState();
    const live = await loadBundle(dir, 'pro', { ...ENV, LOAD_API_KEY: 'mk_live_secret' });
    expect(live.setup().error).toMatch(/refusing the production key mk_live_…\(redacted\)/);
    expect(k6.requests).toEqual([]);
    const allowed = freshState();
    allowed.respond = (call) => ({ status: 201, body: JSON.stringify({ result: call.url.endsWith('/worlds') ? { worldId: 'w' } : { personaId: 'p' } }), headers: {} });
    expect((await loadBundle(dir, 'pro', { ...ENV, LOAD_API_KEY: 'mk_live_secret', LOAD_ALLOW_LIVE: 'true' })).setup().error).toBeUndefined();
  });

  it('leaves k6 its own end-of-test summary with LOAD_SUMMARY=k6', async () => {
    freshState();
    const script = await loadBundle(dir, 'free', { ...ENV, LOAD_SUMMARY: 'k6' });
    expect(script.handleSummary({ metrics: {} })).toBeUndefined();
  });
});
