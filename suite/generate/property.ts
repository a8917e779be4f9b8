// A generated check: a fast-check async property over generated runs, within a budget of requests and
// a time limit, with the run's seed. A run that breaks a requirement throws a CheckFailure; fast-check
// then shrinks the run to a smaller one that still fails, and the failure of that last, smallest run is
// what the check reports: its title, the minimal input, the seed and the command that repeats it.
import fc from 'fast-check';
import { CheckFailure, NotVerified } from '../data/failure.ts';

/** Requests a property may send: the search stops at `searchShare` of it, shrinking may use the rest. */
export class Budget {
  spent = 0;
  constructor(readonly limit: number, private readonly searchShare = 0.8) {}
  /** Whether the phase (search, or shrinking once a failure is found) still has requests. */
  left(shrinking: boolean): boolean {
    return this.spent < (shrinking ? this.limit : Math.max(1, Math.floor(this.limit * this.searchShare)));
  }
}

/** The target is not fit to judge a run: a valid request failed before the run began (an earlier run broke it). */
export class Unjudgeable extends Error {}

export interface PropertyOptions<T> {
  arbitrary: fc.Arbitrary<T>;
  seed: number;
  budget: Budget;
  /** Expected requests per run, to size numRuns from the budget. */
  requestsPerRun: number;
  /** The whole property (search and shrinking) stops after this long. */
  timeLimitMs: number;
  /** Runs one generated input: throws a CheckFailure when the target breaks a requirement. */
  run: (input: T, shrinking: boolean) => Promise<void>;
  /** The input as a reader should see it (the minimal one, in the report). */
  describe: (input: T) => string;
  /** How to repeat the run (`npm run conformance -- … --seed S`). */
  repeat: string;
  /** Inputs run before the generated ones (fast-check's `examples`). */
  examples?: T[];
}

export interface PropertyOutcome {
  runs: number;
  requests: number;
  shrinks: number;
  durationMs: number;
}

/** Runs the property; throws the minimal run's CheckFailure when the target broke a requirement. */
export async function checkProperty<T>(o: PropertyOptions<T>): Promise<PropertyOutcome> {
  const started = performance.now();
  let last: { failure: CheckFailure; input: T } | undefined;
  let suiteError: unknown;
  let runs = 0;
  const property = fc.asyncProperty(o.arbitrary, async (input) => {
    const shrinking = last !== undefined;
    if (!o.budget.left(shrinking)) return;
    runs++;
    try {
      await o.run(input, shrinking);
    } catch (err) {
      if (err instanceof Unjudgeable) fc.pre(false);
      if (err instanceof CheckFailure) last = { failure: err, input };
      else suiteError ??= err;
      throw err;
    }
  });
  const numRuns = Math.max(1, Math.ceil(o.budget.limit / Math.max(1, o.requestsPerRun)));
  const details = await fc.check(property, {
    seed: o.seed, numRuns, interruptAfterTimeLimit: o.timeLimitMs, maxSkipsPerRun: 1_000, examples: o.examples?.map((e) => [e] as [T]),
  });
  const outcome = { runs, requests: o.budget.spent, shrinks: details.numShrinks, durationMs: Math.round(performance.now() - started) };
  if (suiteError) throw suiteError;
  if (details.failed && last) {
    const { init } = last.failure;
    throw new CheckFailure({
      ...init,
      title: `${init.title} (seed ${o.seed}, shrunk ${details.numShrinks} times)`,
      received: `${init.received ?? ''}\nminimal input: ${o.describe(last.input)}\nafter ${outcome.requests} generated requests in ${outcome.durationMs} ms; repeat with: ${o.repeat}`,
    });
  }
  // Cut off by its time limit before its runs were made: what it did not run is not verified (never a pass).
  if (details.interrupted) throw new NotVerified(`cut off after ${runs} of ${numRuns} runs by its time limit (${Math.round(o.timeLimitMs / 1000)} s)`);
  if (details.failed) throw new Error(`the generated property ended without a verdict: ${String(details.errorInstance ?? 'too many runs skipped')}`);
  return outcome;
}
