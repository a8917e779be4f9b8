// A vitest reporter that turns finished checks into RawCheck records and shows progress: one line per
// check as it finishes, so a long run against a paced deployment is never silent. It reads what each
// check recorded in its metadata (requirement ids, the failure as made, "not run" reasons), never
// its title or error message.
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';
import type { TestAnnotation } from 'vitest';
import { WAIT_ANNOTATION } from '../http/waits.ts';
import { basename } from 'node:path';
import { REQUIREMENTS, type RequirementId } from '../../contract/requirements.ts';
import type { Failure } from '../data/failure.ts';
import type { Exchange } from '../data/exchange.ts';
import { brokenOutcome, type RawCheck } from '../results/results.ts';
import { idsLabel, MARK as OUTCOME_MARK } from '../reports/failure-view.ts';

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;
const areaOf = (moduleId: string) => basename(moduleId).replace(/\.test\.ts$/, '');

/** The failed or stopped setup (beforeAll) of a suite or of one of its parents, if any, and where it is. */
function failedSetup(test: TestCase): { failure?: Failure; notRun?: string; where: string } | undefined {
  for (let p: TestSuite | TestModule = test.parent; ; p = (p as TestSuite).parent) {
    const { setupFailure, notRun } = p.meta();
    // Named by where it is, never by what it met: the name of a check stays the same from run to run.
    const where = p.type === 'module' ? `scenarios/${basename(p.moduleId)}` : `"${p.name}"`;
    if (setupFailure || notRun) return { failure: setupFailure, notRun, where };
    if (p.type === 'module') return undefined;
  }
}

export class Collector implements Reporter {
  readonly checks: RawCheck[] = [];
  readonly unhandled: string[] = [];
  /** Exchanges of hooks that no check took: judged by the per-response checks only. */
  readonly strayExchanges: Exchange[] = [];
  /** Setups that failed, with the requirements of the checks they kept from running. */
  /** Setup failures and stops already told, as [file, first line of their message]. */
  private readonly toldSetups = new Set<[string, string]>();
  /** Checks skipped with no reason, per file: explained when the file turns out not to have run. */
  private readonly unexplained = new Map<string, RawCheck[]>();
  private readonly setups = new Map<Failure, { area: string; where: string; ids: Set<RequirementId>; exchanges: Exchange[] }>();
  /** `strict`: a SHOULD broken fails (✗) rather than warns (⚠), as the results will say. */
  constructor(private readonly print: (line: string) => void, private readonly started?: (vitest: Vitest) => void, private readonly strict = false) {}

  onInit(vitest: Vitest): void {
    this.started?.(vitest);
  }

  /** The countdown of the wait in progress, if any. */
  private waiting: NodeJS.Timeout | undefined;
  private stopWaiting(): void {
    clearInterval(this.waiting);
    this.waiting = undefined;
  }

