// The helpers faults are written with, beside those of ../hooks.ts (re-exported here with the proxy's, so
// that a fault file imports from one place).
export * from '../hooks.ts';
export { json, operationOf, wait, type FaultContext, type FaultHooks, type FaultRequest, type FaultResponse } from '../proxy.ts';
import { REQUIREMENTS } from '../../../contract/requirements.ts';
import { type FaultContext, type FaultHooks, type FaultRequest, json, wait } from '../proxy.ts';
import { type Json, codeOf, is, is2xx, isDocument, isObject, keyOf, onDocument, resultOf } from '../hooks.ts';
import type { Fault } from '../faults.ts';

/** A success the deployment never produced: what a handler that does nothing would answer. */
export const okResult = (result: unknown = { ok: true }) => json(200, { result });

/** Rewrites the status of error responses with this code. */
export const statusFor = (code: string, status: number): FaultHooks['response'] => (res) => { if (codeOf(res) === code) res.status = status; };
/** Renames an error code. */
export const renameCode = (code: string, to: string): FaultHooks['response'] => (res) => { if (codeOf(res) === code) (res.body as Json).error.code = to; };
/** Changes the JSON body of some operations before it is forwarded. */
export const onBody = (operationIds: string[], change: (body: Json, req: FaultRequest) => void): FaultHooks['request'] => (req) => {
  if (is(req, ...operationIds) && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) change(req.body as Json, req);
};
/** Answers a success without forwarding: the operation does nothing. */
export const noop = (operationIds: string[], result: unknown = { ok: true }): FaultHooks['answer'] => (req) => (is(req, ...operationIds) ? okResult(result) : undefined);
/** Another request to the deployment, with the headers (key, origin) of the one being handled. */
export const forwardTo = (ctx: FaultContext, req: FaultRequest, method: string, path: string, body?: unknown) => {
  const headers = { ...req.headers };
  delete headers['content-type'];
  if (body !== undefined) headers['content-type'] = 'application/json';
  return ctx.forward({ ...req, method, path, query: new URLSearchParams(), headers, body, params: {}, operationId: undefined });
};
export const triggersOf = (body: Json): Json[] => (Array.isArray(body.definition?.progression?.triggers) ? body.definition.progression.triggers : []);

/** The set of ids kept under `name` in the proxy's memory. */
export const idSet = (ctx: FaultContext, name: string): Set<string> => {
  if (!ctx.state.has(name)) ctx.state.set(name, new Set<string>());
  return ctx.state.get(name) as Set<string>;
};
/** Keeps the ids the main tenant soft-deleted (and no longer once restored) under `deleted`, and those restored under `restored`. */
export const trackDeletes: FaultHooks['response'] = (res, req, ctx) => {
  const id = req.params.id;
  if (!id || !is2xx(res) || keyOf(req) !== ctx.keys.mainKey) return;
  if (is(req, 'deleteWorld', 'deletePersona')) { idSet(ctx, 'deleted').add(id); idSet(ctx, 'restored').delete(id); }
  if (is(req, 'restoreWorld', 'restorePersona')) { idSet(ctx, 'deleted').delete(id); idSet(ctx, 'restored').add(id); }
};
/** Whether a request names this word: as a path segment, a query value or key, or a key or string of its body. */
export function names(req: FaultRequest, word: string): boolean {
  if (req.path.split('/').some((s) => { try { return decodeURIComponent(s) === word; } catch { return false; } })) return true;
  if ([...req.query.entries()].some(([k, v]) => k === word || v === word)) return true;
  const stack: unknown[] = [req.body];
  while (stack.length) {
    const v = stack.pop();
    if (v === word) return true;
    if (typeof v === 'string' && v.includes(`"${word}"`)) return true;
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { if (k === word) return true; stack.push(x); }
  }
  return false;
}

export const MUST_IDS = REQUIREMENTS.filter((r) => r.level === 'MUST').map((r) => r.id);

/** A delay on every request (GET /openapi.json too, unless `documentToo` is false): the load tests use it for a slow target. */
export function slowFault(delayMs: number, options: { documentToo?: boolean; only?: (req: FaultRequest) => boolean } = {}): FaultHooks {
  return {
    async request(req, ctx) {
      if (options.documentToo === false && isDocument(req)) return;
      if (options.only && !options.only(req)) return;
      await wait(delayMs, ctx);
    },
  };
}

/** Answers every `n`th request (GET /openapi.json not counted) 503 without forwarding. */
export function flakyFault(n: number): FaultHooks {
  return {
    answer: (req) => (req.seq >= 0 && req.seq % n === n - 1 ? json(503, { error: { code: 'UNAVAILABLE', message: 'fault: temporarily unavailable' } }, { 'retry-after': '1' }) : undefined),
  };
}

/** Another request to the deployment, with the key of the one being handled. */
export const alsoSend = (ctx: FaultContext, req: FaultRequest, method: string, path: string, body?: unknown) =>
  ctx.forward({
    ...req, method, path, query: new URLSearchParams(), body, rawBody: body === undefined ? '' : JSON.stringify(body), params: {}, operationId: undefined,
    headers: { ...req.headers, 'content-type': body === undefined ? '' : 'application/json' },
  });

/** The served document no longer marks these members of these components required. */
export const unrequire = (members: Record<string, string[]>): FaultHooks['response'] => onDocument((doc) => {
  for (const [name, drop] of Object.entries(members)) {
    const schema = doc.components?.schemas?.[name];
    if (Array.isArray(schema?.required)) schema.required = schema.required.filter((m: string) => !drop.includes(m));
  }
});

/** An object with only the members SPEC.md lists for it: what a deployment closing an open object returns. */
export const keepOnly = (o: unknown, listed: readonly string[]) => {
  if (isObject(o)) for (const k of Object.keys(o)) if (!listed.includes(k)) delete o[k];
};
/** The ids of the worlds (or personas) the deployment made, as the proxy saw them answered. */
export const made = (ctx: FaultContext, kind: 'worlds' | 'personas'): Set<string> => {
  if (!ctx.state.has(kind)) ctx.state.set(kind, new Set<string>());
  return ctx.state.get(kind) as Set<string>;
};
export const remember: Fault['response'] = (res, req, ctx) => {
  const r = resultOf(res);
  if (is(req, 'createWorld') && typeof r?.worldId === 'string') made(ctx, 'worlds').add(r.worldId);
  if (is(req, 'createPersona') && typeof r?.personaId === 'string') made(ctx, 'personas').add(r.personaId);
};
