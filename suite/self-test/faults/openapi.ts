// Faults of the served OpenAPI description (OAS-1..3).
import type { Fault } from '../faults.ts';
import { isDocument, json, onDocument } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'openapi-invalid', areas: ['openapi'], expected: ['OAS-1'],
    description: 'the served /openapi.json has no info (not a valid OpenAPI document)',
    response: onDocument((doc) => { delete doc.info; }),
  },
  {
    id: 'no-openapi-document', areas: ['openapi', 'worlds'], expected: ['OAS-1'],
    description: 'GET /openapi.json answers 404: the run goes on against the SPEC contract and fails OAS-1',
    answer: (req) => (isDocument(req) ? json(404, { error: { code: 'NOT_FOUND', message: 'fault: no document' } }) : undefined),
  },
  {
    // A SHOULD alone catches it (a run without --strict warns): the openapi area sends no time-jump for CONTRACT-2 to judge.
    id: 'openapi-path-missing', areas: ['openapi'], expected: ['OAS-2'],
    description: 'the served /openapi.json lacks POST /worlds/{id}/time-jump',
    response: onDocument((doc) => { delete doc.paths?.['/worlds/{id}/time-jump']; }),
  },
  {
    id: 'openapi-versioned-paths', areas: ['openapi'], expected: ['OAS-3'],
    description: 'the served /openapi.json puts every path under /v1',
    response: onDocument((doc) => { doc.paths = Object.fromEntries(Object.entries(doc.paths ?? {}).map(([p, v]) => [`/v1${p}`, v])); }),
  },
];