  /** A check announced a wait (Retry-After): say so at once, then count down every 10 s until it ends. */
  onTestCaseAnnotate(test: TestCase, annotation: TestAnnotation): void {
    if (annotation.type !== WAIT_ANNOTATION) return;
    const { ms, why } = JSON.parse(annotation.message) as { ms: number; why: string };
    this.stopWaiting();
    const until = Date.now() + ms;
    this.print(`  ⏳ ${areaOf(test.module.moduleId)}: [${(test.meta().requirementIds ?? []).join(', ')}] ${test.name}: ${why}, ${Math.ceil(ms / 1000)} s`);
    this.waiting = setInterval(() => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left > 0) this.print(`  ⏳ … ${left} s left`);
      else this.stopWaiting();
    }, 10_000);
    this.waiting.unref();
  }

  onTestCaseResult(test: TestCase): void {
    this.stopWaiting();
    const result = test.result();
    const meta = test.meta();
    const area = areaOf(test.module.moduleId);
    const state = result.state === 'pending' ? 'skipped' : result.state;
    const note = result.state === 'skipped' ? result.note : undefined;
    const requirementIds = meta.requirementIds ?? [];
    let notRun = meta.notRun;
    let failure = meta.failure;
    if (state === 'skipped' && !notRun && !note) {
      const setup = failedSetup(test);
      if (setup?.notRun) { notRun = setup.notRun; this.toldSetups.add([test.module.moduleId, setup.notRun.split('\n')[0]]); }
      else if (setup?.failure) {
        this.toldSetups.add([test.module.moduleId, setup.failure.message.split('\n')[0]]);
        notRun = `setup failed: ${setup.failure.title}`;
        const entry = this.setups.get(setup.failure) ?? { area, where: setup.where, ids: new Set(), exchanges: [] };
        for (const id of requirementIds) entry.ids.add(id);
        this.setups.set(setup.failure, entry);
      }
    }
    if (state === 'failed' && !failure) {
      // Thrown outside check() (a hook around it): a fault of the suite, with vitest's message.
      const e = result.errors?.[0];
      failure = { requirementIds, title: `suite: ${String(e?.message ?? 'failed without an error').split('\n')[0]}`, message: String(e?.stack ?? e?.message ?? ''), culprit: 'suite' };
    }
    const raw: RawCheck = {
      area, title: test.name, requirementIds, state, durationMs: Math.round(test.diagnostic()?.duration ?? 0), failure,
      // Only a skip the check chose (skip() of suite/scenario/check.ts) is a skip; a note vitest wrote
      // itself (a cancelled run) only says it did not run.
      notRun, skipNote: state === 'skipped' && !notRun ? meta.skipNote : undefined,
      runnerNote: state === 'skipped' && !notRun && !meta.skipNote ? note : undefined, exchanges: meta.exchanges ?? [],
    };
    // A check reported twice (a cancelled run reports the one it stopped again): its last report counts.
    const before = this.checks.findIndex((c) => c.area === raw.area && c.title === raw.title);
    if (before >= 0) this.checks[before] = raw; else this.checks.push(raw);
    if (state === 'skipped' && !notRun && !meta.skipNote) {
      const list = this.unexplained.get(test.module.moduleId) ?? [];
      list.push(raw);
      this.unexplained.set(test.module.moduleId, list);
    }
    const why = notRun ?? note;
    const charged = failure?.requirementIds.length ? failure.requirementIds : requirementIds;
    const mark = notRun ? '○' : state === 'failed' && failure?.culprit === 'target' && charged.length ? OUTCOME_MARK[brokenOutcome(charged, this.strict)] : MARK[state];
    this.print(`  ${mark} ${area}: [${idsLabel(requirementIds)}] ${test.name}${why ? ` (${why})` : ''}`);
  }

  onTestModuleEnd(module: TestModule): void {
    const area = areaOf(module.moduleId);
    // Exchanges of the file's hooks that no check took: the per-response checks judge them.
    const exchanges = module.meta().exchanges ?? [];
    for (const [failure, entry] of this.setups) {
      if (entry.area !== area) continue;
      this.checks.push({ area, title: `setup of ${entry.where}`, requirementIds: [...entry.ids], state: 'failed', durationMs: 0, failure: { ...failure, requirementIds: [...entry.ids] }, exchanges: entry.exchanges });
      this.print(`  ✗ ${area}: setup failed, ${entry.ids.size} requirement(s) could not be checked: ${failure.title}`);
      this.setups.delete(failure);
    }
    // A failed or stopped setup() is already told (its checks "not run", the failure charged above);
    // vitest reports the same error on the file, which is not a second fault.
    const told = new Set([...this.toldSetups].filter(([m]) => m === module.moduleId).map(([, message]) => message));
    const errors = module.errors().filter((e) => !told.has(String(e.message ?? '').split('\n')[0]));
    if (!errors.length) {
      this.strayExchanges.push(...exchanges);
      return;
    }
    // A scenario file that cannot run ran no check: a fault of the suite, charged to the requirements
    // of its checks (the verdict on them is unknown), never a pass.
    const message = String(errors[0].message ?? errors[0]);
    const blocked = this.unexplained.get(module.moduleId) ?? [];
    for (const c of blocked) c.notRun = 'the scenario file could not run';
    // A file that failed to import registered no check: its area's requirements are the ones unknown.
    const ids = blocked.length ? [...new Set(blocked.flatMap((c) => c.requirementIds))] : REQUIREMENTS.filter((q) => q.area === area).map((q) => q.id);
    this.checks.push({
      area, title: `scenario file ${basename(module.moduleId)} could not run`, requirementIds: ids, state: 'failed', durationMs: 0, exchanges,
      failure: { requirementIds: ids, title: `suite: ${message.split('\n')[0]}`, message, culprit: 'suite' },
    });
    this.print(`  ✗ ${area}: the scenario file could not run: ${message.split('\n')[0]}`);
  }

  /** Takes in what another lane's collector gathered (lanes run at once: suite/run/vitest.ts). */
  absorb(other: Collector): this {
    this.checks.push(...other.checks);
    this.unhandled.push(...other.unhandled);
    this.strayExchanges.push(...other.strayExchanges);
    return this;
  }

  onTestRunEnd(_modules: unknown, errors: ReadonlyArray<{ message?: string }>): void {
    for (const e of errors) this.unhandled.push(String(e.message ?? e));
  }
}
