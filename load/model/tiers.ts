// The plan tiers of SPEC.md ("Limits"): requests per minute per API key. Enterprise is negotiated,
// so its rpm is always given (--rpm). Kept here rather than imported from reference/ because this
// file is bundled into the k6 scripts, which must not pull in the reference's Node-only code; a
// test keeps the two tables equal.
export type Tier = 'free' | 'starter' | 'pro' | 'enterprise';
export const TIERS: readonly Tier[] = ['free', 'starter', 'pro', 'enterprise'];

export const TIER_RPM: Readonly<Record<Exclude<Tier, 'enterprise'>, number>> = { free: 100, starter: 500, pro: 2000 };

/** SPEC.md's plans are per minute: the window a deployment is assumed to count in. */
export const MINUTE_MS = 60_000;

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
