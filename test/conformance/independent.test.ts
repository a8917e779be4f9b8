// The suite never fails a correct deployment that is not the reference: every area, at a fixed seed,
// against the second implementation of test/independent/ (plain node:http, written from SPEC alone,
// with its own legal choices: 201 and 202, 410 for a soft-deleted read, UUIDs, seconds, a token
// bucket, its own shapes where SPEC shows none), as a deployment (--base-url: preflight, served
// document, pacing). Its rate-limit window is shortened as the embedded reference's is, the suite told
// so. Two more of its legal choices (switches), each once refused by the suite, on the areas they
// concern. Then a control: the same server with one MUST broken (401 answered 403) must fail that run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveTarget } from '../../suite/run/target.ts';
import { createSession } from '../../suite/run/session.ts';
import { AREAS, type RequirementId, type SelectableArea } from '../../contract/requirements.ts';
import { EMBEDDED_RATE_WINDOW_MS } from '../../contract/plans.ts';
import type { RunResult } from '../../suite/results/results.ts';
import { startIndependent, type Options, type Running } from '../independent/server.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-independent-'));
const started: Running[] = [];

afterAll(async () => {
  for (const s of started) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A run of the suite against a fresh independent server started with `options`, as --base-url does it. */
async function runAgainst(options: Options, areas: readonly SelectableArea[], only?: RequirementId[]): Promise<RunResult> {
  const server = await startIndependent({ rateWindowMs: EMBEDDED_RATE_WINDOW_MS, ...options });
  started.push(server);
  const key = (tenant: string, plan: string, origins = false) => server.keys.find((k) => k.tenant === tenant && k.plan === plan && !!k.origins?.length === origins)!;
  const main = key('umbra', 'pro');
  const origin = key('umbra', 'pro', true);
  const target = await resolveTarget({ baseUrl: server.url, apiKey: main.key, timeoutMs: 10_000 });
  // The window the server counts in, as for the embedded reference (a deployment's is a minute).
  target.rateWindowMs = EMBEDDED_RATE_WINDOW_MS;
  const session = createSession(target, {
    areas: [...areas], only: only ? { wholeAreas: [], requirementIds: only } : undefined, strict: false, keep: false,
    timeoutMs: 10_000, deadlineAt: Date.now() + budget(240_000), workDir: dir, plan: 'pro', rateLimitPlan: 'free',
    secondKey: key('penumbra', 'starter').key, rateLimitKey: key('umbra', 'free').key, originKey: origin.key, allowedOrigin: origin.origins![0],
    allowBillable: true, generated: 200, seed: 1, modelCommands: 60, shownConfig: { independent: true }, print: () => undefined,
  });
  return session.run();
}

const failedMust = (r: RunResult) => r.requirements.filter((q) => q.level === 'MUST' && q.outcome === 'fail').map((q) => q.id);
/** The failed checks in a few words each, for the message of a failed expectation. */
const why = (r: RunResult) => r.checks.filter((c) => c.outcome === 'fail').map((c) => `${c.requirementIds.join(',')}: ${c.failure?.title ?? ''} ${c.failure?.received?.slice(0, 600) ?? ''}`).join('\n');

describe('the suite against an independent implementation of SPEC.md', () => {
  let result: RunResult;
  beforeAll(async () => {
    result = await runAgainst({}, AREAS);
  }, budget(300_000));

  it('passes it: exit 0, no MUST requirement failed, every area verified something', () => {
    expect(failedMust(result), why(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(result.stopped).toBeUndefined();
    expect(result.requirements.filter((q) => q.level === 'MUST' && q.outcome === 'pass').length).toBeGreaterThan(50);
    for (const area of AREAS) expect(result.requirements.some((q) => q.area === area && q.outcome === 'pass'), area).toBe(true);
  });

  it('passes three more of its legal choices: an import that reads only what SPEC lists for it (ERR-3), a snapshot with its export time (ISO-1), PERSONA_NOT_FOUND for a persona a body names (the model)', async () => {
    const other = await runAgainst({ variants: { importListedOnly: true, exportedAt: true, personaCodeInBodies: true } }, ['errors', 'isolation', 'model']);
    expect(failedMust(other), why(other)).toEqual([]);
    expect(other.exitCode).toBe(0);
  }, budget(120_000));

  it('fails it when it breaks a MUST: 401 answered 403 fails AUTH-1 (exit 1)', async () => {
    const broken = await runAgainst({ fault: 'unauthorized-as-403' }, ['auth'], ['AUTH-1']);
    expect(failedMust(broken)).toEqual(['AUTH-1']);
    expect(broken.exitCode).toBe(1);
  }, budget(120_000));
});
