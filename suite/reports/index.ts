// Writes the three report files of a run (DESIGN.md, "Reports"): JUnit XML for CI, JSON for machines,
// one HTML page for people. All three are rendered from the same RunResult; the terminal summary is
// rendered by the caller (terminal.ts) once it knows these paths.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunResult } from '../results/results.ts';
import { renderHtml } from './html.ts';
import { renderJUnit } from './junit.ts';
import { redactKeyLike } from '../data/redact.ts';

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
export function renderJson(result: RunResult): string {
  return `${JSON.stringify(result, (_key, value: unknown) => (typeof value === 'string' ? redactKeyLike(value) : value), 2)}\n`;
}

export function writeReports(result: RunResult, dir: string): ReportPaths {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const paths: ReportPaths = { junit: join(root, 'junit.xml'), json: join(root, 'results.json'), html: join(root, 'report.html') };
  writeFileSync(paths.junit, renderJUnit(result));
  writeFileSync(paths.json, renderJson(result));
  writeFileSync(paths.html, renderHtml(result));
  return paths;
}
