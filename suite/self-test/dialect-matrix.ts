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
import { APPLIED, SHOWN, onDocument, responses, type Json } from './hooks.ts';
import { FrontMissing, type Front } from './nginx.ts';
import { plural } from '../reports/text.ts';
import { startBench } from './matrix.ts';
import type { FaultContext, FaultHooks, FaultRequest } from './proxy.ts';
import { validateFirstHooks } from './variants.ts';
import { DIALECTS, type Dialect, type DialectEnv } from './dialects.ts';

const DEFAULT_TIMEOUT_MS = 5_000;
/** The generated area's budget in a dialect's run: enough to send every operation a few bodies built from the served schemas. */
const GENERATED = 40;
/**
 * A dialect's run ends by then: the longest (every area) takes about 15 s on two quiet cores, and took
 * past 60 s (the deadline before) beside the fault matrix on a machine at a load average of 13, which
 * failed a correct dialect by timing alone. Only a run that never ends pays it.
 */
const DEADLINE_MS = 180_000;

/**
 * An entry of a family that runs on this matrix: a dialect (dialects.ts), or a stack (stacks.ts), which
 * may also put a server in front of the deployment, run under several seeds, and must show what it does.
 */
export type MatrixEntry = Dialect & {
  /** A server started in front of the proxy for the run (a real nginx): FrontMissing when it cannot run here. */
  front?: (upstream: string) => Promise<Front>;
  /** Runs under each of these seeds of the generated area (default: the matrix's one); every run must give the same verdict. */
  seeds?: number[];
  /** What the entry's hooks must have done at least once (they count with `shown()`), or the run proves nothing. */
  mustShow?: string;
  /** The generated area's budget of its runs (default GENERATED). */
  generated?: number;
};

