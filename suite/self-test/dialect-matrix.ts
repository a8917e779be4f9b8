// The dialect matrix: every document dialect of dialects.ts behind its own proxy in front of one
// embedded reference, checked with --strict over the areas it concerns. The proxy serves the
// rewritten document (at the dialect's base path), and validates request bodies before the lookup
// against the ORIGINAL document (legal: SPEC.md does not order validation and lookup), so that a body
// the suite built wrong from the dialect (an exclusive bound read as inclusive, a required member lost
// under a nested allOf) is answered 400 where a 404 was expected, and fails the run. Every run also
// watches two tripwires: a canary file and a loopback server that counts connections. No request may
// carry the canary's token, and nothing may connect to the server: a suite that reads local files or
// fetches what a served document points to would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequirementId } from '../../contract/requirements.ts';
import type { RunResult } from '../results/results.ts';
import { APPLIED, onDocument, responses, type Json } from './hooks.ts';
import { startBench } from './matrix.ts';
import type { FaultContext, FaultHooks, FaultRequest } from './proxy.ts';
import { validateFirstHooks } from './variants.ts';
import { DIALECTS, type Dialect, type DialectEnv } from './dialects.ts';

const DEFAULT_TIMEOUT_MS = 5_000;
/** The generated area's budget in a dialect's run: enough to send every operation a few bodies built from the served schemas. */
const GENERATED = 40;
/** A dialect's run ends by then: the longest (every area) takes about 15 s on two quiet cores. */
const DEADLINE_MS = 60_000;

export interface DialectVerdict {
  id: string;
  description: string;
  style: string;
  areas: string[];
  /** A control's requirements that must fail. */
  mustFail?: RequirementId[];
  exitCode: number;
  /** Requirements failed or warned, in catalogue order. */
  failed: RequirementId[];
  /** What the failed or warned checks said (first line each). */
  messages: string[];
  suiteErrors: string[];
  /** Checks that did not run (a style the suite could not read: a body it could not build…): must be none. */
  notRun: string[];
  /** Requests the proxy received carrying the canary's token (method and path): must be none. */
  canary: string[];
  /** Connections the tripwire server got during the run: must be 0. */
  tripwire: number;
  /** Answers the proxy turned from 404 into 400 because the body was invalid for the original document. */
  validatedFirst: number;
  /** Why the run stopped before its end (its deadline: a check that never ended), if it did. */
  stopped?: string;
  /** A dialect passed cleanly; a control failed on what it names (and neither touched a tripwire). */
  ok: boolean;
  requests: number;
  durationMs: number;
  /** The run could not be made. */
  error?: string;
}

export interface DialectMatrixResult {
  dialects: DialectVerdict[];
  ok: boolean;
  durationMs: number;
}

