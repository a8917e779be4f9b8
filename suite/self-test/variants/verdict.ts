// Legal variants of the verdict's levels: where SPEC.md gives the requirement but not its status, a
// deployment that picks another status passes without --strict (a SHOULD may warn, never a MUST).
import { applied, codeOf, declaredCodes, onDocument, operationsIn, responses, type Json } from '../hooks.ts';
import type { Variant } from '../variants.ts';

export const VERDICT_VARIANTS: Variant[] = [
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
