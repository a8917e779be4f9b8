// The plan tiers of SPEC.md ("Limits"), under the load command's words: the one table is
// contract/plans.ts (bundled into the k6 scripts too).
import { PLAN_RPM, PLANS, MINUTE_MS, isPlan, type Plan } from '../../contract/plans.ts';

export type Tier = Plan;
export const TIERS = PLANS;
export const TIER_RPM = PLAN_RPM;
export { MINUTE_MS };
export const isTier = isPlan;
