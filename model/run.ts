// The model run: fast-check's `fc.commands` over the model's commands, each sequence run by
// `fc.asyncModelRun` against the deployment from an empty model (the worlds and personas a sequence
// uses are made by its own commands), within a budget of commands and the suite's pace. A failure is
// shrunk to the shortest sequence that still shows it, and reported as a bug report: each request a
// curl line, the model's expectation beside the answer, the sentence of SPEC.md broken.
import fc from 'fast-check';
import { Budget, checkProperty } from '../suite/generate/property.ts';
import { CheckFailure } from '../suite/data/failure.ts';
import { commandArbitraries, type Cmd } from './commands.ts';
import { tour } from './tour.ts';
import { Mismatch, report, type Real } from './real.ts';
import { emptyState } from './state.ts';
import { SENTENCES } from './sentences.ts';

/** Commands per sequence at most, after the world it starts with. */
export const MAX_COMMANDS = 12;
/** Commands a sequence runs on average (fast-check draws lengths up to MAX_COMMANDS; some do not apply). */
const COMMANDS_PER_RUN = 6;

export interface ModelRunOptions {
  /** Commands the search may run (`--model-commands`); shrinking a failure may run as many again. */
  commands: number;
  seed: number;
  secondKey: boolean;
  /** Builds the Real of one sequence (a fresh record of its steps). */
  real: () => Real;
  timeLimitMs: number;
  repeat: string;
}

export async function runModel(o: ModelRunOptions) {
  // Counted in commands run: the search stops at --model-commands, shrinking a failure may run as many again.
  const budget = new Budget(o.commands * 2, 0.5);
  const arbs = commandArbitraries(o.secondKey);
  // The first sequence is a tour (tour.ts): the same at every seed, through every command and the finite
  // choices that matter, so that a bug on one route, near kind and state is found whatever the seed draws.
  const first = tour(o.secondKey);
  return checkProperty({
    examples: [first],
    arbitrary: fc.tuple(arbs.first, fc.commands(arbs.all, { maxCommands: MAX_COMMANDS })),
    seed: o.seed, budget, requestsPerRun: COMMANDS_PER_RUN, timeLimitMs: o.timeLimitMs, repeat: o.repeat,
    describe: ([first, cmds]) => `${[...first, ...cmds].map(String).join('; ')}`,
    run: async ([first, cmds]: [Cmd[], Iterable<Cmd>]) => {
      // A sequence that shrinks is re-run whole: the steps reported are those of the last, shortest run.
      const r = o.real();
      const counted = (c: Cmd): Cmd => ({ check: (m) => c.check(m), run: (m, real) => { budget.spent++; return c.run(m, real); }, toString: () => c.toString() });
      try {
        await fc.asyncModelRun(() => ({ model: emptyState(), real: r }), [...first, ...cmds].map(counted));
      } catch (err) {
        if (!(err instanceof CheckFailure)) throw err;
        const sentence = err instanceof Mismatch ? SENTENCES[err.sentence] : undefined;
        throw new CheckFailure({
          ...err.init,
          received: `${err.init.received ?? ''}\nSPEC.md: ${sentence?.quote ?? '(the answer broke the contracts)'}\nthe requests, in order:\n${report(r.steps, err.init.exchange)}`,
        });
      }
    },
  });
}
