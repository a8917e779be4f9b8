// The one runner of the self-test's families (faults, legal variants, document dialects, stacks, each a
// catalogue of entries): every entry behind its own proxy in front of one embedded reference (bench.ts),
// run with --strict over the areas it concerns, then judged again as a user's run (without --strict:
// judgedAt, no request sent twice), so that a verdict holds at the level a user's run charges. The family
// says what an entry's proxy does, how it is run and what its runs must show; one printer for every matrix.
import type { RequirementId, SelectableArea } from '../../contract/requirements.ts';
import { judgedAt, type RunResult } from '../results/results.ts';
import type { Target } from '../run/target.ts';
import { startBench, DEFAULT_TIMEOUT_MS, type Bench, type RunOptions } from './bench.ts';
import { FrontMissing, type Front } from './nginx.ts';
import type { FaultContext, FaultHooks } from './proxy.ts';

export interface Entry { id: string; description: string; areas: readonly SelectableArea[] }

/** What every family's verdict holds. */
export interface Verdict {
  id: string;
  description: string;
  areas: readonly string[];
  /** Exit status of the --strict run (the worst of an entry's runs), and of the same run as a user's run judges it. */
  exitCode: number;
  userExitCode: number;
  /** Requirements failed or warned under --strict, in catalogue order. */
  failed: RequirementId[];
  /** Those a user's run only warns on (SHOULDs). */
  warnings: RequirementId[];
  /** What the failed or warned checks said (first lines). */
  messages: string[];
  /** Checks that ended in a fault of the suite itself (outcome error): a check too weak to give a verdict. */
  suiteErrors: string[];
  ok: boolean;
  requests: number;
  durationMs: number;
  /** The run could not be made (proxy, document, session). */
  error?: string;
  /** The entry could not run on this machine (a front not installed), and why: not a failure, said in one line. */
  missing?: string;
  /** Times it was run again because the runs before could not tell (suite errors, no verdict). */
  reruns?: number;
}

/** How an entry is run (beside its areas): a front before the proxy, several seeds, a preflight. */
export interface RunPlan extends Partial<Omit<RunOptions, 'areas' | 'label'>> {
  front?: (upstream: string) => Promise<Front>;
  seeds?: number[];
  preflight?: boolean;
  basePath?: string;
  /** The cleanup goes through the entry's own proxy (whose ids it knows). */
  cleanupThroughProxy?: boolean;
}

export interface Family<E extends Entry, V extends Verdict> {
  /** What the family is ('faults', 'legal variants', …), what its table calls an entry and its second column. */
  name: string;
  entry: string;
  column: string;
  entries: readonly E[];
  /** The order of the runs (default: the catalogue's). */
  schedule?(entries: readonly E[]): E[];
  /** The proxy's hooks for an entry; `ctx` is its memory, read by `judge` once the runs are over. */
  hooks(entry: E): FaultHooks;
  plan?(entry: E): RunPlan;
  /** Sets the family's part of the verdict (and `ok`) from the runs (one a seed) and the proxy's memory. */
  judge(entry: E, v: V, runs: Array<{ seed?: number; result: RunResult }>, state: Map<string, unknown> | undefined): void;
  /** What a line of progress says after the id, and the table's second and third cells. */
  line(v: V): string;
  cells(v: V): [string, string];
  /** The lines under the table. */
  total(vs: readonly V[], durationMs: number): string[];
}

export interface FamilyResult<V extends Verdict> {
  /** The family's names, how its table reads a verdict, and the lines under the table. */
  family: { name: string; entry: string; column: string; cells(v: V): [string, string]; total: string[] };
  verdicts: V[];
  ok: boolean;
  durationMs: number;
}

export interface RunFamilyOptions {
  /** Where the runs keep their ledgers of created resources (removed after cleanup). */
  workDir: string;
  print?: (line: string) => void;
  timeoutMs?: number;
  /** A bench already started (the faults' correct runs share it), else the runner starts and closes its own. */
  bench?: Bench;
}

const brokenIds = (r: RunResult) => r.requirements.filter((q) => q.outcome === 'fail' || q.outcome === 'warn').map((q) => q.id);
export const firstLines = (text: string | undefined, n = 3) => (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean).slice(0, n).join(' ').slice(0, 400);
/** What the failed or warned checks of a run said, those of `ids` only when given. */
export const messagesOf = (r: RunResult, ids?: readonly RequirementId[]) => r.checks
  .filter((c) => (c.outcome === 'fail' || c.outcome === 'warn') && (!ids || c.requirementIds.some((id) => ids.includes(id))))
  .map((c) => `${c.id}: ${c.failure ? `${firstLines(c.failure.title, 1)}${c.failure.received ? ` | received: ${firstLines(c.failure.received, 12)}` : ''}` : c.reason ?? ''}`);

/** Runs again of an entry whose run could not tell (suite errors, verdict not ok). */
const INCONCLUSIVE_RERUNS = 2;
const inconclusive = (v: Verdict) => !v.ok && !v.error && !v.missing && v.suiteErrors.length > 0;

