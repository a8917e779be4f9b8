// What a scenario file imports: check() and the expectations of the suite's core (suite/check.ts), the
// client, and the run's own data (named with the run id), made here so that each file makes its own.
import { Client } from '../../suite/http/client.ts';
import { expectFor, ok } from '../../suite/scenario/check.ts';
import { suiteConfig, type SuiteConfig } from '../../suite/data/config.ts';
import { minimalInstance } from '../../fixtures/minimal.ts';
import { documents } from '../../suite/checks/documents.ts';

export { Client, type Reply } from '../../suite/http/client.ts';
export { check, setup, ok, fails, expectFor, requires, notRun, skip } from '../../suite/scenario/check.ts';
export const api = () => new Client();
export const config = (): SuiteConfig => suiteConfig();

/** A name that says which run made it, so leftovers can be traced and cleaned. */
export const named = (label: string) => `cf-${suiteConfig().runId} ${label}`;

/** The smallest body the bundled contract accepts for an operation. */
export function minimalBody(operationId: string): unknown {
  return minimalInstance(documents().bundled.requestSchema(operationId));
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
  const reply = await client.call('createWorld', { body: worldBody(label, extra) });
  const result = ok<{ worldId: unknown }>(reply, 'creating a world');
  // Without an id nothing else can be checked: the target's fault, said here rather than later.
  expectFor(reply, typeof result?.worldId === 'string' && result.worldId !== '', { title: 'creating a world: the result has no worldId string', expected: '{"result": {"worldId": "…"}}', received: reply.text.slice(0, 300) });
  return result.worldId as string;
}

export async function createPersona(client: Client, label = 'persona', config: Record<string, unknown> = {}): Promise<string> {
  const reply = await client.call('createPersona', { body: { config: { identity: { name: named(label) }, ...config } } });
  const result = ok<{ personaId: unknown }>(reply, 'creating a persona');
  expectFor(reply, typeof result?.personaId === 'string' && result.personaId !== '', { title: 'creating a persona: the result has no personaId string', expected: '{"result": {"personaId": "…"}}', received: reply.text.slice(0, 300) });
  return result.personaId as string;
}

/** The operations of the bundled contract that pass the filter. */
export function operationsOf(filter: (op: { operationId: string; method: string; path: string }) => boolean) {
  return documents().bundled.operations()
    .map((o) => ({ operationId: o.operationId, method: o.method.toUpperCase(), path: o.path, security: o.secured }))
    .filter(filter);
}
