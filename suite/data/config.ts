// What the conformance command gives the scenario files (through vitest's provide/inject): the
// target, the keys, the switches, and both OpenAPI documents. Scenario files read nothing else.
import { inject } from 'vitest';
import type { SelectableArea } from '../../contract/requirements.ts';
import type { Plan } from '../../contract/plans.ts';
import type { StopSignal } from './stop.ts';
import type { CheckFilter } from './selection.ts';
import { runScoped } from './run-scope.ts';

export interface SuiteConfig extends StopSignal {
  runId: string;
  /** The areas this run checks (`--only`). */
  areas: SelectableArea[];
  /** `--only` named requirements: the checks that run (undefined: every check of the areas). */
  only?: CheckFilter;
  baseUrl: string;
  apiKey: string;
  secondKey?: string;
  rateLimitKey?: string;
  /** Plan of the rate-limit key (RATE-4 compares the observed limit with it); free when none was named. */
  plan: Plan;
  /** The plan was named (`--rate-limit-plan`, or known: the embedded reference): only then is its number a MUST (RATE-4). */
  planNamed: boolean;
  /** The main key's limit a minute, when known (its fixed plan; the embedded reference's): RATE-6 counts its 429s against it. */
  mainRpm?: number;
  /** The rate-limit window the plan counts in: a minute, as SPEC.md's plans say; shorter for the embedded reference. */
  rateWindowMs: number;
  /** Requests per minute the client paces itself under (0: no pacing). */
  paceRpm: number;
  originKey?: string;
  allowedOrigin?: string;
  allowBillable: boolean;
  timeoutMs: number;
  /** An answer larger than this is the target's failure, and is not read further (`--max-body-mb`). */
  maxBodyBytes: number;
  /** Requests the generated area may send (`--generated`; 0 turns it off). */
  generated: number;
  /** Seed of the generated and model areas (`--seed`): the same seed gives the same generated requests and model commands. */
  seed: number;
  /** Commands the model area may run (`--model-commands`; 0 turns it off). */
  modelCommands: number;
  /** JSONL file where the run records what it creates, for cleanup. */
  ledgerFile: string;
  servedDocument: Record<string, any>;
  bundledDocument: Record<string, any>;
}

declare module 'vitest' {
  export interface ProvidedContext { conformance: SuiteConfig }
}

let cached: SuiteConfig | undefined;
runScoped(() => { cached = undefined; });
export function suiteConfig(): SuiteConfig {
  cached ??= inject('conformance');
  if (!cached) throw new Error('scenario run without configuration: start it with npm run conformance');
  return cached;
}
