// Builds the OpenAPI 3.1 document from the operation table and the components. Written out rather
// than taken from @fastify/swagger so that the same document comes out with or without a server
// (the bundled contract, the fixtures and the suite all read it) and is byte-stable for the snapshot.
import { COMPONENTS } from './components.ts';
import { OPERATIONS, type Operation } from './operations.ts';
import { ERROR_CODES, type ErrorCode } from './errors.ts';
import { mapSchema } from './kit.ts';

export const CONTRACT_VERSION = '1.0.0';
const REF_PREFIX = '#/components/schemas/';
type Json = Record<string, unknown>;

/** JSON Schema as it must appear in the document: $ref to components, no $id, no TypeBox markers. */
export function toDocumentSchema(node: unknown): unknown {
  return mapSchema(node, {
    keep: (k) => k !== '$id' && !k.startsWith('~'),
    ref: (r) => (r.startsWith('#') ? r : REF_PREFIX + r),
  });
}

/** POSTs that only read (a query, a context, a prompt): they store nothing, so no quota applies. */
const READS_BY_POST = new Set(['queryWorld', 'worldContext', 'promptContext']);
const storesMore = (op: Operation) =>
  !op.public && (op.method === 'POST' || op.method === 'PUT' || op.method === 'PATCH') && !READS_BY_POST.has(op.operationId);

/** Error codes an operation can answer, grouped by status. */
export function errorCodesOf(op: Operation): Map<number, ErrorCode[]> {
  const codes: ErrorCode[] = op.public ? [] : ['UNAUTHORIZED', 'ORIGIN_NOT_ALLOWED', 'RATE_LIMITED'];
  if (op.body || op.query || op.params) codes.push('VALIDATION_ERROR');
  // What the HTTP layer refuses before any operation runs (malformed request, no Host): any route.
  codes.push('BAD_REQUEST');
  // Any request may carry a body, and it is read (and may be refused) before the route knows it takes none.
  codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  // Every operation that may store more (a create, a restore, a change of a world or persona).
  if (storesMore(op)) codes.push('QUOTA_EXCEEDED');
  codes.push(...op.errors);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return byStatus;
}

function parameters(op: Operation): Json[] {
  const list: Json[] = [];
  for (const [where, schema] of [['path', op.params], ['query', op.query]] as const) {
    const props = (schema?.properties ?? {}) as Json;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, s] of Object.entries(props)) {
      const { description, examples } = s as { description?: string; examples?: unknown[] };
      list.push({
        name, in: where, required: where === 'path' || required.has(name),
        ...(description ? { description } : {}), ...(examples?.length ? { example: examples[0] } : {}),
        schema: toDocumentSchema(s),
      });
    }
  }
  return list;
}

/** Headers of the rate limiter, sent on every answer to a request whose key was accepted. */
const RATE_LIMIT_HEADERS: Json = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};
const HEADERS: Json = {
  'X-RateLimit-Limit': { description: 'Requests this key may make in the current window (its plan\'s per-minute limit).', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'Requests left to this key in the current window.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'Seconds until the current window ends and the budget is whole again.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Whole seconds to wait before the next request is accepted.', required: true, schema: { type: 'integer', minimum: 1 } },
};
/** Answers given before the key is accepted carry no rate-limit headers. */
const BEFORE_THE_KEY = new Set([401, 403]);

function responses(op: Operation): Json {
  const success = op.raw
    ? toDocumentSchema(op.result)
    : { type: 'object', required: ['result'], properties: { result: toDocumentSchema(op.result) } };
  const keyed = !op.public;
  const out: Json = {
    [op.status]: {
      description: op.summary,
      ...(keyed ? { headers: RATE_LIMIT_HEADERS } : {}),
      content: { 'application/json': { schema: success } },
      ...(op.links ? { links: op.links } : {}),
    },
  };
  for (const [status, codes] of [...errorCodesOf(op)].sort((a, b) => a[0] - b[0])) {
    const response: Json = {
      description: codes.map((c) => `${c}: ${ERROR_CODES[c].description}`).join(' '),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: REF_PREFIX + 'ErrorEnvelope' },
              { properties: { error: { properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
    if (keyed && !BEFORE_THE_KEY.has(status)) {
      response.headers = { ...RATE_LIMIT_HEADERS, ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}) };
    }
    out[status] = response;
  }
  // The HTTP layer's own refusals before any route runs (414 URI too long, 431 headers too large, 408):
  // in the envelope with BAD_REQUEST, and declared, so that a client's document covers every answer.
  out['4XX'] = {
    description: `BAD_REQUEST: ${ERROR_CODES.BAD_REQUEST.description} Also 408, 414 and 431 from the HTTP layer.`,
    content: { 'application/json': { schema: { allOf: [{ $ref: REF_PREFIX + 'ErrorEnvelope' }, { properties: { error: { properties: { code: { enum: ['BAD_REQUEST'] } } } } }] } } },
  };
  return out;
}

const TAG_DESCRIPTIONS: Record<Operation['tag'], string> = {
  worlds: 'Worlds: create, list, read, update, soft-delete and restore.',
  'world-simulation': 'What happens in a world: chat, events, time (tick, time-jump), queries, context for a language model, batch mutations, snapshots, the event log.',
  'world-personas': 'The persona entities of a world and their configurations.',
  'world-actions': 'Actions an entity can perform on a persona: the defaults, custom ones, and interact.',
  'world-relationships': 'World-level relationships of an entity toward a persona.',
  personas: 'Standalone personas, outside any world: create, list, read, update, soft-delete and restore.',
  'persona-runtime': 'The emotional life of a standalone persona: perceive, time, overrides, prompt context, state and snapshots.',
  meta: 'The interface itself.',
};

export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const entry: Json = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      'x-shape-source': op.shape,
      ...(op.billable ? { 'x-billable': true } : {}),
      ...(op.public ? { security: [] } : {}),
      parameters: parameters(op),
      ...(op.body ? {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toDocumentSchema(op.body), ...(op.example !== undefined ? { example: op.example } : {}) } },
        },
      } : {}),
      responses: responses(op),
    };
    if (!entry.parameters || (entry.parameters as Json[]).length === 0) delete entry.parameters;
    (paths[op.path] ??= {})[op.method.toLowerCase()] = entry;
  }
  const schemas = Object.fromEntries(COMPONENTS.map((c) => [c.$id!, toDocumentSchema(c)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Simulation Service: worlds and personas',
      version: CONTRACT_VERSION,
      description: 'Generated from contract/ of the conformance suite. Choices made where SPEC.md is silent: docs/interface-choices.md. '
        + 'Every error is answered as {"error": {"code", "message"}}; the codes an operation can answer are listed with each status.',
      contact: { name: 'Maintainers of the Simulation Service conformance suite' },
    },
    // A fixed address: swagger-parser's OpenAPI 3.1 schema refuses server variables. Another
    // deployment serving this document is reached at its own address; tools take a base URL.
    servers: [{ url: 'http://127.0.0.1:8080', description: 'The reference deployment as `npm run serve` starts it.' }],
    security: [{ ApiKey: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    components: {
      headers: HEADERS,
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'mk_live_… (production) or mk_test_… (sandbox).' } },
      schemas,
    },
  };
}
