// Generated requests, one operation at a time, from both documents: the bundled contract's operations
// with the served document's request schema when it has one (its own promise), and the operations only
// the served document has. A request is plain data (what to send, and how it was broken), so that
// fast-check shrinks it and a report shows it; `resolve()` turns it into what the client sends.
import fc from 'fast-check';
import type { Documents } from '../checks/documents.ts';
import { routeKey } from '../../contract/openapi-reader.ts';
import { applyMutation, mutation, type Mutation } from '../bodies/near-miss.ts';
import { validOf } from '../bodies/valid.ts';
import { bodyText, nastyString, nastyValue } from '../bodies/values.ts';

type Json = Record<string, any>;

export interface GenOperation {
  operationId: string;
  method: string;
  path: string;
  /** The request body schema (served document first, then the bundled contract). */
  schema?: Json;
  /** Query parameters the documents declare, with their schemas. */
  query: Array<{ name: string; schema: Json }>;
  /** In the bundled contract (called by operationId; otherwise sent raw). */
  bundled: boolean;
}

/** What a path parameter is: the run's own resource (`own`) or a literal. */
export type Param = { own: true } | { own: false; value: string };

export type Variant = 'valid' | 'mutated' | 'malformed' | 'content-type' | 'long-url' | 'long-query' | 'unexpected-body';

export interface GenRequest {
  operationId: string;
  variant: Variant;
  params: Record<string, Param>;
  query?: Record<string, string>;
  /** The body before it was broken (RAW tokens allowed); undefined: no body. */
  body?: unknown;
  change?: Mutation;
  /** Replaces the body text (malformed JSON). */
  rawBody?: string;
  contentType?: string;
}

/** The run's own resources that `own` parameters name. */
export interface Owned { worldId: string; personaId: string; entity: string }

/** Operations the generator must not send: billable ones without --allow-billable. */
export function generatedOperations(docs: Documents, allowBillable: boolean): GenOperation[] {
  const out: GenOperation[] = [];
  const seen = new Set<string>();
  const queryOf = (spec: Json) => (Array.isArray(spec.parameters) ? spec.parameters : [])
    .filter((p: Json) => p?.in === 'query' && typeof p.name === 'string').map((p: Json) => ({ name: p.name as string, schema: (p.schema ?? {}) as Json }));
  for (const op of docs.bundled.operations()) {
    if (op.operationId === 'interact' && !allowBillable) continue;
    const served = docs.served.operationAt(op.method, op.path);
    seen.add(routeKey(op.method, op.path));
    out.push({
      operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, bundled: true,
      schema: (served && docs.served.requestSchema(served.operationId)) ?? docs.bundled.requestSchema(op.operationId),
      query: [...queryOf(op.spec), ...(served ? queryOf(served.spec) : [])],
    });
  }
  for (const op of docs.served.operations()) {
    if (seen.has(routeKey(op.method, op.path)) || /interact/.test(op.path) && !allowBillable) continue;
    out.push({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, bundled: false, schema: docs.served.requestSchema(op.operationId), query: queryOf(op.spec) });
  }
  return out;
}

const MALFORMED = ['{', '{"a":', '[', 'nul', '{"a":1}}', '{"a":1e}', '{"a":01}', "{'a':1}", '{"a":"\\x"}', '\u0000', '\ufeff{}', '{"a":NaN}', '{"a":Infinity}', '{"__proto__":'];
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=x-unknown', '*/*', 'application/vnd.api+json'];
/**
 * Lengths of the long URL and query: past what some stacks refuse (gunicorn's request line, 4,094
 * bytes), within what stock stacks accept (nginx: request line and headers within 8 KiB). Longer would
 * be refused before the service everywhere, and prove nothing of it (suite/data/stack-limits.ts).
 */
const LONG = [2_000, 6_000];
/**
 * The most a path parameter, a query name and a query value take once percent-encoded: two parameters
 * and three query members stay within 6,000 bytes, and every request line with its headers within
 * REQUEST_HEAD_MAX (test/conformance/generate.test.ts samples them).
 */
const PARAM_MAX = 1_000;
const QUERY_NAME_MAX = 300;
const QUERY_VALUE_MAX = 1_000;

