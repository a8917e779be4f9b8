// Generated inputs and stateful sequences (suite/generate/): within a budget of --generated requests
// and with the run's --seed, requests for every operation of both documents, valid and broken in every
// way, then sequences that change and import what the service exported and use it, then one tenant's
// requests watched from the other's key. A failure is shrunk to a minimal input (fast-check) and
// reported with the seed that repeats it; every answer also gets the envelope and contract checks.
import { afterAll, describe } from 'vitest';
import fc from 'fast-check';
import { documents } from '../suite/checks/documents.ts';
import { Budget, checkProperty, Unjudgeable } from '../suite/generate/property.ts';
import { anyRequest, describeRequest, generatedOperations, resolve, short, type GenRequest, type Owned } from '../suite/generate/requests.ts';
import { answered, expectCanary, expectNo5xx, Probe, targetSilent, type Canary } from '../suite/generate/probe.ts';
import { LONG_INTEGERS } from '../suite/bodies/values.ts';
import { describeSequence, maxTickSeconds, runSequence, sequences } from '../suite/generate/sequences.ts';
import type { RequirementId } from '../contract/requirements.ts';
import { setup, check, api, config, createPersona, createWorld, inFlight, notRun, ok, worldBody, type Reply } from './support/index.ts';
import { CheckFailure } from '../suite/data/failure.ts';
import { MISREAD, OVER_MAX, shown } from './support/limits.ts';

const client = api();
let operations: ReturnType<typeof generatedOperations> | undefined;
const ops = () => (operations ??= generatedOperations(documents(), config().allowBillable));
let owned: Owned;
let controlWorld = '';
let otherWorld = '';

setup(async () => {
  if (!config().generated) return;
  owned = { worldId: await createWorld(client, 'generated'), personaId: await createPersona(client, 'generated'), entity: 'ana' };
  controlWorld = await createWorld(client, 'generated control');
  if (config().secondKey) {
    // Made raw: the run's ledger cleans up with the main key; this world is the second tenant's, deleted below.
    const reply = await client.raw('POST', '/worlds', { key: config().secondKey, body: worldBody('generated other tenant') });
    otherWorld = ok(reply, "creating the second tenant's world").worldId;
  }
});

afterAll(async () => {
  if (otherWorld) await client.raw('DELETE', `/worlds/${encodeURIComponent(otherWorld)}`, { key: config().secondKey }).catch(() => undefined);
});

/** The budget of each check: shares of --generated (the second tenant's share goes to the others without --second-key). */
function share(which: 'requests' | 'sequences' | 'tenants'): number {
  const shares = config().secondKey ? { requests: 0.45, sequences: 0.4, tenants: 0.15 } : { requests: 0.55, sequences: 0.45, tenants: 0 };
  return Math.floor(config().generated * shares[which]);
}
const seedOf = (offset: number) => (config().seed + offset * 7919) | 0;
const repeat = () => `npm run conformance -- --only generated --generated ${config().generated} --seed ${config().seed} (same target and keys)`;
/** Time for a share of the budget: the pace, the timeouts of a failing run and its shrinking. */
const timeLimit = (requests: number) => requests * (config().paceRpm ? 60_000 / config().paceRpm : 25) + 12 * config().timeoutMs + 20_000;

/** A query on a world nothing generated touches, and what of its answer must stay: status, entities, phase. */
function canaryOn(worldId: string, label: string, probe: Probe, key?: string): Canary {
  return {
    label,
    send: () => probe.call('queryWorld', { params: { id: worldId }, body: {}, key }),
    fingerprint: (reply: Reply) => {
      const result = reply.body?.result;
      const names = Array.isArray(result?.entities) ? result.entities.map((e: any) => e?.name).sort() : null;
      return `${reply.status} ${reply.body?.error?.code ?? ''} ${JSON.stringify({ entities: names, phase: result?.progression?.currentPhase ?? null })}`;
    },
  };
}

/** A property over runs of generated requests, each run followed by a canary; the first run and each
 *  shrinking run first read the canary, so that a run is judged only on a target it did not find broken. */
function requestsProperty(probe: Probe, budget: Budget, canary: Canary, canaryId: RequirementId, answerId: RequirementId | undefined, seed: number) {
  let before: string | undefined;
  const describeRun = (run: GenRequest[]) => run.map((r) => describeRequest(r, resolve(r, ops().find((o) => o.operationId === r.operationId)!, owned))).join(' ; ');
  return checkProperty({
    arbitrary: fc.array(anyRequest(ops()), { minLength: 1, maxLength: 4 }), seed, budget, requestsPerRun: 3.5,
    timeLimitMs: timeLimit(budget.limit), repeat: repeat(), describe: describeRun,
    run: async (run, shrinking) => {
      if (shrinking && targetSilent()) throw new Unjudgeable();
      if (before === undefined || shrinking) {
        const baseline = await canary.send();
        const fingerprint = answered(baseline) ? canary.fingerprint(baseline) : undefined;
        if (fingerprint === undefined || !fingerprint.startsWith('2')) {
          if (shrinking) throw new Unjudgeable();
          // Before this check sent anything: an earlier request of the run broke it (see the other failures).
          expectNo5xx(baseline, `${canary.label} before this check's first generated request`, canaryId);
          throw new CheckFailure({
            title: `${canary.label} fails before this check's first generated request: an earlier request of the run broke it`, requirementId: canaryId,
            expected: 'a 2xx with the result', received: `${(baseline as Reply).status} ${short((baseline as Reply).text)}`, exchange: (baseline as Reply).exchange,
          });
        }
        before ??= fingerprint;
      }
      const sent: string[] = [];
      for (const req of run) {
        const op = ops().find((o) => o.operationId === req.operationId)!;
        const { answer, what } = await probe.send(req, op, owned);
        sent.push(what);
        if (answerId) expectNo5xx(answer, what, answerId);
      }
      await expectCanary(canary, before, sent.join(' ; '), canaryId);
    },
  });
}

