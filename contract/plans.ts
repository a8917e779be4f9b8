// The plans of SPEC.md ("Limits"): requests per minute per API key. One table for the reference
// (its limiter), the suite (pacing, RATE-4) and load (tiers). Free of TypeBox and of Node-only
// modules, because the k6 bundles import it too.
export type Plan = 'free' | 'starter' | 'pro' | 'enterprise';

export const PLANS: readonly Plan[] = ['free', 'starter', 'pro', 'enterprise'];

/** Requests per minute per key. Enterprise is negotiated ("custom"): its rpm is always given. */
export const PLAN_RPM: Readonly<Record<Exclude<Plan, 'enterprise'>, number>> = { free: 100, starter: 500, pro: 2000 };

/** SPEC.md's limits are per minute: the window a deployment is assumed to count in. */
export const MINUTE_MS = 60_000;

/** The rate-limit window of the embedded reference that the suite starts: short, so that the
 *  rate-limit area (and the self-test) is quick. */
export const EMBEDDED_RATE_WINDOW_MS = 3_000;

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** The limit of a plan, or the given rpm for enterprise (undefined when none is given). */
export function rpmOf(plan: Plan, rpm?: number): number | undefined {
  return plan === 'enterprise' ? rpm : PLAN_RPM[plan];
}
