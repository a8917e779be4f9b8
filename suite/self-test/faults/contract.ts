// Faults of the contract (CONTRACT-1, CONTRACT-2): answers and served document that break the schemas
// SPEC.md gives. Faults that break one requirement's member and CONTRACT-1 with it are in that area's file.
import type { Fault } from '../faults.ts';
import { isObject, onDocument, onResult, responses, unrequire } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'chat-intensity-string', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'chat response.discrete.intensity is a string',
    response: onResult(['chat'], (r) => { if (r.response?.discrete) r.response.discrete.intensity = String(r.response.discrete.intensity); }),
  },
  {
    id: 'query-space-extra-member', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'query answers spaces with an extra member (Space is closed)',
    response: onResult(['queryWorld'], (r) => { for (const s of Array.isArray(r.spaces) ? r.spaces : []) s.floor = 3; }),
  },
  {
    id: 'query-entities-without-spaceId', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'query answers entities without spaceId (its served document does not mark it required)',
    response: responses(
      onResult(['queryWorld'], (r) => { for (const e of Array.isArray(r.entities) ? r.entities : []) if (isObject(e)) delete e.spaceId; }),
      unrequire({ Entity: ['spaceId'] }),
    ),
  },
  {
    id: 'served-document-broken-promise', areas: ['worlds'], expected: ['CONTRACT-2'],
    description: 'the served /openapi.json declares World.engineVersion a number; the deployment answers a string',
    response: onDocument((doc) => { const w = doc.components?.schemas?.World; if (w?.properties?.engineVersion) w.properties.engineVersion = { type: 'number' }; }),
  },
];
