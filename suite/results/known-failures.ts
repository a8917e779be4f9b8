// `--known-failures FILE`: failures a team has accepted for a while, so that a gate fails only on
// what is new. Each entry names a requirement, why it is accepted and until when, and may narrow it
// to the grain of one failure: one operation (`operation`, an operationId), and for the requirements
// judged on every response (ENV-*, CONTRACT-*) one member of the answer (`member`, a path such as
// result.world.engineVersion: that member and what lies under it). So a deployment that drops one
// field is accepted for that field on that operation while the rest of the contract still gates.
// A listed failure is still reported (as known) but does not fail the run; once its date has passed
// it fails the run again. An entry that matches no failure while its requirement was checked is
// called out ("fixed: remove it"): left in the file, it would silently accept the same failure
// should it come back.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { isRequirementId, PER_RESPONSE, type RequirementId } from '../../contract/requirements.ts';
import { UsageError } from '../data/errors.ts';
import type { CheckResult, Outcome, RequirementResult } from './results.ts';

export interface KnownFailure {
  id: RequirementId;
  /** Only the failures on this operation (an operationId of SPEC.md's contract). */
  operation?: string;
  /** Only the problems at this member of the answer and under it, as a JSON pointer (/result/world/engineVersion). */
  member?: string;
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
    const { id, operation, member, reason, expires, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) fail(`${where}: unknown member ${extra.map((k) => `'${k}'`).join(', ')} (an entry has id, operation, member, reason, expires)`);
    if (typeof id !== 'string' || !isRequirementId(id)) return fail(`${where}: '${String(id)}' is not a requirement id (--list shows them)`);
    if (operation !== undefined && (typeof operation !== 'string' || !operationIds().has(operation))) {
      fail(`${where} (${id}): operation '${String(operation)}' is not an operationId of SPEC.md (${[...operationIds()].slice(0, 4).join(', ')}, …)`);
    }
    if (member !== undefined && !PER_RESPONSE.includes(id)) fail(`${where} (${id}): member applies to the requirements checked on every response (${PER_RESPONSE.join(', ')}); narrow ${id} with operation`);
    if (member !== undefined && (typeof member !== 'string' || !member.trim())) fail(`${where} (${id}): member must be a path such as result.world.engineVersion`);
    const pointer = member === undefined ? undefined : pointerOf(String(member));
    const key = [id, operation, pointer].join(' ');
    if (seen.has(key)) fail(`${where}: ${[id, operation, member].filter(Boolean).join(' ')} is listed twice`);
    seen.add(key);
    if (typeof reason !== 'string' || !reason.trim()) fail(`${where} (${id}): a reason is required`);
    // YAML may read an unquoted date as a string or, in other schemas, a Date: accept both.
    const day = expires instanceof Date ? expires.toISOString().slice(0, 10) : expires;
    if (typeof day !== 'string' || !DATE.test(day) || Number.isNaN(Date.parse(day))) return fail(`${where} (${id}): expires must be a date, YYYY-MM-DD`);
    return { id, ...(operation !== undefined ? { operation: String(operation) } : {}), ...(pointer !== undefined ? { member: pointer } : {}), reason: String(reason).trim(), expires: day };
  });
}