export interface Tripwire {
  env: DialectEnv;
  /** The token of the canary file (and of what the server answers). */
  token: string;
  /** Connections the server has had so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A canary schema in a file of a new temporary folder, and a loopback server that counts connections
 * and answers anything with the same schema: a suite that read or fetched either would send its token.
 */
export async function startTripwire(): Promise<Tripwire> {
  const token = `canary${randomBytes(12).toString('hex')}`;
  const schema = JSON.stringify({ type: 'string', const: token, description: 'A canary: no conformance run may read this.' });
  // The folder is named with the token too: a reference to the file resolved against the document's
  // URL (as a URI reference would be) and fetched from the deployment carries it in its path.
  const dir = mkdtempSync(join(tmpdir(), `${token}-`));
  const canaryFile = join(dir, 'canary.json');
  writeFileSync(canaryFile, schema);
  let connections = 0;
  const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(schema); });
  server.on('connection', () => { connections += 1; });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  return {
    env: { canaryFile, tripwireUrl: `http://127.0.0.1:${port}/tripwire` },
    token,
    connections: () => connections,
    async close() {
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The document a dialect serves: the reference's, copied and rewritten. */
export function rewriteDocument(dialect: Dialect, doc: Json, env: DialectEnv): Json {
  const copy = structuredClone(doc);
  return dialect.rewrite(copy, env) ?? copy;
}

/**
 * The proxy of one dialect: the request seen first (for the canary), then the dialect's own hooks
 * (its mount), validation before lookup against the original document, and the rewritten document.
 */
function dialectHooks(dialect: Dialect, env: DialectEnv, token: string, seen: { canary: string[]; state?: Map<string, unknown> }): FaultHooks {
  const validateFirst = validateFirstHooks();
  return {
    async request(req: FaultRequest, ctx: FaultContext) {
      seen.state = ctx.state;
      if (`${req.path} ${req.query} ${JSON.stringify(req.headers)} ${req.rawBody}`.includes(token)) seen.canary.push(`${req.method} ${req.path}`);
      await dialect.hooks?.request?.(req, ctx);
    },
    answer: dialect.hooks?.answer,
    response: responses(validateFirst.response, dialect.hooks?.response, onDocument((doc) => rewriteDocument(dialect, doc, env))),
  };
}

const firstLines = (text: string | undefined, n = 3) => (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, n).join(' ').slice(0, 400);

/** The verdict of one run: what failed, and whether that is what the dialect (or control) expects. */
function judge(verdict: DialectVerdict, result: RunResult, dialect: Dialect): void {
  verdict.exitCode = result.exitCode;
  verdict.requests = result.requestCount;
  verdict.stopped = result.stopped;
  verdict.failed = result.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id);
  verdict.messages = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn')
    .map((c) => `${c.id}: ${c.failure ? `${firstLines(c.failure.title, 1)}${c.failure.received ? ` | received: ${firstLines(c.failure.received, 12)}` : ''}` : c.reason ?? ''}`);
  verdict.suiteErrors = result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${firstLines(c.failure?.message ?? c.reason, 1)}`);
  // Every check runs against the reference's own document (the clean runs of the fault matrix): one
  // that did not run here could not read this style, and a check that could not look is never a pass.
  verdict.notRun = result.checks.filter((c) => c.outcome === 'not-run').map((c) => `${c.id}: ${firstLines(c.reason, 1)}`);
  const untouched = !verdict.canary.length && verdict.tripwire === 0;
  verdict.ok = untouched && (dialect.control
    ? result.exitCode === 1 && dialect.control.mustFail.every((id) => verdict.failed.includes(id))
    : result.exitCode === 0 && !verdict.failed.length && !verdict.suiteErrors.length && !verdict.notRun.length);
}

/** What a line of progress says about a verdict. */
function summary(v: DialectVerdict): string {
  const touched = [
    v.canary.length ? `canary token sent in ${v.canary.length} requests` : '', v.tripwire ? `tripwire server got ${v.tripwire} connections` : '',
    v.stopped ? `stopped: ${v.stopped}` : '',
  ].filter(Boolean).join('; ');
  if (v.error) return `run failed: ${v.error}`;
  if (v.mustFail) {
    return v.ok ? `failed on ${v.mustFail.join(', ')}, as a control must` : `control NOT failed as it must (failed: ${v.failed.join(', ') || 'nothing'}; exit ${v.exitCode}${touched ? `; ${touched}` : ''})`;
  }
  const why = [
    v.failed.join(', '), !v.failed.length && v.exitCode !== 0 ? `exit ${v.exitCode}` : '', v.suiteErrors.length ? `suite errors: ${v.suiteErrors.length}` : '',
    v.notRun.length ? `not run: ${v.notRun.join('; ').slice(0, 300)}` : '', touched,
  ];
  return v.ok ? `passed${v.validatedFirst ? ` (${v.validatedFirst} bodies refused before lookup)` : ''}` : `FAILED though legal: ${why.filter(Boolean).join('; ')}`;
}

/**
 * Every dialect (and control) behind its own proxy, checked with --strict over its areas, one after
 * the other against one embedded reference; the tripwires are shared and read before and after each run.
 */
export async function runDialects(options: { workDir: string; print?: (line: string) => void; timeoutMs?: number; dialects?: Dialect[] }): Promise<DialectMatrixResult> {
  const started = Date.now();
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dialects = options.dialects ?? DIALECTS;
  const tripwire = await startTripwire();
  const bench = await startBench(options.workDir, timeoutMs).catch(async (err) => { await tripwire.close(); throw err; });
  try {
    const verdicts: DialectVerdict[] = [];
    for (const [n, dialect] of dialects.entries()) {
      const t0 = Date.now();
      const verdict: DialectVerdict = {
        id: dialect.id, description: dialect.description, style: dialect.style, areas: dialect.areas, mustFail: dialect.control?.mustFail,
        exitCode: 2, failed: [], messages: [], suiteErrors: [], notRun: [], canary: [], tripwire: 0, validatedFirst: 0, ok: false, requests: 0, durationMs: 0,
      };
      const seen: { canary: string[]; state?: Map<string, unknown> } = { canary: verdict.canary };
      const connectionsBefore = tripwire.connections();
      try {
        const hooks = dialectHooks(dialect, tripwire.env, tripwire.token, seen);
        const result = await bench.behindProxy(hooks, (t) => bench.run(t, dialect.areas, timeoutMs, dialect.id, GENERATED, undefined, DEADLINE_MS), true, dialect.basePath);
        verdict.tripwire = tripwire.connections() - connectionsBefore;
        verdict.validatedFirst = (seen.state?.get(APPLIED) as number | undefined) ?? 0;
        judge(verdict, result, dialect);
      } catch (err) {
        verdict.error = (err as Error).message;
        verdict.tripwire = tripwire.connections() - connectionsBefore;
      }
      verdict.durationMs = Date.now() - t0;
      verdicts.push(verdict);
      print(`  [${String(n + 1).padStart(String(dialects.length).length)}/${dialects.length}] ${verdict.ok ? '✓' : '✗'} ${dialect.id}: ${summary(verdict)} (${(verdict.durationMs / 1000).toFixed(1)} s)`);
      if (!verdict.ok && !dialect.control) for (const m of [...verdict.messages, ...verdict.suiteErrors].slice(0, 4)) print(`        ${m}`);
    }
    return { dialects: verdicts, ok: verdicts.every((v) => v.ok), durationMs: Date.now() - started };
  } finally {
    await bench.target.close();
    await tripwire.close();
  }
}

/** The dialect matrix as a table: dialect → style → failed or warned → verdict. */
export function renderDialects(m: DialectMatrixResult): string {
  const rows = m.dialects.map((v) => {
    const failed = v.error ? `run failed: ${v.error}` : v.failed.length ? v.failed.map((id) => (v.mustFail?.includes(id) ? `${id}*` : id)).join(', ') : '—';
    const touched = `${v.suiteErrors.length ? ` [suite errors: ${v.suiteErrors.length}]` : ''}${v.notRun.length ? ` [not run: ${v.notRun.length}]` : ''}${v.canary.length ? ' [canary sent]' : ''}${v.tripwire ? ' [tripwire reached]' : ''}${v.stopped ? ' [stopped]' : ''}`;
    return [v.id, v.mustFail ? `(control: must fail ${v.mustFail.join(', ')})` : v.style, `${failed}${touched}`, v.ok ? '✓' : '✗'];
  });
  const head = ['dialect', 'written this way by', 'failed or warned (* = required of a control)', ''];
  const widths = head.map((h, i) => Math.min(i === 1 ? 60 : 48, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const cut = (c: string, w: number) => (c.length > w ? `${c.slice(0, w - 1)}…` : c);
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : cut(c, widths[i]).padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of rows) out.push(line(r));
  out.push('');
  const dialects = m.dialects.filter((v) => !v.mustFail);
  const controls = m.dialects.filter((v) => v.mustFail);
  out.push(`${m.ok ? '✓' : '✗'} ${dialects.filter((v) => v.ok).length} of ${dialects.length} document dialects passed (--strict), ${controls.filter((v) => v.ok).length} of ${controls.length} controls failed as they must, in ${(m.durationMs / 1000).toFixed(0)} s`);
  return out.join('\n');
}
