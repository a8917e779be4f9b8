// Writes the three report files of a run (docs/conformance.md, "Reports"): JUnit XML for CI, JSON for machines,
// one HTML page for people. All three are rendered from the same RunResult; the terminal summary is
// rendered by the caller (terminal.ts) once it knows these paths.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResult } from '../results/results.ts';
import { renderHtml } from './html.ts';
import { renderJUnit } from './junit.ts';
import { redactKeyLike, scrub } from '../data/redact.ts';

export { renderFailure, renderSummary } from './terminal.ts';
export { renderJUnit } from './junit.ts';
export { renderHtml } from './html.ts';
export { verdict } from './verdict.ts';

export interface ReportPaths { junit: string; json: string; html: string }

/**
 * The RunResult as JSON, whole (full bodies as recorded, all headers): the machine-readable record.
 * Only the key-looking safety net applies: JSON escaping already neutralises controls, and a
 * consumer wants the data as received, not made visible for a terminal.
 */
export function renderJson(result: RunResult, secrets: Array<string | undefined> = []): string {
  // Values and member names (a header name may hold a key) are scrubbed one by one, so that the
  // text stays valid JSON whatever escape a key was echoed in.
  const replacer = (_key: string, value: unknown) => {
    if (typeof value === 'string') return redactKeyLike(scrub(value, secrets));
    if (!secrets.length || !value || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k, secrets), v]));
  };
  return `${JSON.stringify(result, replacer, 2)}\n`;
}

/**
 * Writes the three files. `secrets` (the run's keys) are scrubbed from each, in every form: the last
 * net under what the recorder already scrubbed (an assertion quoting a parsed body, a header name
 * holding a key). XML and HTML have no backslash escapes, so their text is scrubbed whole.
 */
export function writeReports(result: RunResult, dir: string, secrets: Array<string | undefined> = []): ReportPaths {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const paths: ReportPaths = { junit: join(root, 'junit.xml'), json: join(root, 'results.json'), html: join(root, 'report.html') };
  writeFileSync(paths.junit, scrub(renderJUnit(result), secrets));
  writeFileSync(paths.json, renderJson(result, secrets));
  writeFileSync(paths.html, scrub(renderHtml(result), secrets));
  return paths;
}
