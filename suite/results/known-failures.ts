// `--known-failures FILE`: failures a team has accepted for a while, so that a gate fails only on
// what is new. Each entry names a requirement, why it is accepted and until when. A listed failure is
// still reported (as known) but does not fail the run; once its date has passed it fails the run
// again. An entry whose requirement now holds is called out ("fixed: remove it"): left in the file,
// it would silently accept the same failure should it come back.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isRequirementId, type RequirementId } from '../../contract/requirements.ts';
import { UsageError } from '../data/errors.ts';
import type { CheckResult, Outcome, RequirementResult } from './results.ts';

export interface KnownFailure {
  id: RequirementId;
  reason: string;
  /** Last day the failure is accepted, YYYY-MM-DD (UTC). */
  expires: string;
}

/** What became of each entry in this run. */
export interface KnownFailureReport {
  /** Failing, within their date: reported, not failing the run. */
  accepted: KnownFailure[];
  /** Failing, past their date: they fail the run again. */
  expired: KnownFailure[];
  /** Holding now: remove them from the file. */
  fixed: KnownFailure[];
  /** Not verified by this run (not selected, not run, or the suite erred): nothing to say. */
  unverified: Array<KnownFailure & { outcome: Outcome }>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The entries of a file: a list of {id, reason, expires}, in YAML or JSON (JSON is YAML). */
export function parseKnownFailures(text: string, file: string): KnownFailure[] {
  const fail = (why: string): never => { throw new UsageError(`--known-failures ${file}: ${why}`); };
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    fail(`not YAML or JSON (${(err as Error).message.split('\n')[0]})`);
  }
  if (doc === null || doc === undefined) return [];
  if (!Array.isArray(doc)) fail('expected a list of entries, each {id, reason, expires}');
  const seen = new Set<string>();
  return (doc as unknown[]).map((entry, i) => {
    const where = `entry ${i + 1}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return fail(`${where}: expected {id, reason, expires}`);
    const { id, reason, expires, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) fail(`${where}: unknown member ${extra.map((k) => `'${k}'`).join(', ')} (an entry has id, reason, expires)`);
    if (typeof id !== 'string' || !isRequirementId(id)) return fail(`${where}: '${String(id)}' is not a requirement id (--list shows them)`);
    if (seen.has(id)) fail(`${where}: ${id} is listed twice`);
    seen.add(id);
    if (typeof reason !== 'string' || !reason.trim()) fail(`${where} (${id}): a reason is required`);
    // YAML may read an unquoted date as a string or, in other schemas, a Date: accept both.
    const day = expires instanceof Date ? expires.toISOString().slice(0, 10) : expires;
    if (typeof day !== 'string' || !DATE.test(day) || Number.isNaN(Date.parse(day))) return fail(`${where} (${id}): expires must be a date, YYYY-MM-DD`);
    return { id, reason: String(reason).trim(), expires: day };
  });
}

export function readKnownFailures(file: string): KnownFailure[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--known-failures ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseKnownFailures(text, file);
}

const broken = (o: Outcome) => o === 'fail' || o === 'warn';

/**
 * Sorts the entries by what happened to their requirement, and marks the accepted ones on the
 * requirements (`known`) and on the checks whose failure is charged to accepted requirements only.
 * `today` is YYYY-MM-DD (UTC): an entry is accepted through its expiry day.
 */
export function applyKnownFailures(entries: readonly KnownFailure[], requirements: RequirementResult[], checks: CheckResult[], today: string): KnownFailureReport {
  const report: KnownFailureReport = { accepted: [], expired: [], fixed: [], unverified: [] };
  const byId = new Map(requirements.map((q) => [q.id, q]));
  for (const entry of entries) {
    const q = byId.get(entry.id)!;
    if (q.outcome === 'pass') report.fixed.push(entry);
    else if (!broken(q.outcome)) report.unverified.push({ ...entry, outcome: q.outcome });
    else if (entry.expires < today) report.expired.push(entry);
    else {
      report.accepted.push(entry);
      q.known = entry;
    }
  }
  const accepted = new Set(report.accepted.map((e) => e.id));
  for (const c of checks) {
    const charged = c.failure?.requirementIds.length ? c.failure.requirementIds : c.requirementIds;
    if (broken(c.outcome) && charged.every((id) => accepted.has(id))) c.known = report.accepted.find((e) => charged.includes(e.id));
  }
  return report;
}
