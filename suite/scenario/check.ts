// What a scenario file writes a check with. `check('PROG-2', 'fires at the Nth event', fn)` registers a
// vitest test whose metadata holds the requirement ids (typed: an unknown id does not compile); the
// results read the ids from there, never from titles. ok(), fails() and expectFor() throw a
// CheckFailure with the exchange at hand; a vitest expect() that fails becomes one too, with the last
// exchange the check made before it. Anything else thrown is a fault of the suite ("error").
import { beforeAll, chai, it, type TaskMeta, type TestContext } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import { basename } from 'node:path';
import { requirement, type RequirementId } from '../../contract/requirements.ts';
import { CheckFailure, NotVerified, type Failure, type FailureInit } from '../data/failure.ts';
import { curlOf, type Exchange } from '../data/exchange.ts';
import { creationOf, lastRecorded, pendingExchanges } from '../http/recorder.ts';
import { RunStopped } from '../data/stop.ts';
import type { Reply } from '../http/client.ts';
import { suiteConfig } from '../data/config.ts';
import { missingOf, needsText, type Prerequisite } from '../data/prerequisites.ts';
import { selects } from '../data/selection.ts';

declare module 'vitest' {
  interface TaskMeta {
    /** The requirements a check covers (set by check()). */
    requirementIds?: RequirementId[];
    /** The failure, as the check made it. */
    failure?: Failure;
    /** Set when a prerequisite is missing: the check is "not run", with the flag that enables it. */
    notRun?: string;
    /** The exchanges the check made (moved here after each check by suite/scenario/setup.ts). */
    exchanges?: Exchange[];
    /** The check chose to skip: the target lacks an optional feature (the note says which). */
    skipNote?: string;
    /** On a suite: its setup (beforeAll) failed, so its checks could not run. */
    setupFailure?: Failure;
    /** What the check needs from the run (a second key…), declared so that --list can say it without running. */
    needs?: Prerequisite[];
  }
}

type CheckFn = (ctx: TestContext) => unknown;
export interface CheckOptions {
  timeout?: number;
  /** Without these the check is "not run", naming the flag that provides each (see requires()). */
  needs?: Prerequisite[];
}

/**
 * Registers a check of one or more requirements. The file must be the scenario file of their area.
 * Options go after the function or, to be read first, before it: check(id, title, { needs }, fn).
 */
export function check(ids: RequirementId | readonly RequirementId[], title: string, fn: CheckFn, options?: CheckOptions): void;
export function check(ids: RequirementId | readonly RequirementId[], title: string, options: CheckOptions, fn: CheckFn): void;
export function check(ids: RequirementId | readonly RequirementId[], title: string, a: CheckFn | CheckOptions, b?: CheckFn | CheckOptions): void {
  const [fn, options = {}] = typeof a === 'function' ? [a, b as CheckOptions | undefined] : [b as CheckFn, a];
  const requirementIds = typeof ids === 'string' ? [ids] : [...ids];
  const file = getCurrentSuite()?.file?.filepath;
  for (const id of requirementIds) {
    const area = requirement(id).area;
    // One file per area: `--only errors` must run every ERR check, so a check lives in its area's file.
    // The model area compares every answer with SPEC.md: its check names the requirements it charges, of every area.
    const modelCheck = basename(file ?? '') === 'model.test.ts' && requirementIds.some((x) => requirement(x).area === 'model');
    if (file && !modelCheck && basename(file) !== `${area}.test.ts`) throw new Error(`suite: the check of ${id} ("${title}") is in ${basename(file)}; it belongs in scenarios/${area}.test.ts`);
  }
  // `--only PROG-3`: the other checks of the area are not registered at all (nor their setups run).
  if (!selects(suiteConfig().only, requirementIds)) return;
  const needs = options.needs ?? [];
  it(title, { meta: { requirementIds, ...(needs.length ? { needs } : {}) }, timeout: options.timeout }, async (ctx) => {
    try {
      if (needs.length) requires(ctx, ...needs);
      await fn(ctx);
    } catch (err) {
      const later = takeDeferred(ctx);
      if (err instanceof RunStopped || err instanceof NotVerified) {
        ctx.task.meta.notRun = err.message;
        ctx.skip(err.message);
      }
      if ((err as { code?: string })?.code !== 'VITEST_PENDING') {
        const failure = failureOf(err, requirementIds, ctx.task.meta.exchanges);
        // A deferred failure broke its requirement too, whatever stopped the check afterwards.
        const also = later && failure.culprit === 'target' ? failureOf(later, requirementIds).requirementIds : [];
        ctx.task.meta.failure = { ...failure, requirementIds: [...new Set([...failure.requirementIds, ...also])] };
      }
      throw err;
    }
    // Every assertion ran: a deferred failure is the check's, charged to its requirement alone; the
    // others of the check were verified and hold.
    const later = takeDeferred(ctx);
    if (later) {
      const failure = failureOf(later, requirementIds, ctx.task.meta.exchanges);
      ctx.task.meta.failure = { ...failure, held: requirementIds.filter((id) => !failure.requirementIds.includes(id)) };
      throw later;
    }
  });
}

