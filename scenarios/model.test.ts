// The model of SPEC.md (model/): random sequences of operations (fast-check `fc.commands`, with the
// run's --seed, --model-commands of them) sent to the deployment, every answer compared with what the
// model predicts through every view that shows it. A failure is shrunk to the shortest sequence and
// reported as a bug report (each request a curl line, the sentence broken); it is charged to the
// requirement of that sentence, in whatever area it lives.
import { describe } from 'vitest';
import { api, check, config, listItems, named, pagingOf, role, servedBodyProblem, servedBodyWith, unusable, type Role } from './support/index.ts';
import { partBodies } from './support/model-parts.ts';
import { Probe } from '../suite/generate/probe.ts';
import { Budget } from '../suite/generate/property.ts';
import { runModel } from '../model/run.ts';
import { SENTENCES } from '../model/sentences.ts';
import type { RequirementId } from '../contract/requirements.ts';
import type { PersonaOps } from '../model/personas.ts';

const client = api();

/**
 * A body carrying one string, as the served document shapes it (SPEC.md does not show it): the first
 * of `tries` the document has a member for, its string `"cf"` then replaced by the text given.
 */
function bodyTemplate(operationId: string, tries: Role[][]): ((text: string) => unknown) | undefined {
  const usable = tries.find((roles) => !unusable(operationId, servedBodyWith(operationId, roles)));
  if (!usable) return undefined;
  const shape = JSON.stringify(servedBodyWith(operationId, usable).body);
  return (text) => JSON.parse(shape.replace('"cf"', JSON.stringify(text)));
}

/** A PATCH body that renames the world. */
const patchBody = () => bodyTemplate('updateWorld', [
  [role('the definition', ['definition'], () => ({ identity: { name: 'cf' } }))],
  [role('the identity', ['identity'], () => ({ name: 'cf' }))],
]);

/** What the persona commands need that only the served document says (as scenarios/personas.test.ts reads it). */
function personaOps(): PersonaOps {
  const text = (names: string[]) => [[role('the text', names, () => 'cf')]];
  return {
    paging: pagingOf('listPersonas'),
    items: (result) => listItems('listPersonas', result),
    annotateBody: bodyTemplate('annotate', text(['text', 'note', 'annotation', 'content', 'message'])),
    forceBody: bodyTemplate('forceNextResponse', text(['text', 'response', 'content', 'message', 'reply'])),
    // SPEC.md: perceive takes "an event"; a document may wrap it (`{event: …}`): the form its schema accepts.
    perceiveBody: (event) => (servedBodyProblem('perceive', event) && !servedBodyProblem('perceive', { event }) ? { event } : event),
  };
}

/** The requirements the model's comparisons are charged to: MODEL-1 first, then each sentence's; the allowlist's only with an origin key. */
const ORIGIN_KEYED: RequirementId[] = [SENTENCES.originAllowed.requirementId, SENTENCES.originBlocked.requirementId];
const CHARGED = [...new Set<RequirementId>(['MODEL-1', ...Object.values(SENTENCES).map((s) => s.requirementId)])]
  .filter((id) => config().originKey && config().allowedOrigin || !ORIGIN_KEYED.includes(id));
const timeLimit = (commands: number) => commands * 6 * 2 * (config().paceRpm ? 60_000 / config().paceRpm : 30) + 12 * config().timeoutMs + 20_000;

describe('the model of SPEC.md', () => {
  // --model-commands 0: nothing registered, so the requirements it names keep the verdicts of their own areas.
  if (!config().modelCommands) return;
  check(CHARGED, 'random sequences of operations answer as the model of SPEC.md predicts, through every view', async () => {
    const secondKey = config().secondKey;
    const patch = patchBody();
    const parts = partBodies();
    const personas = personaOps();
    const { originKey, allowedOrigin } = config();
    const origin = originKey && allowedOrigin ? { key: originKey, allowed: allowedOrigin } : undefined;
    await runModel({
      commands: config().modelCommands, seed: (config().seed + 104_729) | 0, secondKey: !!secondKey, timeLimitMs: timeLimit(config().modelCommands),
      repeat: `npm run conformance -- --only model --model-commands ${config().modelCommands} --seed ${config().seed} (same target and keys)`,
      real: () => ({ probe: new Probe(client, new Budget(Number.POSITIVE_INFINITY)), keys: { main: config().apiKey, second: secondKey }, named, patchBody: patch, parts, personas, origin, steps: [] }),
    });
  }, { timeout: timeLimit(config().modelCommands) + 30_000 });
});
