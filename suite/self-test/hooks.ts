// What proxy hooks are written with: recognising a request's operation, reading a response's result
// or error code, changing the results of some operations or the served document. Faults and legal
// variants are both written with these.
import { json, type FaultContext, type FaultHooks, type FaultRequest, type FaultResponse } from './proxy.ts';

export type Json = Record<string, any>;

export const is = (req: FaultRequest, ...operationIds: string[]) => req.operationId !== undefined && operationIds.includes(req.operationId);
export const is2xx = (res: FaultResponse) => res.status >= 200 && res.status < 300;
export const isObject = (x: unknown): x is Json => !!x && typeof x === 'object' && !Array.isArray(x);
/** The `result` of a 2xx JSON body, or undefined. */
export const resultOf = (res: FaultResponse): Json | undefined => {
  const body = res.body as Json | undefined;
  return is2xx(res) && isObject(body) && isObject(body.result) ? body.result : undefined;
};
export const codeOf = (res: FaultResponse): string | undefined => (res.body as Json | undefined)?.error?.code;
export const isDocument = (req: FaultRequest) => req.operationId === 'getOpenApi';
export const keyOf = (req: FaultRequest) => req.headers['x-api-key'];
/** An allowlist comparison gone wrong: an Origin of the restricted key that `match`es the allowed one is served as it. */
export const originMatchedBy = (match: (sent: string, allowed: string, req: FaultRequest) => boolean): FaultHooks['request'] => (req, ctx) => {
  const sent = req.headers.origin;
  const allowed = ctx.keys.allowedOrigin;
  if (sent && allowed && sent !== allowed && keyOf(req) === ctx.keys.originKey && match(sent, allowed, req)) req.headers.origin = allowed;
};
/** An error answer in the envelope of SPEC.md. */
export const errorAnswer = (status: number, code: string, message: string, headers: Record<string, string> = {}) => json(status, { error: { code, message } }, headers);

/** Changes the result of 2xx answers of some operations. */
export const onResult = (operationIds: string[], change: (result: Json, req: FaultRequest, ctx: FaultContext) => void): FaultHooks['response'] =>
  (res, req, ctx) => {
    const result = is(req, ...operationIds) ? resultOf(res) : undefined;
    if (result) change(result, req, ctx);
  };

/** Changes the served OpenAPI document, in place or by returning the one to serve instead. */
export const onDocument = (change: (doc: Json) => Json | void): FaultHooks['response'] => (res, req) => {
  if (isDocument(req) && res.status === 200 && isObject(res.body)) res.body = change(res.body) ?? res.body;
};

/** Runs several response hooks in turn. */
export const responses = (...hooks: Array<FaultHooks['response']>): FaultHooks['response'] => async (res, req, ctx) => {
  for (const h of hooks) await h?.(res, req, ctx);
};

/** Every operation object of a document, with its path and method. */
export function* operationsIn(doc: Json): Generator<{ path: string; method: string; op: Json }> {
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item ?? {})) if (isObject(op) && op.responses) yield { path, method, op };
  }
}

/** The operation of a document with this operationId. */
export const operationIn = (doc: Json, operationId: string): Json | undefined => {
  for (const { op } of operationsIn(doc)) if (op.operationId === operationId) return op;
  return undefined;
};

/** The JSON schema of one declared response of an operation. */
export const responseSchemaIn = (op: Json | undefined, status: string): Json | undefined => op?.responses?.[status]?.content?.['application/json']?.schema;

/** An error response declaration, as the reference's document writes them: the envelope with one code. */
export const errorResponse = (codes: string[], description: string) => ({
  description,
  content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/ErrorEnvelope' }, { properties: { error: { properties: { code: { enum: codes } } } } }] } } },
});

/** The codes an error response declaration allows (its enum), to change in place. */
export const declaredCodes = (response: Json | undefined): string[] | undefined => {
  const parts = response?.content?.['application/json']?.schema?.allOf;
  return Array.isArray(parts) ? parts.map((p: Json) => p?.properties?.error?.properties?.code?.enum).find(Array.isArray) : undefined;
};

/** Counts that the variant's choice made an answer (a variant never applied proves nothing). */
export const applied = (ctx: FaultContext, n = 1) => { ctx.state.set(APPLIED, ((ctx.state.get(APPLIED) as number | undefined) ?? 0) + n); };
export const APPLIED = 'applied';

/** Counts that a stack did what its entry is about (a refusal of its own): an entry whose stack never acted proves nothing. */
export const shown = (ctx: FaultContext, n = 1) => { ctx.state.set(SHOWN, ((ctx.state.get(SHOWN) as number | undefined) ?? 0) + n); };
export const SHOWN = 'shown';