/** The first failure each running check deferred (expectAlso), until the check ends. */
const deferred = new WeakMap<object, CheckFailure>();
const takeDeferred = (ctx: TestContext) => {
  const failure = deferred.get(ctx.task);
  deferred.delete(ctx.task);
  return failure;
};

/**
 * An assertion of one requirement of the check that is narrower than the others (a SHOULD beside the
 * MUST it refines: the status of a refusal SPEC.md does not give). Its failure is charged to
 * `requirementId` alone and does not stop the check: the assertions after it still verify the others.
 * The check ends failed with the first such failure; the requirements it does not charge hold.
 */
export function expectAlso(ctx: TestContext, reply: Reply | undefined, condition: boolean, init: Omit<FailureInit, 'exchange' | 'requirementId'> & { requirementId: RequirementId }): void {
  if (condition || deferred.has(ctx.task)) return;
  const ids = ctx.task.meta.requirementIds ?? [];
  if (!ids.includes(init.requirementId)) throw new Error(`suite: expectAlso charges ${init.requirementId}, which the check does not cover (${ids.join(', ')})`);
  deferred.set(ctx.task, new CheckFailure({ ...init, exchange: reply?.exchange }));
}

/** A beforeAll whose failure is recorded as data: the checks it kept from running are "not run: setup
 *  failed", and the failure itself is charged to their requirements (the target's fault, or the suite's). */
export function setup(fn: () => unknown, timeout?: number): void {
  beforeAll(async ({}, suite) => {
    const meta = (suite as unknown as { meta: TaskMeta }).meta;
    try {
      await fn();
    } catch (err) {
      if (err instanceof RunStopped) meta.notRun = err.message;
      else meta.setupFailure = failureOf(err, []);
      throw err;
    }
  }, timeout);
}

/** The failure record of what a check threw: typed, not guessed from its message. */
export function failureOf(err: unknown, checkIds: RequirementId[], earlier: Exchange[] = []): Failure {
  const failure = failureRecord(err, checkIds, earlier);
  const made = failure.exchange && creationOf(failure.exchange);
  return made ? { ...failure, setup: { id: made.id, curl: curlOf(made.exchange) } } : failure;
}