/** The operationIds of the bundled contract (contract/spec.json): what the reports name operations by. */
let operations: Set<string> | undefined;
function operationIds(): Set<string> {
  const doc = JSON.parse(readFileSync(new URL('../../contract/spec.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  operations ??= new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId).filter((x): x is string => typeof x === 'string')));
  return operations;
}

/** A member path as a JSON pointer: `/result/world/engineVersion` as given, `result.world.engineVersion` turned into one. */
export function pointerOf(path: string): string {
  const p = path.trim();
  return p.startsWith('/') ? p.replace(/\/+$/, '') : `/${p.split('.').filter(Boolean).join('/')}`;
}

/**
 * The member a problem of a per-response check is about, as a JSON pointer: the instance path it
 * starts with, and the property a `required` or `additionalProperties` problem names
 * (`/result/world must have required property 'engineVersion'` → /result/world/engineVersion).
 */
export function memberOf(problem: string): string | undefined {
  const m = /^(\/\S*|\(root\)) (.*)$/.exec(problem);
  if (!m) return undefined;
  const at = m[1] === '(root)' ? '' : m[1];
  const named = /must have required property '([^']+)'|must NOT have (?:additional|unevaluated) properties '([^']+)'/.exec(m[2]);
  const name = named?.[1] ?? named?.[2];
  return name === undefined ? at : `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

const within = (member: string, prefix: string) => member === prefix || member.startsWith(`${prefix}/`);

export function readKnownFailures(file: string): KnownFailure[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--known-failures ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseKnownFailures(text, file);
}

/** An entry as the reports name it: `CONTRACT-1 on getWorld at /result/world/engineVersion`. */
export const knownLabel = (k: Pick<KnownFailure, 'id' | 'operation' | 'member'>) => `${k.id}${k.operation ? ` on ${k.operation}` : ''}${k.member ? ` at ${k.member}` : ''}`;

const broken = (o: Outcome) => o === 'fail' || o === 'warn';

/** The operation a check's failure is on: a per-response row's own, or the one the failure names. */
export const operationOf = (c: CheckResult) => (c.responses !== undefined ? c.operations[0] : c.failure?.operationId ?? c.failure?.exchange?.operationId);

/** The problems a per-response row found, one a line (its failure's received). */
export const problemsOf = (c: CheckResult) => (c.failure?.received ?? '').split('\n').filter(Boolean);

/**
 * Whether an entry covers one problem of a per-response row (its member holds the problem's), or,
 * with no member, any failure of its requirement on its operation (or on any, with no operation).
 */
export function covers(entry: KnownFailure, requirementId: RequirementId, operationId: string | undefined, problem?: string): boolean {
  if (entry.id !== requirementId) return false;
  if (entry.operation !== undefined && entry.operation !== operationId) return false;
  if (entry.member === undefined) return true;
  const member = problem === undefined ? undefined : memberOf(problem);
  return member !== undefined && within(member, entry.member);
}

/** The entries that together cover the failure of `c` on requirement `id`, or none if some of it is left uncovered. */
function coveringEntries(entries: readonly KnownFailure[], c: CheckResult, id: RequirementId): KnownFailure[] {
  const op = operationOf(c);
  const whole = entries.filter((e) => e.member === undefined && covers(e, id, op));
  if (whole.length) return whole.slice(0, 1);
  if (c.responses === undefined) return [];
  const problems = problemsOf(c);
  const used = problems.map((p) => entries.find((e) => covers(e, id, op, p)));
  return problems.length && used.every(Boolean) ? [...new Set(used as KnownFailure[])] : [];
}

/**
 * Sorts the entries by what happened to the failures they name, and marks the accepted ones on the
 * checks whose every broken requirement they cover (`known`), and on the requirements whose every
 * broken check is accepted. `today` is YYYY-MM-DD (UTC): an entry is accepted through its expiry day.
 */
export function applyKnownFailures(entries: readonly KnownFailure[], requirements: RequirementResult[], checks: CheckResult[], today: string): KnownFailureReport {
  const report: KnownFailureReport = { accepted: [], expired: [], fixed: [], unverified: [] };
  const live = entries.filter((e) => e.expires >= today);
  /** The entries that matched a failure of this run, live or not. */
  const matched = new Set<KnownFailure>();
  for (const c of checks) {
    if (!broken(c.outcome)) continue;
    const charged = c.failure?.requirementIds.length ? c.failure.requirementIds : c.requirementIds;
    for (const id of charged) for (const e of coveringEntries(entries, c, id)) matched.add(e);
    const by = charged.map((id) => coveringEntries(live, c, id));
    if (by.every((list) => list.length)) c.known = by[0][0];
  }
  for (const q of requirements) {
    if (!broken(q.outcome)) continue;
    const mine = checks.filter((c) => broken(c.outcome) && q.checks.includes(c.id) && (c.failure?.requirementIds.length ? c.failure.requirementIds : c.requirementIds).includes(q.id));
    if (mine.length && mine.every((c) => c.known)) q.known = mine.find((c) => c.known!.id === q.id)?.known ?? mine[0].known;
  }
  const byId = new Map(requirements.map((q) => [q.id, q]));
  for (const entry of entries) {
    const q = byId.get(entry.id)!;
    if (matched.has(entry)) (entry.expires < today ? report.expired : report.accepted).push(entry);
    else if (q.outcome === 'pass' || broken(q.outcome)) report.fixed.push(entry);
    else report.unverified.push({ ...entry, outcome: q.outcome });
  }
  return report;
}
