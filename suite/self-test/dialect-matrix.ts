// The families of the served document and of what stands in front of a deployment: document dialects
// (dialects.ts) and stacks (stacks.ts), each entry behind its own proxy in front of one embedded
// reference, run by the one runner (runner.ts) with --strict over the areas it concerns and judged
// again as a user's run. The proxy serves the rewritten document (at the dialect's base path), and
// validates request bodies before the lookup against the ORIGINAL document (legal: SPEC.md does not
// order validation and lookup), so that a body the suite built wrong from the dialect (an exclusive
// bound read as inclusive, a required member lost under a nested allOf) is answered 400 where a 404 was
// expected, and fails the run. Every run also watches two tripwires: a canary file and a loopback
// server that counts connections. No request may carry the canary's token, and nothing may connect to
// the server: a suite that reads local files or fetches what a served document points to would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requirement, type RequirementId } from '../../contract/requirements.ts';
import { APPLIED, SHOWN, onDocument, responses, type Json } from './hooks.ts';
import type { Front } from './nginx.ts';
import { plural } from '../reports/text.ts';
import type { FaultHooks } from './proxy.ts';
import { firstLines, markedFailed, runFamily, type Family, type FamilyResult, type RunFamilyOptions, type Verdict } from './runner.ts';
import { validateFirstHooks } from './variants/errors.ts';
import { DIALECTS, type Dialect, type DialectEnv } from './dialects.ts';

/** The generated area's budget in a dialect's run: enough to send every operation a few bodies built from the served schemas. */
const GENERATED = 40;
/**
 * A dialect's run ends by then: the longest (every area) takes about 15 s on two quiet cores, and took
 * past 60 s (the deadline before) beside the fault matrix on a machine at a load average of 13, which
 * failed a correct dialect by timing alone. Only a run that never ends pays it.
 */
const DEADLINE_MS = 180_000;

/** A stack (stacks.ts): a dialect that may also put a server in front of the deployment, run under several seeds, and must show what it does. */
export type Stack = Dialect & {
  /** A server started in front of the proxy for the run (a real nginx): FrontMissing when it cannot run here. */
  front?: (upstream: string) => Promise<Front>;
  /** Runs under each of these seeds of the generated area (default: the matrix's one); every run must give the same verdict. */
  seeds?: number[];
  /** What the entry's hooks must have done at least once (they count with `shown()`), or the run proves nothing. */
  mustShow?: string;
  /** The generated area's budget of its runs (default GENERATED). */
  generated?: number;
  /**
   * SHOULDs that report the stack's own answers, on which a correct deployment behind it warns (ERR-12:
   * Apache httpd's 404 page to an encoded slash): each must warn, nothing else may fail or warn, and a
   * user's run exits 0. A stack whose pages stopped showing there fails the entry as a missing refusal does.
   */
  warns?: RequirementId[];
  /** Only these requirements of its areas (`--only`): the runner's own checks, which need no more. */
  only?: RequirementId[];
};

/** The same requirements, in any order. */
const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** A check left not run because every answer it could look at came from the HTTP stack: the point of a stack, not a gap. */
const refusedByStack = (reason: string | undefined) => /refused by the HTTP stack before the service/.test(reason ?? '');

