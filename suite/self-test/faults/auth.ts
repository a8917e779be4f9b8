// Faults of authentication and the origin allowlist (AUTH-1..7), near misses included (a key or an origin
// compared one step short of the truth, docs/finding-power.md). The status of a blocked origin's refusal
// is no fault (a legal variant: variants/auth.ts); its envelope is.
import type { Fault } from '../faults.ts';
import { type FaultContext, type FaultHooks, json, keyOf, originMatchedBy, statusFor } from './helpers.ts';

/** The keys the deployment knows. */
const knownKeys = (ctx: FaultContext) => [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey].filter((k): k is string => !!k);
/** A key comparison gone wrong: an unknown key that `match`es a known one is served as that key. */
const keyMatchedBy = (match: (sent: string, known: string) => boolean): FaultHooks['request'] => (req, ctx) => {
  const sent = keyOf(req);
  if (!sent || knownKeys(ctx).includes(sent)) return;
  const known = knownKeys(ctx).find((k) => match(sent, k));
  if (known) req.headers['x-api-key'] = known;
};
const hostOf = (origin: string) => { try { return new URL(origin).hostname; } catch { return undefined; } };
/** The same scheme and port, and a host that ends with the allowed one (evil-allowed.example, x.allowed.example). */
const endsWithAllowedHost = (sent: string, allowed: string) => {
  try {
    const [s, a] = [new URL(sent), new URL(allowed)];
    return s.protocol === a.protocol && s.port === a.port && s.hostname !== a.hostname && s.hostname.endsWith(a.hostname);
  } catch { return false; }
};


export const FAULTS: Fault[] = [
  {
    id: 'unauthorized-as-403', areas: ['auth'], expected: ['AUTH-1', 'AUTH-2'],
    description: 'UNAUTHORIZED comes with status 403',
    response: statusFor('UNAUTHORIZED', 403),
  },
  {
    id: 'auth-missing-key-filled-in', areas: ['auth'], expected: ['AUTH-1'],
    description: 'a request without X-API-Key is served as the main key (auth bypassed)',
    request: (req, ctx) => { if (!keyOf(req)) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'auth-invalid-key-accepted', areas: ['auth'], expected: ['AUTH-2'],
    description: 'an unknown X-API-Key is served as the main key (auth bypassed)',
    request: (req, ctx) => {
      const known = [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey];
      const key = keyOf(req);
      if (key && !known.includes(key)) req.headers['x-api-key'] = ctx.keys.mainKey;
    },
  },
  {
    id: 'auth-key-prefix-match', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared on the length of the stored one (a known key with characters added is accepted)',
    request: keyMatchedBy((sent, known) => sent.startsWith(known)),
  },
  {
    id: 'auth-key-truncated-accepted', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared on the length of the sent one (a known key cut short, 8 characters or more, is accepted)',
    request: keyMatchedBy((sent, known) => sent.length >= 8 && known.startsWith(sent)),
  },
  {
    id: 'auth-key-last-char-ignored', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: a key is compared without its last character (a known key with its last character changed is accepted)',
    request: keyMatchedBy((sent, known) => sent.length === known.length && sent.slice(0, -1) === known.slice(0, -1)),
  },
  {
    id: 'auth-key-case-insensitive', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: keys are compared without case',
    request: keyMatchedBy((sent, known) => sent.toLowerCase() === known.toLowerCase()),
  },
  {
    id: 'auth-key-whitespace-stripped', areas: ['auth'], only: ['AUTH-2'], expected: ['AUTH-2'],
    description: 'Authentication 1: whitespace is removed from a key before it is compared',
    request: keyMatchedBy((sent, known) => sent.replace(/\s+/g, '') === known),
  },
  {
    id: 'model-key-without-first-char', areas: ['model'], expected: ['AUTH-2'],
    description: 'a key without its first character is accepted as the key (compared from the end)',
    request: (req, ctx) => {
      const sent = keyOf(req);
      const known = [ctx.keys.mainKey, ctx.keys.secondKey].find((k) => k && sent && k.length === sent.length + 1 && k.endsWith(sent));
      if (known) req.headers['x-api-key'] = known;
    },
  },
  {
    id: 'persona-api-refuses-key', areas: ['auth'], expected: ['AUTH-3'],
    description: 'the Persona API answers 401 to the key the World API accepts',
    answer: (req, ctx) => (req.path.startsWith('/personas') && keyOf(req) === ctx.keys.mainKey
      ? json(401, { error: { code: 'UNAUTHORIZED', message: 'fault: not a persona key' } }) : undefined),
  },
  {
    id: 'origin-allowlist-ignored', areas: ['auth'], expected: ['AUTH-4'],
    description: 'the Origin of an origin-restricted key is rewritten to its allowed origin (allowlist ignored)',
    request: (req, ctx) => { if (req.headers.origin && keyOf(req) === ctx.keys.originKey && ctx.keys.allowedOrigin) req.headers.origin = ctx.keys.allowedOrigin; },
  },
  {
    id: 'origin-allowlist-prefix-match', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: an Origin is allowed when it begins with a configured one (https://allowed.example.evil.test passes)',
    request: originMatchedBy((sent, allowed) => sent.startsWith(allowed)),
  },
  {
    id: 'origin-allowlist-host-only', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: an Origin is compared on its host alone (another scheme or port passes)',
    request: originMatchedBy((sent, allowed) => hostOf(sent) !== undefined && hostOf(sent) === hostOf(allowed)),
  },
  {
    id: 'origin-allowlist-world-api-only', areas: ['auth'], only: ['AUTH-4'], expected: ['AUTH-4'],
    description: 'Authentication 6: the allowlist guards the World API only; the Persona API serves any Origin',
    request: originMatchedBy((_sent, _allowed, req) => req.path.startsWith('/personas')),
  },
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
  {
    id: 'origin-key-always-refused', areas: ['auth'], expected: ['AUTH-5'],
    description: 'an origin-restricted key is refused 403 from its allowed origin too',
    answer: (req, ctx) => (keyOf(req) === ctx.keys.originKey ? json(403, { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'fault: origin refused' } }) : undefined),
  },
  {
    id: 'open-key-refused-with-origin', areas: ['auth'], expected: ['AUTH-6'],
    description: 'a key without configured origins is refused 403 when the request carries an Origin',
    answer: (req, ctx) => (req.headers.origin && keyOf(req) === ctx.keys.mainKey ? json(403, { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'fault: origin refused' } }) : undefined),
  },
  {
    id: 'blocked-origin-as-401', areas: ['auth'], expected: ['AUTH-7'],
    description: 'a blocked origin is answered 401 instead of 403',
    response: (res) => { if (res.status === 403) res.status = 401; },
  },
];
