// Legal variants of errors and validation: the body validated before the lookup (also the dialects'
// proxy, ../dialect-matrix.ts), malformed JSON answered 400 BAD_REQUEST, a batch reporting a bad
// operation in its own entry.
import type { Variant } from '../variants.ts';
import { type ValidateFunction, Ajv } from 'ajv';
import { type FaultContext, type FaultHooks, type FaultRequest, type Json, applied, codeOf, declaredCodes, errorAnswer, errorResponse, is, is2xx, isDocument, isObject, onDocument, operationsIn, responses, resultOf } from './helpers.ts';

interface RequestValidators { of(operationId: string): ValidateFunction | null }
/**
 * The request-body validators of a document, compiled once per document text: every proxy of a
 * matrix serves the same reference, whose document would otherwise be compiled again for each run.
 */
const compiledDocuments = new Map<string, RequestValidators>();
function requestValidatorsOf(doc: Json): RequestValidators {
  const text = JSON.stringify(doc);
  let found = compiledDocuments.get(text);
  if (!found) {
    const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
    ajv.addSchema({ $id: 'served', paths: doc.paths, components: doc.components }, 'served');
    const validators = new Map<string, ValidateFunction | null>();
    const esc = (p: string) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'));
    found = {
      of(operationId) {
        if (!validators.has(operationId)) {
          const op = [...operationsIn(doc)].find((o) => o.op.operationId === operationId);
          validators.set(operationId, op?.op.requestBody?.content?.['application/json']?.schema
            ? ajv.compile({ $ref: `served#/paths/${esc(op.path)}/${op.method}/requestBody/content/${esc('application/json')}/schema` }) : null);
        }
        return validators.get(operationId)!;
      },
    };
    if (compiledDocuments.size >= 4) compiledDocuments.delete(compiledDocuments.keys().next().value!);
    compiledDocuments.set(text, found);
  }
  return found;
}
/**
 * Bodies validated before the world or persona is looked up: a 404 for an unknown id becomes 400
 * VALIDATION_ERROR when the body is invalid for the request schema of the document the deployment
 * itself serves (fetched upstream, past any rewriting of the proxy: the document dialects validate
 * against the original this way).
 */
export function validateFirstHooks(): FaultHooks {
  const validatorFor = async (req: FaultRequest, ctx: FaultContext) => {
    // The deployment's own request schemas: those of the document it serves, fetched once per proxy.
    if (!ctx.state.has('validators')) {
      const doc = (await ctx.forward({ ...req, method: 'GET', path: '/openapi.json', query: new URLSearchParams(), body: undefined, rawBody: '', operationId: 'getOpenApi', params: {} })).body as Json;
      ctx.state.set('validators', requestValidatorsOf(doc));
    }
    return (ctx.state.get('validators') as RequestValidators).of(req.operationId!);
  };
  return {
    async response(res, req, ctx) {
      if (res.status !== 404 || !['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'].includes(codeOf(res) ?? '') || !req.operationId || req.rawBody === '') return;
      const validate = await validatorFor(req, ctx);
      if (!validate || validate(req.body)) return;
      applied(ctx);
      Object.assign(res, errorAnswer(400, 'VALIDATION_ERROR', `body: ${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? 'invalid'}`));
    },
  };
}
/** A 400 declaration of every operation also allows `code`. */
const alsoCode400 = (code: string) => onDocument((doc) => {
  for (const { op } of operationsIn(doc)) {
    const codes = declaredCodes(op.responses['400']);
    if (codes) codes.push(code);
    else op.responses['400'] = errorResponse([code], `${code}: the body is not JSON.`);
  }
});
/**
 * The deployment validates each operation of a batch on its own: a batch the reference refuses whole
 * (400 VALIDATION_ERROR: an operation of the wrong shape) is applied operation by operation (each sent
 * alone: the reference's own batches change nothing for an operation that fails), the refused ones
 * reported {op, ok: false, error}. Its document is the reference's: it already declares such results,
 * and what it says of requests (`op` a string) is what it expects, not what it refuses whole.
 */
function perOperationHooks(): FaultHooks {
  return {
    response: responses(
      async (res, req, ctx) => {
        const operations = (req.body as Json | undefined)?.operations;
        if (!is(req, 'mutateWorld') || codeOf(res) !== 'VALIDATION_ERROR' || !Array.isArray(operations) || !operations.length || !operations.every(isObject)) return;
        // The batch is read, then the world looked up, then each operation tried.
        const world = await ctx.forward({ ...req, method: 'GET', path: req.path.replace(/\/mutate$/, ''), body: undefined, rawBody: '', headers: withoutBody(req.headers) });
        if (!is2xx(world)) { Object.assign(res, world); return; }
        const results: Json[] = [];
        for (const operation of operations) {
          const one = await ctx.forward({ ...req, body: { operations: [operation] }, rawBody: JSON.stringify({ operations: [operation] }) });
          const entry = resultOf(one)?.results?.[0];
          if (entry) { results.push(entry); continue; }
          if (codeOf(one) !== 'VALIDATION_ERROR') { Object.assign(res, one); return; }
          results.push({ op: typeof operation.op === 'string' ? operation.op : JSON.stringify(operation.op ?? null), ok: false, error: (one.body as Json).error.message ?? 'invalid operation' });
        }
        applied(ctx);
        Object.assign(res, { status: 200, headers: { ...res.headers }, body: { result: { results } } });
      },
    ),
  };
}
const withoutBody = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'content-type'));

export const VARIANTS: Variant[] = [
  {
    id: 'validate-before-lookup', areas: ['errors', 'isolation', 'model'], allowedWarnings: [],
    description: 'the body is validated before the world or persona is looked up: an unknown id with an invalid body is 400 VALIDATION_ERROR',
    gap: 'Errors: both WORLD_NOT_FOUND (404) and VALIDATION_ERROR (400) apply; which comes first is not shown.',
    quietWhy: 'no check sends a body this deployment refuses to an unknown or foreign world or persona (ERR-1 and ISO-1 send bodies valid for its schemas)',
    ...validateFirstHooks(),
  },
  {
    id: 'malformed-json-bad-request', areas: ['errors'], allowedWarnings: ['ERR-6'],
    description: 'a body that is not JSON is answered 400 BAD_REQUEST instead of 400 VALIDATION_ERROR',
    gap: 'Errors: "`VALIDATION_ERROR` 400: request body failed schema validation"; a body that is not JSON at all is not named.',
    answer: (req, ctx) => {
      if (isDocument(req) || req.rawBody.trim() === '' || !/json/i.test(req.headers['content-type'] ?? '')) return undefined;
      try { JSON.parse(req.rawBody); return undefined; } catch { /* not JSON: this variant's answer */ }
      applied(ctx);
      return errorAnswer(400, 'BAD_REQUEST', 'the body is not JSON');
    },
    response: alsoCode400('BAD_REQUEST'),
  },
  {
    id: 'mutate-reports-bad-operations', areas: ['errors', 'simulation'], allowedWarnings: [],
    description: 'a batch mutation with a wrongly typed operation answers 200, that operation reported in its own result {op, ok: false, error}, the others applied',
    gap: 'Errors: "Inside a batch mutation, a failed operation is reported in its own result entry with `ok` false and an `error` string; the batch response itself remains a `result` envelope."',
    ...perOperationHooks(),
  },
];
