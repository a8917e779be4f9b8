// The model of SPEC.md (model/): random sequences of operations (fast-check `fc.commands`, with the
// run's --seed, --model-commands of them) sent to the deployment, every answer compared with what the
// model predicts through every view that shows it. A failure is shrunk to the shortest sequence and
// reported as a bug report (each request a curl line, the sentence broken); it is charged to the
// requirement of that sentence, in whatever area it lives.
import { describe } from 'vitest';
import { api, check, config, named, role, servedBodyWith, unusable } from './support/index.ts';
import { partBodies } from './support/model-parts.ts';
import { Probe } from '../suite/generate/probe.ts';
import { Budget } from '../suite/generate/property.ts';
import { runModel } from '../model/run.ts';
import { SENTENCES } from '../model/sentences.ts';
import type { RequirementId } from '../contract/requirements.ts';

const client = api();

/** A PATCH body that renames the world, as the served document shapes it (SPEC.md does not show it). */
function patchBody(): ((name: string) => unknown) | undefined {
  const tries = [
    [role('the definition', ['definition'], () => ({ identity: { name: 'cf' } }))],
    [role('the identity', ['identity'], () => ({ name: 'cf' }))],
  ];
  const usable = tries.find((roles) => !unusable('updateWorld', servedBodyWith('updateWorld', roles)));
  if (!usable) return undefined;
  const shape = JSON.stringify(servedBodyWith('updateWorld', usable).body);
  return (name) => JSON.parse(shape.replace('"cf"', JSON.stringify(name)));
}

/** The requirements the model's comparisons are charged to: MODEL-1 first, then each sentence's. */
const CHARGED = [...new Set<RequirementId>(['MODEL-1', ...Object.values(SENTENCES).map((s) => s.requirementId)])];
const timeLimit = (commands: number) => commands * 6 * 2 * (config().paceRpm ? 60_000 / config().paceRpm : 30) + 12 * config().timeoutMs + 20_000;

describe('the model of SPEC.md', () => {
  // --model-commands 0: nothing registered, so the requirements it names keep the verdicts of their own areas.
  if (!config().modelCommands) return;
  check(CHARGED, 'random sequences of operations answer as the model of SPEC.md predicts, through every view', async () => {
    const secondKey = config().secondKey;
    const patch = patchBody();
    const parts = partBodies();
    await runModel({
      commands: config().modelCommands, seed: (config().seed + 104_729) | 0, secondKey: !!secondKey, timeLimitMs: timeLimit(config().modelCommands),
      repeat: `npm run conformance -- --only model --model-commands ${config().modelCommands} --seed ${config().seed} (same target and keys)`,
      real: () => ({ probe: new Probe(client, new Budget(Number.POSITIVE_INFINITY)), keys: { main: config().apiKey, second: secondKey }, named, patchBody: patch, parts, steps: [] }),
    });
  }, { timeout: timeLimit(config().modelCommands) + 30_000 });
});