/** Bytes a text takes in a URL, percent-encoded (an upper bound: as URLSearchParams encodes, a lone surrogate as U+FFFD). */
export function encodedLength(text: string): number {
  let n = 0;
  for (const ch of text) n += /^[A-Za-z0-9_.*-]$/.test(ch) ? 1 : 3 * Buffer.byteLength(ch);
  return n;
}
const fits = (max: number) => (s: string) => encodedLength(s) <= max;

/**
 * What every common front (nginx, Apache httpd, lighttpd, HAProxy, Caddy) passes to the service as
 * sent, measured on Debian's packages with their stock configuration (suite/self-test/stacks.ts):
 * lighttpd answers its own 400 page to a control character anywhere in the URL (decoded, the query
 * too) and to a GET that carries a body; Apache answers its own 404 page to a path holding %2F, lighttpd
 * decodes it; nginx refuses dot segments above the root, Apache and lighttpd resolve them
 * (`DELETE /personas/..%2F..` reaches the service as `DELETE /`). A generated request stays within:
 * the service, not its front, is what it is about.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export const passesStacks = {
  /** A path parameter: no control character, no slash (sent as %2F), not a dot segment. */
  param: (s: string) => !CONTROL.test(s) && !s.includes('/') && s !== '.' && s !== '..',
  /** A query name or value: no control character. */
  query: (s: string) => !CONTROL.test(s),
  /** A method that may carry a body: not GET, HEAD or DELETE. */
  body: (method: string) => !['GET', 'HEAD', 'DELETE'].includes(method.toUpperCase()),
};

/** A literal path parameter: missing ids, built-in names, unicode, long. */
const literalParam: fc.Arbitrary<Param> = fc.oneof(
  fc.constantFrom('nonexistent', '0', '-1', ' ').map((value) => ({ own: false as const, value })),
  nastyString.filter((s) => s.length > 0 && fits(PARAM_MAX)(s) && passesStacks.param(s)).map((value) => ({ own: false as const, value })),
);

/** Whether a request on this operation may name the run's own resource (not to delete it under the others). */
const mayUseOwn = (op: GenOperation, name: string) => !(name === 'id' && /^(DELETE \/(worlds|personas)\/\{id\}|POST \/(worlds|personas)\/\{id\}\/restore)$/.test(`${op.method} ${op.path}`));

function paramsOf(op: GenOperation): fc.Arbitrary<Record<string, Param>> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return fc.record(Object.fromEntries(names.map((n) => [n, mayUseOwn(op, n)
    ? fc.oneof({ arbitrary: fc.constant<Param>({ own: true }), weight: 6 }, { arbitrary: literalParam, weight: 1 })
    : literalParam])));
}

function queryOf(op: GenOperation): fc.Arbitrary<Record<string, string> | undefined> {
  const value = nastyString.filter((s) => fits(QUERY_VALUE_MAX)(s) && passesStacks.query(s));
  const declared = op.query.map(({ name, schema }) => fc.tuple(fc.constant(name), fc.oneof(validOf(schema).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).filter((s) => fits(QUERY_VALUE_MAX)(s) && passesStacks.query(s)), value)));
  return fc.option(fc.array(fc.oneof(...declared, fc.tuple(nastyString.filter((s) => s.length > 0 && fits(QUERY_NAME_MAX)(s) && passesStacks.query(s)), value)), { minLength: 1, maxLength: 3 })
    .map((pairs) => Object.fromEntries(pairs)), { nil: undefined, freq: 3 });
}

