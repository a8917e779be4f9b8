// The machine-readable description and versioning: served, valid, complete, unversioned paths.
import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { api, config } from './support/index.ts';
import { routeKey } from '../contract/validate.ts';

const client = api();

describe('GET /openapi.json', () => {
  it('[OAS-1] answers a valid OpenAPI description', async () => {
    const reply = await client.call('getOpenApi');
    expect(reply.status, reply.text.slice(0, 200)).toBe(200);
    expect(typeof reply.body.openapi, 'the document has no openapi version').toBe('string');
    await expect(SwaggerParser.validate(structuredClone(reply.body))).resolves.toBeTruthy();
  });

  it('[OAS-2] describes every operation of SPEC.md', () => {
    const served = new Set<string>();
    for (const [path, item] of Object.entries<any>(config().servedDocument.paths ?? {})) for (const method of Object.keys(item)) served.add(routeKey(method, path));
    const missing: string[] = [];
    for (const [path, item] of Object.entries<any>(config().bundledDocument.paths)) {
      for (const method of Object.keys(item)) if (!served.has(routeKey(method, path))) missing.push(`${method.toUpperCase()} ${path}`);
    }
    expect(missing, 'operations of SPEC.md missing from the served description').toEqual([]);
  });

  it('[OAS-3] has no version segment in its paths', () => {
    const versioned = Object.keys(config().servedDocument.paths ?? {}).filter((p) => /^\/v\d+(\/|$)/i.test(p));
    expect(versioned).toEqual([]);
  });
});