/** A check left not run because every answer it could look at came from the HTTP stack: the point of a stack, not a gap. */
const refusedByStack = (reason: string | undefined) => /refused by the HTTP stack before the service/.test(reason ?? '');

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
  /** The entry could not run on this machine (nginx not installed), and why: not a failure, said in one line. */
  missing?: string;
  /** How many times the entry's hooks did what it is about (`mustShow`). */
  shown?: number;
  /** Each seed's run, when the entry runs under several. */
  seeds?: Array<{ seed: number; exitCode: number; failed: RequirementId[] }>;
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
function dialectHooks(dialect: MatrixEntry, env: DialectEnv, token: string, seen: { canary: string[]; state?: Map<string, unknown> }): FaultHooks {
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
function judge(verdict: DialectVerdict, result: RunResult, dialect: MatrixEntry): void {
  verdict.exitCode = result.exitCode;
  verdict.requests = result.requestCount;
  verdict.stopped = result.stopped;
  verdict.failed = result.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id);
  verdict.messages = result.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn')
    .map((c) => `${c.id}: ${c.failure ? `${firstLines(c.failure.title, 1)}${c.failure.received ? ` | received: ${firstLines(c.failure.received, 12)}` : ''}` : c.reason ?? ''}`);
  verdict.suiteErrors = result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${firstLines(c.failure?.message ?? c.reason, 1)}`);
  // Every check runs against the reference's own document (the clean runs of the fault matrix): one
  // that did not run here could not read this style, and a check that could not look is never a pass.
  verdict.notRun = result.checks.filter((c) => c.outcome === 'not-run' && !refusedByStack(c.reason)).map((c) => `${c.id}: ${firstLines(c.reason, 1)}`);
  const untouched = !verdict.canary.length && verdict.tripwire === 0;
  const showed = !dialect.mustShow || (verdict.shown ?? 0) > 0;
  verdict.ok = untouched && showed && (dialect.control
    ? result.exitCode === 1 && dialect.control.mustFail.every((id) => verdict.failed.includes(id))
    : result.exitCode === 0 && !verdict.failed.length && !verdict.suiteErrors.length && !verdict.notRun.length);
}

/** What a line of progress says about a verdict. */
function summary(v: DialectVerdict): string {
  const touched = [
    v.canary.length ? `canary token sent in ${v.canary.length} requests` : '', v.tripwire ? `tripwire server got ${v.tripwire} connections` : '',
    v.stopped ? `stopped: ${v.stopped}` : '',
  ].filter(Boolean).join('; ');
  if (v.missing) return `not run: ${v.missing}`;
  if (v.error) return `run failed: ${v.error}`;
  const seeds = v.seeds ? ` under seeds ${v.seeds.map((x) => x.seed).join(', ')}` : '';
  const unseen = v.shown === 0 ? '; what it is about never happened: proves nothing' : '';
  if (v.mustFail) {
    return v.ok ? `failed on ${v.mustFail.join(', ')}, as a control must` : `control NOT failed as it must (failed: ${v.failed.join(', ') || 'nothing'}; exit ${v.exitCode}${touched ? `; ${touched}` : ''})${unseen}`;
  }
  const why = [
    v.failed.join(', '), !v.failed.length && v.exitCode !== 0 ? `exit ${v.exitCode}` : '', v.suiteErrors.length ? `suite errors: ${v.suiteErrors.length}` : '',
    v.notRun.length ? `not run: ${v.notRun.join('; ').slice(0, 300)}` : '', touched,
    v.seeds && new Set(v.seeds.map((x) => `${x.exitCode} ${x.failed.join()}`)).size > 1 ? `the verdict depends on the seed: ${v.seeds.map((x) => `seed ${x.seed} exit ${x.exitCode}${x.failed.length ? ` (${x.failed.join(', ')})` : ''}`).join('; ')}` : '',
  ];
  const shown = v.shown ? `, ${plural(v.shown, 'answer')} of the stack` : '';
  return v.ok ? `passed${seeds}${shown}${v.validatedFirst ? ` (${v.validatedFirst} bodies refused before lookup)` : ''}` : `FAILED though legal${seeds}: ${why.filter(Boolean).join('; ')}${unseen}`;
}

/**
 * Every dialect (and control) behind its own proxy, checked with --strict over its areas, one after
 * the other against one embedded reference; the tripwires are shared and read before and after each run.
 */
export async function runDialects(options: { workDir: string; print?: (line: string) => void; timeoutMs?: number; dialects?: MatrixEntry[] }): Promise<DialectMatrixResult> {
  const started = Date.now();
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dialects: MatrixEntry[] = options.dialects ?? DIALECTS;
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
        const results = await bench.behindProxy(hooks, async (t, proxy) => {
          // A front (a real nginx) between the suite and the proxy: the run's base URL is the front's.
          const front = dialect.front ? await dialect.front(proxy.url) : undefined;
          try {
            const target = front ? { ...t, baseUrl: front.url + (dialect.basePath ?? '') } : t;
            const runs: Array<{ seed?: number; result: RunResult }> = [];
            for (const seed of dialect.seeds ?? [undefined]) {
              runs.push({ seed, result: await bench.run(target, dialect.areas, timeoutMs, dialect.id, dialect.generated ?? GENERATED, undefined, DEADLINE_MS, seed) });
            }
            return runs;
          } finally {
            await front?.close();
          }
        }, true, dialect.basePath);
        verdict.tripwire = tripwire.connections() - connectionsBefore;
        verdict.validatedFirst = (seen.state?.get(APPLIED) as number | undefined) ?? 0;
        if (dialect.mustShow) verdict.shown = (seen.state?.get(SHOWN) as number | undefined) ?? 0;
        // The worst run is the verdict; under several seeds, every run must give the same one.
        judge(verdict, results.find((r) => r.result.exitCode !== 0)?.result ?? results[0].result, dialect);
        if (dialect.seeds) {
          verdict.seeds = results.map((r) => ({ seed: r.seed!, exitCode: r.result.exitCode, failed: r.result.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id) }));
          verdict.requests = results.reduce((n, r) => n + r.result.requestCount, 0);
          if (new Set(verdict.seeds.map((x) => `${x.exitCode} ${x.failed.join()}`)).size > 1) verdict.ok = false;
        }
      } catch (err) {
        if (err instanceof FrontMissing) { verdict.missing = err.message; verdict.ok = true; } else verdict.error = (err as Error).message;
        verdict.tripwire = tripwire.connections() - connectionsBefore;
      }
      verdict.durationMs = Date.now() - t0;
      verdicts.push(verdict);
      print(`  [${String(n + 1).padStart(String(dialects.length).length)}/${dialects.length}] ${verdict.missing ? '-' : verdict.ok ? '✓' : '✗'} ${dialect.id}: ${summary(verdict)} (${(verdict.durationMs / 1000).toFixed(1)} s)`);
      if (!verdict.ok && !dialect.control) for (const m of [...verdict.messages, ...verdict.suiteErrors].slice(0, 4)) print(`        ${m}`);
    }
    return { dialects: verdicts, ok: verdicts.every((v) => v.ok), durationMs: Date.now() - started };
  } finally {
    await bench.target.close();
    await tripwire.close();
  }
}

/** How the table names a family's entries: `dialect` written by a tool, or `stack` standing for a deployment's front. */
export interface FamilyLabels { entry: string; plural: string; by: string }
const DIALECT_LABELS: FamilyLabels = { entry: 'dialect', plural: 'document dialects', by: 'written this way by' };

/** The matrix of a family as a table: entry → style → failed or warned → verdict. */
export function renderDialects(m: DialectMatrixResult, labels: FamilyLabels = DIALECT_LABELS): string {
  const rows = m.dialects.map((v) => {
    const failed = v.error ? `run failed: ${v.error}` : v.failed.length ? v.failed.map((id) => (v.mustFail?.includes(id) ? `${id}*` : id)).join(', ') : '—';
    const touched = `${v.suiteErrors.length ? ` [suite errors: ${v.suiteErrors.length}]` : ''}${v.notRun.length ? ` [not run: ${v.notRun.length}]` : ''}${v.canary.length ? ' [canary sent]' : ''}${v.tripwire ? ' [tripwire reached]' : ''}${v.stopped ? ' [stopped]' : ''}`;
    return [v.id, v.mustFail ? `(control: must fail ${v.mustFail.join(', ')})` : v.style, v.missing ? `not run: ${v.missing}` : `${failed}${touched}`, v.missing ? '-' : v.ok ? '✓' : '✗'];
  });
  const head = [labels.entry, labels.by, 'failed or warned (* = required of a control)', ''];
  const widths = head.map((h, i) => Math.min(i === 1 ? 60 : 48, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const cut = (c: string, w: number) => (c.length > w ? `${c.slice(0, w - 1)}…` : c);
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : cut(c, widths[i]).padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w)))];
  for (const r of rows) out.push(line(r));
  out.push('');
  const ran = m.dialects.filter((v) => !v.missing);
  const dialects = ran.filter((v) => !v.mustFail);
  const controls = ran.filter((v) => v.mustFail);
  const missing = m.dialects.filter((v) => v.missing);
  out.push(`${m.ok ? '✓' : '✗'} ${dialects.filter((v) => v.ok).length} of ${dialects.length} ${labels.plural} passed (--strict), ${controls.filter((v) => v.ok).length} of ${controls.length} controls failed as they must, in ${(m.durationMs / 1000).toFixed(0)} s${missing.length ? `; not run here: ${missing.map((v) => v.id).join(', ')} (${missing[0].missing})` : ''}`);
  return out.join('\n');
}
