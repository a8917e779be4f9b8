// Faults of tenant isolation (ISO-1..3).
import type { Fault } from '../faults.ts';
import { type Json, idSet, is, isDocument, keyOf, resultOf, trackDeletes } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'other-tenant-world-served', areas: ['isolation'], expected: ['ISO-1'],
    description: "the second tenant's requests on /worlds/{id}… are served as the main tenant (another tenant's world served and changed)",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.path.startsWith('/worlds/')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'other-tenant-restores-deleted', areas: ['isolation'], only: ['ISO-1', 'ISO-3'], expected: ['ISO-1', 'ISO-3'],
    description: "Resources (a world belongs to a tenant): the tenant is not checked on soft-deleted records; another tenant's read or restore of a soft-deleted world or persona is served as its owner's",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.params.id && idSet(ctx, 'deleted').has(req.params.id)) req.headers['x-api-key'] = ctx.keys.mainKey; },
    response: trackDeletes,
  },
  {
    id: 'other-tenant-worlds-listed', areas: ['isolation'], expected: ['ISO-2'],
    description: "GET /worlds with the second tenant's key lists the main tenant's worlds",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && is(req, 'listWorlds')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'other-tenant-persona-served', areas: ['isolation'], expected: ['ISO-3'],
    description: "the second tenant's persona requests are served as the main tenant",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && req.path.startsWith('/personas')) req.headers['x-api-key'] = ctx.keys.mainKey; },
  },
  {
    id: 'personas-listed-elsewhere-with-a-foreign-one', areas: ['isolation'], expected: ['ISO-3'],
    description: "GET /personas lists under `items` (its document says so), and the second tenant's list holds the main tenant's personas",
    request: (req, ctx) => { if (keyOf(req) === ctx.keys.secondKey && is(req, 'listPersonas')) req.headers['x-api-key'] = ctx.keys.mainKey; },
    response: (res, req) => {
      const result = is(req, 'listPersonas') ? resultOf(res) : undefined;
      if (result && Array.isArray(result.personas)) { result.items = result.personas; delete result.personas; }
      if (isDocument(req) && res.status === 200 && res.body && typeof res.body === 'object') {
        const schema = (res.body as Json).paths?.['/personas']?.get?.responses?.['200']?.content?.['application/json']?.schema?.properties?.result;
        if (schema?.properties?.personas) { schema.properties.items = schema.properties.personas; delete schema.properties.personas; schema.required = ['items']; }
      }
    },
  },
];