async function unlessBroken<T>(shrinking: boolean, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (err) {
    throw shrinking && err instanceof CheckFailure ? new Unjudgeable() : err;
  }
}

describe('integers of 400 digits', () => {
  // Whatever the generator draws: every number member of the bodies SPEC.md shows for a world's tick,
  // event and a persona's tick and emotion, given a 400-digit integer (a JSON number no double holds).
  check('ENV-4', 'a 400-digit integer in a number member SPEC.md types gets a 2xx or a 4xx in time', async (ctx) => {
    if (!config().generated) notRun(ctx, 'needs --generated above 0');
    const probe = new Probe(client, new Budget(Number.POSITIVE_INFINITY));
    const sent: Array<{ operationId: string; id: string; text: (n: string) => string }> = [
      { operationId: 'tickWorld', id: owned.worldId, text: (n) => `{"seconds":${n}}` },
      { operationId: 'tickPersona', id: owned.personaId, text: (n) => `{"seconds":${n}}` },
      { operationId: 'dispatchEvent', id: owned.worldId, text: (n) => `{"type":"cf-long","timestamp":${n},"stimulus":{"bodyBudgetDelta":${n}}}` },
      { operationId: 'overrideEmotion', id: owned.personaId, text: (n) => `{"vad":{"V":${n}}}` },
    ];
    const tries = LONG_INTEGERS.flatMap((n) => sent.map((s) => ({ ...s, rawBody: s.text(n) })));
    const answers = await inFlight(tries, (t) => probe.call(t.operationId, { params: { id: t.id }, rawBody: t.rawBody }));
    tries.forEach((t, i) => expectNo5xx(answers[i], `${t.operationId} ${short(t.rawBody, 80)}`, 'ENV-4'));
  });
});

describe('limit values of GET /worlds', () => {
  // Limits: "`limit` of `GET /worlds`: default 20, maximum 100". A value over 100, or one a lenient
  // parser misreads, is a client's to send: whatever the deployment reads it as (or refuses), not a 5xx.
  // How many worlds each answer may hold is the worlds area's (WORLD-2, WORLD-3).
  check('ENV-4', 'GET /worlds with a limit over 100 or one a lenient parser misreads (0, abc, empty, -1, 1.5, 20abc, 1e2, 400 digits) gets a 2xx or a 4xx in time', async (ctx) => {
    if (!config().generated) notRun(ctx, 'needs --generated above 0');
    const probe = new Probe(client, new Budget(Number.POSITIVE_INFINITY));
    const values = [...OVER_MAX, ...MISREAD];
    const answers = await inFlight(values, (v) => probe.call('listWorlds', { query: { limit: v.value } }));
    values.forEach((v, i) => expectNo5xx(answers[i], `GET /worlds?limit=${shown(v.value)}`, 'ENV-4'));
  });
});

describe('generated requests and stateful sequences', () => {
  check(['ENV-4', 'GEN-1'], 'generated requests for every operation get a 2xx or a 4xx in time, and leave a valid request on another world answering as before', async (ctx) => {
    if (!config().generated) notRun(ctx, 'needs --generated above 0');
    const budget = new Budget(share('requests'));
    const probe = new Probe(client, budget);
    await requestsProperty(probe, budget, canaryOn(controlWorld, 'a query on a world no generated request touched', probe), 'GEN-1', 'ENV-4', seedOf(1));
  }, { timeout: timeLimit(share('requests')) + 30_000 });

  check('GEN-1', 'after accepted changed imports, definitions and writes, the valid uses of the world (and after delete) answer in time without a 5xx', async (ctx) => {
    if (!config().generated) notRun(ctx, 'needs --generated above 0');
    // Runs are long (a world, its imports, its uses): shrinking gets a larger part of the budget.
    const budget = new Budget(share('sequences'), 0.6);
    const probe = new Probe(client, budget);
    const allOps = ops();
    await checkProperty({
      arbitrary: sequences(allOps), seed: seedOf(2), budget, requestsPerRun: 14, timeLimitMs: timeLimit(budget.limit), repeat: repeat(), describe: describeSequence,
      run: (s, shrinking) => (shrinking && targetSilent() ? Promise.reject(new Unjudgeable()) : runSequence(s, {
        probe, ops: allOps, allowBillable: config().allowBillable, maxSeconds: maxTickSeconds(allOps),
        // While shrinking, a world that cannot be made says an earlier run broke the target: that run is not judged.
        newWorld: () => unlessBroken(shrinking, () => probe.made(() => createWorld(client, 'generated sequence'))),
        newPersona: () => unlessBroken(shrinking, () => probe.made(() => createPersona(client, 'generated sequence'))),
      })),
    });
  }, { timeout: timeLimit(share('sequences')) + 30_000 });

  check('GEN-2', "one tenant's generated requests leave the other tenant's answers unchanged and in time", async (ctx) => {
    if (!config().generated) notRun(ctx, 'needs --generated above 0');
    const budget = new Budget(share('tenants'));
    const probe = new Probe(client, budget);
    await requestsProperty(probe, budget, canaryOn(otherWorld, "the second tenant's query on its own world", probe, config().secondKey), 'GEN-2', undefined, seedOf(3));
  }, { needs: ['secondKey'], timeout: timeLimit(share('tenants')) + 30_000 });
});
