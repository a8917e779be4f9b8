// What a check may need from the run beyond the main key, and the flag that provides each: a check
// that lacks one is "not run", naming the flag. Free of vitest, so that --list can use it
// outside the scenario workers.
import type { SuiteConfig } from './config.ts';

export type Prerequisite = 'secondKey' | 'rateLimitKey' | 'originKey' | 'allowBillable' | 'planNamed';

export const FLAG: Record<Prerequisite, string> = {
  secondKey: '--second-key', rateLimitKey: '--rate-limit-key', originKey: '--origin-key and --allowed-origin', allowBillable: '--allow-billable',
  planNamed: '--rate-limit-plan (the plan of the rate-limit key)',
};

/** What of `what` the run lacks. */
export const missingOf = (config: Pick<SuiteConfig, Prerequisite | 'allowedOrigin'>, what: readonly Prerequisite[]): Prerequisite[] =>
  what.filter((w) => !config[w] || (w === 'originKey' && !config.allowedOrigin));

/** Why a check is not run for want of these: "needs --second-key". */
export const needsText = (missing: readonly Prerequisite[]) => `needs ${missing.map((m) => FLAG[m]).join(', ')}`;
