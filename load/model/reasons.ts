// Why a run failed, in plain words: one sentence per failed threshold (what was measured, against
// what bound, in which phase), the abort and the baseline's verdict. The HTML report puts them
// right under its title and the terminal table before its verdict, so that the cause is read
// first, not found as `rate<=0` on the last row of a 40-row table. No Node built-ins: the k6
// bundles print the table too.
import { mostInWindow, type LoadSummary, type ThresholdResult } from './summary.ts';
import { MIN_ONSET } from './thresholds.ts';
import { sentText } from './complete.ts';
import { PLAN_RPM } from '../../contract/plans.ts';

const pct = (x: number) => `${+(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
const ms = (x: number) => `${+x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ms`;

/** '<operationId> <what> (<phase>)' as the model names thresholds (load/model/thresholds.ts). */
function parts(id: string): { op?: string; phase?: string } {
  const m = /^(\w+) (?:p95|p99|errors) \((steady|ramp)\)$/.exec(id);
  return m ? { op: m[1], phase: m[2] } : {};
}

/**
 * A key whose limit, as observed, is below the tier's: 429s began well before the tier's budget
 * (early), and the requests the limiter had counted then are this key's budget, give or take the
 * runner's upper bound. Named with the plan it matches, when one does (a free key run as pro).
 * Undefined when 429s did not come early.
 */
export function lowerLimit(s: LoadSummary): { observed: number; plan?: string } | undefined {
  const o = s.onset;
  if (!o.found || !o.early || o.offeredInWindow === undefined || (o.fractionOfLimit ?? 1) >= MIN_ONSET) return undefined;
  // What the limiter let through: the most 2xx answers in any window (the setup's too when it
  // opens the run), else the requests it may have counted at the first 429 (an upper bound,
  // loose when answers are slow).
  const accepted = mostInWindow(s, (p) => p.ok);
  const observed = accepted ? accepted.most + (accepted.fromStart ? s.setup.requests : 0) : o.offeredInWindow;
  const plan = Object.entries(PLAN_RPM).find(([, rpm]) => rpm < s.plan.rpm && observed >= rpm * 0.9 && observed <= rpm * 1.1)?.[0];
  return { observed, ...(plan ? { plan } : {}) };
}

function lowerLimitSentence(s: LoadSummary, l: { observed: number; plan?: string }): string {
  const rpm = PLAN_RPM[l.plan as keyof typeof PLAN_RPM];
  return `The key was refused (429) after about ${l.observed} requests in a ${+(s.plan.windowMs / 1000).toFixed(1)} s window: its observed limit, about ${l.observed} per window, ` +
    `is the ${l.plan} plan's (${rpm}), below the ${s.tier} tier's ${s.plan.rpm}. Is this a key of the ${l.plan} plan? Run with --tier ${l.plan}, or with a key of the ${s.tier} plan; ` +
    `a deployment that gives a ${s.tier} key the ${l.plan} plan's limit fails the tier.`;
}

function sentence(t: ThresholdResult, s: LoadSummary): string {
  const bound = Number(/[\d.]+$/.exec(t.expression)?.[0]);
  const { op } = parts(t.id);
  const limited = s.phases.reduce((n, p) => n + p.total.rateLimited, 0);
  if (/^p\((95|99)\)</.test(t.expression)) {
    const p = t.expression.slice(2, 4);
    return `${op}: ${p}% of its answers in the steady phase took up to ${ms(t.actual ?? 0)}, over the bound of ${ms(bound)} (service time, from the request written to its whole answer).`;
  }
  if (t.id === '429s begin at the limit') {
    const o = s.onset;
    return `429s came before the plan's limit: the first when ${pct(o.fractionOfLimit ?? 0)} of the budget had been offered over the ${+(s.plan.windowMs / 1000).toFixed(1)} s window ` +
      `(${o.early} of ${limited} 429s came under ${pct(MIN_ONSET)}); a correct limiter says no only once the budget is spent` +
      (lowerLimit(s) ? `, and this key's observed limit is about ${lowerLimit(s)!.observed} per window against the ${s.tier} tier's ${s.plan.rpm}.` : '.') +
      (lowerLimit(s)?.plan ? '' : ' Were requests of this key counted in that window by someone else (another run, another client), wait one window and run again.');
  }
  if (t.id === '429 carries Retry-After') {
    const missing = Math.round((1 - (t.actual ?? 1)) * limited);
    return `${missing} of ${limited} 429 answers carried no Retry-After header; SPEC.md says every 429 carries one.`;
  }
  if (t.id === 'errors other than 429 (ramp)') return `On the ramp, ${pct(t.actual ?? 0)} of the requests failed with something other than a 429 (bound: under ${pct(bound)}).`;
  if (t.id === 'errors (steady, abort)') return `In the steady phase, under the limit, ${pct(t.actual ?? 0)} of all requests failed (bound: under ${pct(bound)}): the run was stopped.`;
  if (op) return `${op}: ${pct(t.actual ?? 0)} of its requests in the steady phase failed (a 429 under the limit counts; bound: under ${pct(bound)}).`;
  return `${t.id}: measured ${t.actual ?? '-'}, bound ${t.expression}.`;
}

/** Why there is no verdict: how much was sent of the plan, and why it stopped. */
export function incompleteReason(s: LoadSummary): string | undefined {
  if (!s.incomplete) return undefined;
  return `No verdict: the run did not run its plan, ${sentText(s.incomplete)}: ${s.incomplete.why}. Its figures are of what was sent only.`;
}

/** The failed thresholds, the abort and the baseline's verdict, each one sentence; empty on a pass. */
export function verdictReasons(s: LoadSummary): string[] {
  const out: string[] = [];
  const incomplete = incompleteReason(s);
  if (incomplete) out.push(incomplete);
  if (s.aborted) out.push(`The run stopped early: ${s.aborted}.`);
  // A key refused well under the tier's budget: said first, before the many thresholds it fails.
  const lower = lowerLimit(s);
  if (lower?.plan) out.push(lowerLimitSentence(s, lower));
  // The per-endpoint latency and error bounds, then the run's own, as thresholds.ts lists them.
  for (const t of s.thresholds.filter((x) => !x.ok)) out.push(sentence(t, s));
  if (s.comparison?.regression) {
    const worse = s.comparison.endpoints.filter((e) => e.verdict === 'worse').map((e) => e.operationId);
    out.push(`Slower than the baseline${s.comparison.baseline.file ? ` ${s.comparison.baseline.file}` : ''} on ${worse.join(', ')}, beyond the threshold and significantly.`);
  }
  return out;
}
