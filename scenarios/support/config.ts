// What the conformance command gives the scenario files (through vitest's provide/inject): the
// target, the keys, the switches, and both OpenAPI documents. Scenario files read nothing else.
import { inject } from 'vitest';

export interface SuiteConfig {
  runId: string;
  baseUrl: string;
  apiKey: string;
  secondKey?: string;
  rateLimitKey?: string;
  plan: 'free' | 'starter' | 'pro' | 'enterprise';
  /** Requests per minute the client paces itself under (0: no pacing). */
  paceRpm: number;
  originKey?: string;
  allowedOrigin?: string;
  allowBillable: boolean;
  timeoutMs: number;
  /** JSONL file where the run records what it creates, for cleanup. */
  ledgerFile: string;
  servedDocument: Record<string, any>;
  bundledDocument: Record<string, any>;
}

declare module 'vitest' {
  export interface ProvidedContext { conformance: SuiteConfig }
}

let cached: SuiteConfig | undefined;
export function suiteConfig(): SuiteConfig {
  cached ??= inject('conformance');
  if (!cached) throw new Error('scenario run without configuration: start it with npm run conformance');
  return cached;
}
