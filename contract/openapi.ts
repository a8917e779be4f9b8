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

/** Error codes an operation can answer, grouped by status. */
export function errorCodesOf(op: Operation): Map<number, ErrorCode[]> {
  const codes: ErrorCode[] = op.public ? [] : ['UNAUTHORIZED', 'ORIGIN_NOT_ALLOWED', 'RATE_LIMITED'];
  if (op.body || op.query || op.params) codes.push('VALIDATION_ERROR');
  if (op.body) codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
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
      list.push({ name, in: where, required: where === 'path' || required.has(name), schema: toDocumentSchema(s) });
    }
  }
  return list;
}

function responses(op: Operation): Json {
  const success = op.raw
    ? toDocumentSchema(op.result)
    : { type: 'object', required: ['result'], properties: { result: toDocumentSchema(op.result) } };
  const out: Json = {
    [op.status]: { description: op.summary, content: { 'application/json': { schema: success } } },
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
    if (status === 429) {
      response.headers = {
        'Retry-After': { description: 'Whole seconds to wait before the next request is accepted.', required: true, schema: { type: 'integer', minimum: 1 } },
      };
    }
    out[status] = response;
  }
  return out;
}

export function buildOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const entry: Json = {
      operationId: op.operationId,
      summary: op.summary,
      tags: [op.tag],
      'x-shape-source': op.shape,
      ...(op.billable ? { 'x-billable': true } : {}),
      ...(op.public ? { security: [] } : {}),
      parameters: parameters(op),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: toDocumentSchema(op.body) } } } } : {}),
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
      description: 'Generated from contract/ of the conformance suite. Choices made where SPEC.md is silent: docs/interface-choices.md.',
    },
    security: [{ ApiKey: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'mk_live_… (production) or mk_test_… (sandbox).' } },
      schemas,
    },
  };
}
