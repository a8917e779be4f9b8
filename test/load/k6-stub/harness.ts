// Runs a built bundle (load/build.ts) in Node with its k6 imports pointed at the stand-ins of this
// folder: the test drives setup, iterations and handleSummary, and reads what k6 would have seen.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Call { method: string; url: string; body: string | null; params: { headers: Record<string, string>; tags: Record<string, string>; responseCallback?: unknown; timeout?: string } }
export interface Answer { status: number; body?: string; headers: Record<string, string>; /** ms, k6's http_req_duration */ duration?: number }
export interface Sample { value: unknown; tags?: Record<string, string> }
export interface K6State {
  requests: Call[]; checks: Array<{ name: string; ok: boolean }>; sleeps: number[]; metrics: Record<string, Sample[]>;
  iteration: number; scenarioStart: number; scenarioTags?: Record<string, string>; respond(call: Call): Answer;
  /** What exec.test.options gives (k6's consolidated options: the execution segment of a distributed runner). */
  options?: { executionSegment: string | null; executionSegmentSequence?: string | null };
}

const stubDir = fileURLToPath(new URL('./', import.meta.url));
let copies = 0;

/** Imports the bundle of a tier from `dir`, under the given __ENV. */
export async function loadBundle(dir: string, tier: string, env: Record<string, string>): Promise<any> {
  const code = readFileSync(join(dir, `${tier}.js`), 'utf8')
    .replace(/from "k6"/g, `from "${join(stubDir, 'k6.mjs')}"`)
    .replace(/from "k6\/(http|execution|metrics)"/g, (_, m: string) => `from "${join(stubDir, `${m}.mjs`)}"`);
  const file = join(dir, `run-${tier}-${copies++}.mjs`);
  writeFileSync(file, code);
  (globalThis as any).__ENV = env;
  return import(file);
}

export function freshState(): K6State {
  const state: K6State = {
    requests: [], checks: [], sleeps: [], metrics: {}, iteration: 0, scenarioStart: Date.now(),
    respond: () => ({ status: 200, body: '{}', headers: {} }),
  };
  (globalThis as any).__k6 = state;
  return state;
}
