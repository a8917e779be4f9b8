// The key table and the per-key limiter. Plans per window (a minute unless configured shorter):
// free 100, starter 500, pro 2,000, enterprise its own number. The limiter is a token bucket (the
// plan's number as capacity, refilled evenly over the window), not a fixed window.
export type Plan = 'free' | 'starter' | 'pro' | 'enterprise';
export interface KeyEntry { key: string; tenant: string; plan: Plan; perWindow?: number; origins?: string[] }

export const PLAN_LIMIT: Record<Exclude<Plan, 'enterprise'>, number> = { free: 100, starter: 500, pro: 2000 };

/** The keys a fresh server knows unless told others: two tenants, every plan, one origin-restricted key. */
export const DEFAULT_KEYS: KeyEntry[] = [
  { key: 'mk_test_indep_umbra_pro_7f3a', tenant: 'umbra', plan: 'pro' },
  { key: 'mk_test_indep_penumbra_starter_91c2', tenant: 'penumbra', plan: 'starter' },
  { key: 'mk_test_indep_umbra_free_55d0', tenant: 'umbra', plan: 'free' },
  { key: 'mk_test_indep_umbra_browser_c4e8', tenant: 'umbra', plan: 'pro', origins: ['https://studio.indep.example'] },
  { key: 'mk_live_indep_antumbra_ent_0b19', tenant: 'antumbra', plan: 'enterprise', perWindow: 5000 },
];

const KEY_FORMAT = /^mk_(test|live)_[A-Za-z0-9_]{4,}$/;

export class KeyTable {
  private keys = new Map<string, KeyEntry>();
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(entries: KeyEntry[], private windowMs: number) {
    for (const e of entries) {
      if (!KEY_FORMAT.test(e.key)) throw new Error(`key ${e.key.slice(0, 8)}… is not of the form mk_test_… or mk_live_…`);
      this.keys.set(e.key, e);
    }
  }

  find(key: string | undefined): KeyEntry | undefined {
    return key === undefined ? undefined : this.keys.get(key);
  }

  /** Takes a token for the key; when none is left, the whole seconds until one is back. */
  take(entry: KeyEntry, now = Date.now()): { ok: true } | { ok: false; retryAfterS: number } {
    const capacity = entry.plan === 'enterprise' ? entry.perWindow ?? 10_000 : PLAN_LIMIT[entry.plan];
    const perMs = capacity / this.windowMs;
    const b = this.buckets.get(entry.key) ?? { tokens: capacity, at: now };
    b.tokens = Math.min(capacity, b.tokens + (now - b.at) * perMs);
    b.at = now;
    this.buckets.set(entry.key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
  }
}
