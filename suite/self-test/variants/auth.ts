// Legal variants of authentication and the origin allowlist: where SPEC.md gives the requirement but not
// its status, a deployment that picks another status passes without --strict (a SHOULD may warn, never a
// MUST); /openapi.json behind a key.
import type { Variant } from '../variants.ts';
import { type Json, applied, codeOf, declaredCodes, errorAnswer, errorResponse, isDocument, keyOf, onDocument, operationIn, operationsIn, responses } from './helpers.ts';

export const VARIANTS: Variant[] = [
  {
    id: 'blocked-origin-forbidden', areas: ['auth'], allowedWarnings: [],
    description: 'a blocked origin is answered 403 FORBIDDEN instead of 403 ORIGIN_NOT_ALLOWED',
    gap: 'Errors: "Error code and status returned when an origin is blocked by the allowlist: not shown."',
    response: responses(
      (res, _req, ctx) => { if (res.status === 403 && codeOf(res) === 'ORIGIN_NOT_ALLOWED') { (res.body as Json).error.code = 'FORBIDDEN'; applied(ctx); } },
      onDocument((doc) => {
        for (const { op } of operationsIn(doc)) {
          const codes = declaredCodes(op.responses['403']);
          if (codes) codes.splice(0, codes.length, ...codes.map((c) => (c === 'ORIGIN_NOT_ALLOWED' ? 'FORBIDDEN' : c)));
        }
      }),
    ),
  },
  {
    id: 'openapi-needs-key', areas: ['openapi', 'auth'], allowedWarnings: [],
    description: 'GET /openapi.json needs a valid key: 401 UNAUTHORIZED without one',
    gap: 'Authentication 9: "Whether `{base_url}/openapi.json` requires a key: not shown."',
    answer: (req, ctx) => {
      if (!isDocument(req)) return undefined;
      const known = [ctx.keys.mainKey, ctx.keys.secondKey, ctx.keys.rateLimitKey, ctx.keys.originKey];
      // Served or refused, the key decided it: a run that fetched the document without one would fail.
      applied(ctx);
      if (keyOf(req) && known.includes(keyOf(req))) return undefined;
      return errorAnswer(401, 'UNAUTHORIZED', 'X-API-Key is required');
    },
    response: onDocument((doc) => {
      const op = operationIn(doc, 'getOpenApi');
      if (!op) return;
      delete op.security;
      op.responses['401'] = errorResponse(['UNAUTHORIZED'], 'UNAUTHORIZED: the X-API-Key header is missing or the key is not recognised.');
    }),
  },
  {
    id: 'blocked-origin-unauthorized', areas: ['auth'], allowedWarnings: ['AUTH-7'],
    description: 'a blocked origin is answered 401 UNAUTHORIZED (the key is not valid from there) instead of 403 ORIGIN_NOT_ALLOWED',
    gap: 'Errors: "Error code and status returned when an origin is blocked by the allowlist: not shown."',
    response: responses(
      (res, _req, ctx) => {
        if (res.status !== 403 || codeOf(res) !== 'ORIGIN_NOT_ALLOWED') return;
        res.status = 401;
        (res.body as Json).error.code = 'UNAUTHORIZED';
        applied(ctx);
      },
      // Its document says so: no operation declares ORIGIN_NOT_ALLOWED (nor a 403 left without a code).
      onDocument((doc) => {
        for (const { op } of operationsIn(doc)) {
          const codes = declaredCodes(op.responses?.['403']);
          if (!codes) continue;
          codes.splice(0, codes.length, ...codes.filter((c) => c !== 'ORIGIN_NOT_ALLOWED'));
          if (!codes.length) delete op.responses['403'];
        }
      }),
    ),
  },
];