/** Every entry of a family, one after the other, each behind its own proxy; one whose run could not tell, again. */
export async function runFamily<E extends Entry, V extends Verdict>(family: Family<E, V>, options: RunFamilyOptions): Promise<FamilyResult<V>> {
  const started = Date.now();
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const bench = options.bench ?? await startBench(options.workDir, timeoutMs);
  try {
    const verdicts = new Map<E, V>();
    const runs = family.schedule?.(family.entries) ?? [...family.entries];
    const runEntry = async (entry: E, n: number, reruns: number) => {
      const t0 = Date.now();
      const v = { id: entry.id, description: entry.description, areas: entry.areas, exitCode: 2, userExitCode: 2, failed: [], warnings: [], messages: [], suiteErrors: [], ok: false, requests: 0, durationMs: 0 } as Verdict as V;
      const plan = family.plan?.(entry) ?? {};
      const own = family.hooks(entry);
      // Every request passes the request hook: that is where the proxy's memory is seen.
      let state: Map<string, unknown> | undefined;
      const hooks: FaultHooks = { ...own, request: async (req, ctx: FaultContext) => { state = ctx.state; await own.request?.(req, ctx); } };
      try {
        const results = await bench.behindProxy(hooks, async (t: Target, proxy) => {
          // A front (a real nginx) between the suite and the proxy: the run's base URL is the front's.
          const front = plan.front ? await plan.front(proxy.url) : undefined;
          try {
            const target = front ? { ...t, baseUrl: front.url + (plan.basePath ?? '') } : t;
            const out: Array<{ seed?: number; result: RunResult }> = [];
            for (const seed of plan.seeds ?? [plan.seed]) {
              out.push({ seed, result: await bench.run(target, { ...plan, areas: entry.areas, label: entry.id, seed, cleanupUrl: plan.cleanupThroughProxy ? proxy.url : undefined }) });
            }
            return out;
          } finally {
            await front?.close();
          }
        }, plan.preflight, plan.basePath);
        // The worst run is the verdict.
        const result = results.find((r) => r.result.exitCode !== 0)?.result ?? results[0].result;
        const user = judgedAt(result, false);
        Object.assign(v, {
          exitCode: result.exitCode, userExitCode: user.exitCode, failed: brokenIds(result), messages: messagesOf(result),
          warnings: user.requirements.filter((q) => q.outcome === 'warn').map((q) => q.id), requests: results.reduce((k, r) => k + r.result.requestCount, 0),
          suiteErrors: result.checks.filter((c) => c.outcome === 'error').map((c) => `${c.id}: ${firstLines(c.failure?.message ?? c.reason, 1)}`),
        });
        family.judge(entry, v, results, state);
      } catch (err) {
        if (err instanceof FrontMissing) { v.missing = err.message; v.ok = true; } else v.error = (err as Error).message;
        family.judge(entry, v, [], state);
      }
      v.durationMs = Date.now() - t0;
      verdicts.set(entry, v);
      const mark = v.missing ? '-' : v.ok ? '✓' : '✗';
      const what = v.missing ? `not run: ${v.missing}` : v.error ? `run failed: ${v.error}` : family.line(v);
      if (reruns) v.reruns = reruns;
      print(`  [${String(n + 1).padStart(String(runs.length).length)}/${runs.length}] ${mark} ${entry.id}: ${what}${reruns ? ` (run ${reruns + 1}: the runs before could not tell)` : ''} (${(v.durationMs / 1000).toFixed(1)} s)`);
      if (!v.ok) for (const m of [...v.messages, ...v.suiteErrors].slice(0, 4)) print(`        ${m}`);
    };
    for (const [n, entry] of runs.entries()) await runEntry(entry, n, 0);
    // An entry whose run ended in suite errors without its verdict (the rate-limit area "too slowly to
    // tell" on a machine at a load of 15 and more) gave no verdict: it runs again, twice at most. One
    // whose runs looked and judged is never run again.
    for (let again = 1; again <= INCONCLUSIVE_RERUNS; again++) {
      for (const [n, entry] of runs.entries()) if (inconclusive(verdicts.get(entry)!)) await runEntry(entry, n, again);
    }
    const ordered = family.entries.map((e) => verdicts.get(e)!);
    const durationMs = Date.now() - started;
    return { family: { name: family.name, entry: family.entry, column: family.column, cells: (v) => family.cells(v), total: family.total(ordered, durationMs) }, verdicts: ordered, ok: ordered.every((v) => v.ok), durationMs };
  } finally {
    if (!options.bench) await bench.target.close();
  }
}

/** A family's matrix as a table: entry → its second column → failed or warned (marked) → verdict; then its totals. */
export function renderFamily<V extends Verdict>(m: FamilyResult<V>): string {
  const rows = m.verdicts.map((v) => [v.id, ...(v.missing ? ['', `not run: ${v.missing}`] : v.error ? ['', `run failed: ${v.error}`] : m.family.cells(v)), v.missing ? '-' : v.ok ? '✓' : '✗']);
  const head = [m.family.entry, m.family.column, 'failed or warned (* expected, ~ warns)', ''];
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const cut = (c: string, w: number) => (c.length > w ? `${c.slice(0, w - 1)}…` : c);
  const line = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : cut(c, widths[i]).padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', ...m.family.total].join('\n');
}

/** The failed requirements of a verdict for its table, `*` on those it requires, `~` on a user's run's warnings. */
export const markedFailed = (v: Verdict, required: readonly string[] = [], note = (_id: RequirementId) => '') =>
  v.failed.length ? v.failed.map((id) => `${id}${required.includes(id) ? '*' : ''}${v.warnings.includes(id) ? '~' : ''}${note(id)}`).join(', ') : '—';