/** Requests for one operation: valid ones and broken ones in each way. */
export function requestsFor(op: GenOperation): fc.Arbitrary<GenRequest> {
  const base = fc.record({ params: paramsOf(op), query: queryOf(op) });
  // A GET, HEAD or DELETE goes without a body, whatever a document declares (lighttpd refuses a GET with one).
  const schema = passesStacks.body(op.method) ? op.schema : undefined;
  const body = schema ? validOf(schema) : fc.constant(undefined);
  const variants: Array<{ arbitrary: fc.Arbitrary<GenRequest>; weight: number }> = [
    { weight: 3, arbitrary: fc.tuple(base, body).map(([b, v]) => ({ operationId: op.operationId, variant: 'valid' as const, ...b, body: v })) },
    // The long member alone: the length is the request's, not added to a generated query's.
    { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...LONG)).map(([b, n]) => ({ operationId: op.operationId, variant: 'long-query' as const, ...b, query: { q: 'x'.repeat(n) } })) },
    // The length shared by the path parameters, without a query.
    { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...LONG)).map(([b, n]) => ({ operationId: op.operationId, variant: 'long-url' as const, ...b, query: undefined, params: Object.fromEntries(Object.keys(b.params).map((k, _i, all) => [k, { own: false as const, value: 'x'.repeat(Math.floor(n / all.length)) }])) })) },
  ];
  if (schema) {
    variants.push(
      { weight: 6, arbitrary: fc.tuple(base, body, mutation).map(([b, v, change]) => ({ operationId: op.operationId, variant: 'mutated' as const, ...b, body: v, change })) },
      { weight: 1, arbitrary: fc.tuple(base, fc.constantFrom(...MALFORMED)).map(([b, rawBody]) => ({ operationId: op.operationId, variant: 'malformed' as const, ...b, rawBody })) },
      { weight: 1, arbitrary: fc.tuple(base, body, fc.constantFrom(...CONTENT_TYPES)).map(([b, v, contentType]) => ({ operationId: op.operationId, variant: 'content-type' as const, ...b, body: v, contentType })) },
    );
  } else if (passesStacks.body(op.method)) {
    variants.push({ weight: 1, arbitrary: fc.tuple(base, nastyValue).map(([b, v]) => ({ operationId: op.operationId, variant: 'unexpected-body' as const, ...b, body: v })) });
  }
  return fc.oneof(...variants);
}

/** Requests for every operation, each as likely. */
export function anyRequest(ops: GenOperation[]): fc.Arbitrary<GenRequest> {
  return fc.oneof(...ops.map(requestsFor));
}

export interface Resolved {
  operationId?: string;
  method: string;
  /** Path with the parameters put in, for raw sending. */
  url: string;
  params: Record<string, string>;
  query?: Record<string, string>;
  bodyText?: string;
  headers: Record<string, string>;
  /** Where the body was broken (a path in it), when it was. */
  where?: string;
}

/** What the client sends for a generated request. */
export function resolve(req: GenRequest, op: GenOperation, owned: Owned): Resolved {
  const params = Object.fromEntries(Object.entries(req.params).map(([name, p]) => [name, p.own ? ownValue(name, op.path, owned) : p.value]));
  let where: string | undefined;
  let text: string | undefined;
  if (req.rawBody !== undefined) text = req.rawBody;
  else if (req.body !== undefined || req.change) {
    const broken = req.change ? applyMutation(req.body, req.change) : { value: req.body, where: undefined };
    where = broken.where;
    text = broken.value === undefined ? undefined : bodyText(broken.value);
  }
  let wellFormed = true;
  const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name] ?? '';
    try { return encodeURIComponent(value); } catch { wellFormed = false; return wtf8(value); }
  });
  return {
    // A parameter with a lone surrogate cannot go through the client's encoding: it is sent raw, as bytes.
    operationId: op.bundled && wellFormed ? op.operationId : undefined, method: op.method, url, params, query: req.query, bodyText: text, where,
    headers: req.contentType ? { 'content-type': req.contentType } : {},
  };
}

/** Percent-encodes every UTF-16 code unit, lone surrogates too (as the three bytes WTF-8 gives them). */
function wtf8(value: string): string {
  return [...value].map((ch) => {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    return encodeURIComponent(ch);
  }).join('');
}

function ownValue(name: string, path: string, owned: Owned): string {
  if (name === 'id') return path.startsWith('/personas') ? owned.personaId : owned.worldId;
  if (name === 'pid') return owned.entity;
  return 'x';
}

/** One line that says what a generated request is: method, path, how it was broken, and its body's start. */
export function describeRequest(req: GenRequest, r: Resolved): string {
  const how = req.variant === 'mutated' && req.change ? `${req.change.kind} at ${r.where}` : req.variant === 'content-type' ? `Content-Type ${req.contentType}` : req.variant;
  const query = r.query ? `?${new URLSearchParams(r.query)}` : '';
  const body = r.bodyText === undefined ? '' : ` body (${r.bodyText.length} bytes): ${short(r.bodyText)}`;
  return `${r.method} ${short(r.url + query, 200)} [${how}]${body}`;
}

/** A text cut for a report line, runs of one character written once with their count (`‹[×5000›`, `‹x×100000›`). */
export function short(text: string, max = 300): string {
  const runs = text.replace(/([^])\1{15,}/g, (run, unit: string) => `‹${unit}×${run.length}›`);
  return runs.length > max ? `${runs.slice(0, max)}…` : runs;
}