export interface DialectVerdict extends Verdict {
  style: string;
  /** A control's requirements that must fail. */
  mustFail?: RequirementId[];
  /** The SHOULDs the entry must warn on (its stack's own pages): `warns`. */
  expectedWarnings?: RequirementId[];
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
  /** How many times the entry's hooks did what it is about (`mustShow`). */
  shown?: number;
  /** Each seed's run, when the entry runs under several. */
  seeds?: Array<{ seed: number; exitCode: number; failed: RequirementId[] }>;
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

/** What a line of progress says about a verdict. */
function summary(v: DialectVerdict): string {
  const touched = [
    v.canary.length ? `canary token sent in ${v.canary.length} requests` : '', v.tripwire ? `tripwire server got ${v.tripwire} connections` : '',
    v.stopped ? `stopped: ${v.stopped}` : '',
  ].filter(Boolean).join('; ');
  const seeds = v.seeds ? ` under seeds ${v.seeds.map((x) => x.seed).join(', ')}` : '';
  const unseen = v.shown === 0 ? '; what it is about never happened: proves nothing' : '';
  if (v.mustFail) {
    return v.ok ? `failed on ${v.mustFail.join(', ')}, as a control must` : `control NOT failed as it must (failed: ${v.failed.join(', ') || 'nothing'}; exit ${v.exitCode}, without --strict ${v.userExitCode}${touched ? `; ${touched}` : ''})${unseen}`;
  }
  const expected = v.expectedWarnings ?? [];
  const unwarned = expected.filter((id) => !v.warnings.includes(id));
  const why = [
    v.failed.filter((id) => !expected.includes(id)).join(', '), unwarned.length ? `did not warn on ${unwarned.join(', ')} (the stack's own pages never showed)` : '', v.warnings.some((id) => !expected.includes(id)) ? `a user's run warns on ${v.warnings.filter((id) => !expected.includes(id)).join(', ')}` : '', v.failed.every((id) => expected.includes(id)) && v.exitCode !== (expected.length ? 1 : 0) ? `exit ${v.exitCode}` : '', v.userExitCode ? `without --strict exit ${v.userExitCode}` : '',
    v.suiteErrors.length ? `suite errors: ${v.suiteErrors.length}` : '', v.notRun.length ? `not run: ${v.notRun.join('; ').slice(0, 300)}` : '', touched,
    v.seeds && new Set(v.seeds.map((x) => `${x.exitCode} ${x.failed.join()}`)).size > 1 ? `the verdict depends on the seed: ${v.seeds.map((x) => `seed ${x.seed} exit ${x.exitCode}${x.failed.length ? ` (${x.failed.join(', ')})` : ''}`).join('; ')}` : '',
  ];
  const shown = `${v.shown ? `, ${plural(v.shown, 'answer')} of the stack` : ''}${v.expectedWarnings?.length ? `, warned on ${v.expectedWarnings.join(', ')} as it must (the stack's own pages)` : ''}`;
  return v.ok ? `passed${seeds}${shown}${v.validatedFirst ? ` (${v.validatedFirst} bodies refused before lookup)` : ''}` : `FAILED though legal${seeds}: ${why.filter(Boolean).join('; ')}${unseen}`;
}

/**
 * The family of dialects or stacks, on one tripwire. An entry's proxy sees the request first (for the
 * canary), then its own hooks (its mount), validation before lookup against the original document,
 * and the rewritten document. A dialect passes cleanly (and a user's run exits 0); a control fails on
 * what it names (a user's run too, when that is a MUST); neither touches a tripwire.
 */
function dialectFamily(name: string, entry: string, column: string, entries: readonly Stack[], tripwire: Tripwire): Family<Stack, DialectVerdict> {
  const connectionsBefore = new Map<string, number>();
  const canary = new Map<string, string[]>();
  return {
    name, entry, column, entries,
    hooks(dialect) {
      connectionsBefore.set(dialect.id, tripwire.connections());
      const seen: string[] = [];
      canary.set(dialect.id, seen);
      return {
        async request(req, ctx) {
          if (`${req.path} ${req.query} ${JSON.stringify(req.headers)} ${req.rawBody}`.includes(tripwire.token)) seen.push(`${req.method} ${req.path}`);
          await dialect.hooks?.request?.(req, ctx);
        },
        answer: dialect.hooks?.answer,
        response: responses(validateFirstHooks().response, dialect.hooks?.response, onDocument((doc) => rewriteDocument(dialect, doc, tripwire.env))),
      } satisfies FaultHooks;
    },
    plan: (d) => ({ preflight: true, basePath: d.basePath, front: d.front, seeds: d.seeds, only: d.only, generated: d.generated ?? GENERATED, deadlineMs: DEADLINE_MS }),
    judge(dialect, v, runs, state) {
      Object.assign(v, {
        style: dialect.style, mustFail: dialect.control?.mustFail, expectedWarnings: dialect.warns, notRun: [], canary: canary.get(dialect.id) ?? [], stopped: runs.find((r) => r.result.stopped)?.result.stopped,
        tripwire: tripwire.connections() - (connectionsBefore.get(dialect.id) ?? 0), validatedFirst: (state?.get(APPLIED) as number | undefined) ?? 0,
        shown: dialect.mustShow ? (state?.get(SHOWN) as number | undefined) ?? 0 : undefined,
      });
      const worst = runs.find((r) => r.result.exitCode !== 0)?.result ?? runs[0]?.result;
      if (!worst) return;
      v.stopped = worst.stopped;
      // Every check runs against the reference's own document (the clean runs of the fault matrix): one
      // that did not run here could not read this style, and a check that could not look is never a pass.
      v.notRun = worst.checks.filter((c) => c.outcome === 'not-run' && !refusedByStack(c.reason)).map((c) => `${c.id}: ${firstLines(c.reason, 1)}`);
      const untouched = !v.canary.length && v.tripwire === 0;
      const showed = !dialect.mustShow || (v.shown ?? 0) > 0;
      const mustFail = dialect.control?.mustFail;
      const warns = dialect.warns ?? [];
      v.ok = untouched && showed && (mustFail
        ? worst.exitCode === 1 && mustFail.every((id) => v.failed.includes(id)) && (v.userExitCode === 1 || mustFail.every((id) => requirement(id).level === 'SHOULD'))
        : worst.exitCode === (warns.length ? 1 : 0) && v.userExitCode === 0 && sameIds(v.failed, warns) && sameIds(v.warnings, warns) && !v.suiteErrors.length && !v.notRun.length);
      if (dialect.seeds) {
        // Under several seeds, every run must give the same verdict.
        v.seeds = runs.map((r) => ({ seed: r.seed!, exitCode: r.result.exitCode, failed: r.result.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id) }));
        if (new Set(v.seeds.map((x) => `${x.exitCode} ${x.failed.join()}`)).size > 1) v.ok = false;
      }
    },
    line: summary,
    cells(v) {
      const touched = `${v.suiteErrors.length ? ` [suite errors: ${v.suiteErrors.length}]` : ''}${v.notRun.length ? ` [not run: ${v.notRun.length}]` : ''}${v.canary.length ? ' [canary sent]' : ''}${v.tripwire ? ' [tripwire reached]' : ''}${v.stopped ? ' [stopped]' : ''}`;
      return [v.mustFail ? `(control: must fail ${v.mustFail.join(', ')})` : v.style, `${markedFailed(v, v.mustFail ?? v.expectedWarnings)}${touched}`];
    },
    total(vs, ms) {
      const ran = vs.filter((v) => !v.missing);
      const [passing, controls, missing] = [ran.filter((v) => !v.mustFail), ran.filter((v) => v.mustFail), vs.filter((v) => v.missing)];
      return [`${vs.every((v) => v.ok) ? '✓' : '✗'} ${passing.filter((v) => v.ok).length} of ${passing.length} ${name} passed (--strict; without --strict: exit 0), ${controls.filter((v) => v.ok).length} of ${controls.length} controls failed as they must, in ${(ms / 1000).toFixed(0)} s${missing.length ? `; not run here: ${missing.map((v) => v.id).join(', ')} (${missing[0].missing})` : ''}`];
    },
  };
}

export type DialectMatrixResult = FamilyResult<DialectVerdict>;

/** A family of dialects or stacks, one after the other against one embedded reference; the tripwires are shared and read before and after each run. */
async function runOnTripwire(options: RunFamilyOptions, family: (t: Tripwire) => Family<Stack, DialectVerdict>): Promise<DialectMatrixResult> {
  const tripwire = await startTripwire();
  try {
    return await runFamily(family(tripwire), options);
  } finally {
    await tripwire.close();
  }
}

export const runDialects = (options: RunFamilyOptions & { dialects?: Stack[] }) =>
  runOnTripwire(options, (t) => dialectFamily('document dialects', 'dialect', 'written this way by', options.dialects ?? DIALECTS, t));
export const runStacks = (options: RunFamilyOptions & { stacks: Stack[] }) =>
  runOnTripwire(options, (t) => dialectFamily('stacks', 'stack', 'what it stands for', options.stacks, t));