function failureRecord(err: unknown, checkIds: RequirementId[], earlier: Exchange[]): Failure {
  const charge = (id?: RequirementId) => (id && checkIds.includes(id) ? [id] : checkIds);
  if (err instanceof CheckFailure) {
    const { init } = err;
    const exchange = init.exchange ?? lastRecorded();
    return {
      requirementIds: charge(init.requirementId), operationId: exchange?.operationId, title: init.title, expected: init.expected,
      received: init.received, message: err.message, exchange, curl: exchange ? curlOf(exchange) : undefined, culprit: 'target',
    };
  }
  if (err instanceof chai.AssertionError) {
    const e = err as Error & { expected?: unknown; actual?: unknown; showDiff?: boolean };
    const exchange = lastRecorded();
    // vitest's own notes ("// Object.is equality") say how it compared, which a reader of a failure need not know.
    const message = e.message.replace(/[ \t]*\/\/ [\w. ]*equality[ \t]*$/gm, '');
    const title = message.split('\n')[0];
    return {
      requirementIds: checkIds, operationId: exchange?.operationId, title, message,
      expected: e.showDiff === false || e.expected === undefined ? undefined : asText(e.expected),
      received: e.showDiff === false || e.actual === undefined ? undefined : asText(e.actual),
      exchange, curl: exchange ? curlOf(exchange) : undefined, culprit: 'target',
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  // A check that trips over an answer which broke the contracts (ENV-*, CONTRACT-*) lacked the data
  // it needs because of the target: the target's failure, shown with that answer.
  const broken = [...earlier, ...pendingExchanges()].reverse().find((x) => Object.keys(x.problems).length > 0);
  if (broken) {
    return {
      requirementIds: checkIds, operationId: broken.operationId, culprit: 'target', exchange: broken, curl: curlOf(broken),
      title: `the target's answer left the check without the data it needs (${e.message.split('\n')[0]})`, message: e.stack ?? e.message,
      expected: 'an answer that keeps the contracts', received: Object.entries(broken.problems).map(([id, list]) => `${id}: ${list!.join('; ')}`).join('\n'),
    };
  }
  return { requirementIds: checkIds, title: `suite: ${e.message.split('\n')[0]}`, message: e.stack ?? e.message, culprit: 'suite' };
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? String(value));

/** The status as a failure quotes it: a redirect says where it points (the suite follows none: the key stays with the target). */
const statusOf = (reply: Reply) =>
  reply.status >= 300 && reply.status < 400 && reply.headers?.location ? `${reply.status} (redirect to ${reply.headers.location}, not followed)` : String(reply.status);

/** A 2xx with the result envelope; returns `result`. */
export function ok<T = any>(reply: Reply, what = 'the request', requirementId?: RequirementId): T {
  const is2xx = reply.status >= 200 && reply.status < 300;
  const hasResult = !!reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body) && 'result' in reply.body;
  if (!is2xx || !hasResult) {
    throw new CheckFailure({
      title: `${what}: expected a 2xx with a result member`, expected: '2xx {"result": …}',
      received: `${statusOf(reply)} ${reply.text.slice(0, 300)}`, exchange: reply.exchange, requirementId,
    });
  }
  return reply.body.result as T;
}

/** An error envelope with this code, and this status when given (SPEC.md does not give every status). */
export function fails(reply: Reply, code: string, status?: number, requirementId?: RequirementId): void {
  const got = reply.body?.error?.code;
  if (got === code && (status === undefined || reply.status === status)) return;
  throw new CheckFailure({
    title: `expected ${status ?? 'an error'} ${code}`, expected: `${status ?? '4xx'} {"error": {"code": "${code}", …}}`,
    received: `${statusOf(reply)} ${reply.text.slice(0, 300)}`, exchange: reply.exchange, requirementId,
  });
}

/** Fails the check unless `condition`, with what was expected and received, on the reply that showed it. */
export function expectFor(reply: Reply | undefined, condition: boolean, init: Omit<ConstructorParameters<typeof CheckFailure>[0], 'exchange'>): void {
  if (!condition) throw new CheckFailure({ ...init, exchange: reply?.exchange });
}

/** Marks the check "not run" when the run lacks what it needs, naming the flag that provides it. */
export function requires(ctx: TestContext, ...what: Prerequisite[]): void {
  const missing = missingOf(suiteConfig(), what);
  if (!missing.length) return;
  ctx.task.meta.notRun = needsText(missing);
  ctx.skip(ctx.task.meta.notRun);
}

/** The check skips itself: the target lacks an optional feature, or what it checks cannot be observed (the note says why). */
export function skip(ctx: TestContext, note: string): never {
  ctx.task.meta.skipNote = note;
  ctx.skip(note);
  throw new Error('unreachable');
}

/** Marks the check "not run" with a reason (the target does not describe what the check needs). */
export function notRun(ctx: TestContext, reason: string): never {
  ctx.task.meta.notRun = reason;
  ctx.skip(reason);
  throw new Error('unreachable');
}
