// Faults of the verdict's levels (each assertion charges the level SPEC.md gives what it asserts): an
// origin allowlist matched on the end of the host, and a blocked origin refused without the error
// envelope. The status of the refusal is no fault (a legal variant: variants/verdict.ts).
import { keyOf, originMatchedBy } from '../hooks.ts';
import type { Fault } from '../faults.ts';

/** The same scheme and port, and a host that ends with the allowed one (evil-allowed.example, x.allowed.example). */
const endsWithAllowedHost = (sent: string, allowed: string) => {
  try {
    const [s, a] = [new URL(sent), new URL(allowed)];
    return s.protocol === a.protocol && s.port === a.port && s.hostname !== a.hostname && s.hostname.endsWith(a.hostname);
  } catch { return false; }
};

export const VERDICT_FAULTS: Fault[] = [
  {
    id: 'origin-allowlist-suffix-match', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: an Origin is allowed when its host ends with the allowed host (https://evil-allowed.example and https://x.allowed.example pass)',
    request: originMatchedBy(endsWithAllowedHost),
  },
  {
    id: 'blocked-origin-bare-403', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'a blocked origin is answered 403 {"message": "Forbidden"} (a framework\'s default): refused, but without the error envelope every error response has',
    response: (res, req, ctx) => { if (res.status === 403 && keyOf(req) === ctx.keys.originKey) res.body = { message: 'Forbidden' }; },
  },
];
