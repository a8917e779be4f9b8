// The machine-readable description and versioning: served, valid, complete, unversioned paths.
import { describe, expect } from 'vitest';
import { loadOpenApi } from '../contract/openapi-loader.ts';
import { check, api, excerpt } from './support/index.ts';
import { documents } from '../suite/checks/documents.ts';

const client = api();

describe('GET /openapi.json', () => {
  check('OAS-1', 'answers a valid OpenAPI description', async () => {
    const reply = await client.call('getOpenApi');
    expect(reply.status, excerpt(reply.text, 200)).toBe(200);
    expect(typeof reply.body.openapi, 'the document has no openapi version').toBe('string');
    // Read as every check reads it: same-document references only (a reference to a file or a URL
    // fails here, and nothing is read), bounded, against the OpenAPI meta-schema as written.
    expect((await loadOpenApi(reply.body)).problems, 'the document cannot be used').toEqual([]);
  });

  check('OAS-2', 'describes every operation of SPEC.md', () => {
    const { bundled, served } = documents();
    // Not the document's own route: SPEC.md states it apart from the endpoint tables, and FastAPI,
    // springdoc, NestJS and @fastify/swagger leave it out of the document they serve.
    const missing = bundled.operations().filter((op) => op.operationId !== 'getOpenApi' && !served.operationAt(op.method, op.path)).map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(missing, 'operations of SPEC.md missing from the served description').toEqual([]);
  });

  check('OAS-3', 'has no version segment in its paths', () => {
    const versioned = documents().served.paths().filter((p) => /^\/v\d+(\/|$)/i.test(p));
    expect(versioned).toEqual([]);
  });
});
