// What a scenario file imports: the client, assertions that read as the requirement, prerequisites
// ("not run" with the flag that enables them), and the run's own data (named with the run id).
import { expect, type TestContext } from 'vitest';
import { Client, type Reply } from './client.ts';
import { suiteConfig, type SuiteConfig } from './config.ts';
import { minimalInstance } from '../../fixtures/minimal.ts';

export { Client, type Reply } from './client.ts';
export const api = () => new Client();
export const config = (): SuiteConfig => suiteConfig();

type Prerequisite = 'secondKey' | 'rateLimitKey' | 'originKey' | 'allowBillable';
const FLAG: Record<Prerequisite, string> = {
  secondKey: '--second-key', rateLimitKey: '--rate-limit-key', originKey: '--origin-key and --allowed-origin', allowBillable: '--allow-billable',
};

/** Skips the test as "not run" when the run lacks what it needs, naming the flag that provides it. */
export function requires(ctx: TestContext, ...what: Prerequisite[]): void {
  const missing = what.filter((w) => !suiteConfig()[w] || (w === 'originKey' && !suiteConfig().allowedOrigin));
  if (!missing.length) return;
  ctx.task.meta.notRun = missing.map((m) => FLAG[m]).join(', ');
  ctx.skip(`needs ${ctx.task.meta.notRun}`);
}

/** A 2xx with the result envelope; returns `result`. */
export function ok<T = any>(reply: Reply, what = 'the request'): T {
  expect(reply.status, `${what}: expected a 2xx, got ${reply.status} ${reply.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
  expect(reply.status, `${what}: expected a 2xx, got ${reply.status} ${reply.text.slice(0, 200)}`).toBeLessThan(300);
  expect(reply.body, `${what}: the body has no result member`).toHaveProperty('result');
  return reply.body.result as T;
}

/** An error envelope with this code, and this status when given (SPEC.md does not give every status). */
export function fails(reply: Reply, code: string, status?: number): void {
  const actual = { status: status === undefined ? undefined : reply.status, code: reply.body?.error?.code };
  expect(actual, `expected ${status ?? ''} ${code}, got ${reply.status} ${reply.text.slice(0, 200)}`).toEqual({ status, code });
}

/** A name that says which run made it, so leftovers can be traced and cleaned. */
export const named = (label: string) => `cf-${suiteConfig().runId} ${label}`;

/** The smallest body the bundled contract accepts for an operation. */
export function minimalBody(operationId: string): unknown {
  const doc = suiteConfig().bundledDocument;
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      if (op.operationId === operationId) return minimalInstance(op.requestBody?.content?.['application/json']?.schema, doc);
    }
  }
  throw new Error(`suite: no operation ${operationId}`);
}

/** A world with two personas and a user, and a trigger that moves to `storm` after 3 `thunder` events. */
export function worldBody(label = 'world', extra: Record<string, unknown> = {}) {
  return {
    definition: {
      identity: { name: named(label), description: 'made by the conformance suite' },
      rules: { physics: { gravity: true } },
      progression: {
        initialPhase: 'calm',
        phases: { calm: { description: 'calm', normMapOverride: {} }, storm: { description: 'storm', normMapOverride: {} } },
        triggers: [{ id: 'to-storm', condition: { type: 'event_count', eventType: 'thunder', threshold: 3 }, targetPhase: 'storm', oneShot: true }],
      },
      ...extra,
    },
    entities: [{ name: 'ana', type: 'persona' }, { name: 'ben', type: 'persona' }, { name: 'user', type: 'user' }],
    personaConfigs: { ana: { identity: { name: 'Ana', speakingStyle: 'plain' } } },
  };
}

export async function createWorld(client: Client, label = 'world', extra: Record<string, unknown> = {}): Promise<string> {
  const result = ok<{ worldId: string }>(await client.call('createWorld', { body: worldBody(label, extra) }), 'creating a world');
  return result.worldId;
}

export async function createPersona(client: Client, label = 'persona', config: Record<string, unknown> = {}): Promise<string> {
  const result = ok<{ personaId: string }>(await client.call('createPersona', { body: { config: { identity: { name: named(label) }, ...config } } }), 'creating a persona');
  return result.personaId;
}

/** Every operation of the bundled contract, with a path filled with `id` and other parameters. */
export function operationsOf(filter: (op: { operationId: string; method: string; path: string }) => boolean) {
  const doc = suiteConfig().bundledDocument;
  const out: Array<{ operationId: string; method: string; path: string; security: boolean }> = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const entry = { operationId: op.operationId as string, method: method.toUpperCase(), path, security: !(Array.isArray(op.security) && op.security.length === 0) };
      if (filter(entry)) out.push(entry);
    }
  }
  return out;
}
