// Faults of the envelope (ENV-1..3, checked on every response): bodies unwrapped, errors outside the
// envelope, and a stack's refusal answered to a request without the property its status is about
// (suite/data/stack-limits.ts): only the envelope check can judge those as the service's answers.
import type { Fault } from '../faults.ts';
import { type FaultResponse, type Json, codeOf, isDocument, keyOf, resultOf } from './helpers.ts';

const html = (status: number, title: string): Pick<FaultResponse, 'status' | 'headers' | 'body'> => ({
  status, headers: { 'content-type': 'text/html' }, body: `<html><head><title>${status} ${title}</title></head><body><h1>${status} ${title}</h1></body></html>`,
});


export const FAULTS: Fault[] = [
  {
    id: 'env-result-unwrapped', areas: ['worlds'], expected: ['ENV-1'],
    description: '2xx bodies come without the `result` wrapper',
    response: (res, req) => { const r = isDocument(req) ? undefined : resultOf(res); if (r) res.body = r; },
  },
  {
    id: 'env-error-without-code', areas: ['errors'], expected: ['ENV-2'],
    description: 'error bodies lose error.code',
    response: (res) => { if (res.status >= 400 && codeOf(res) !== undefined) delete (res.body as Json).error.code; },
  },
  {
    id: 'malformed-error-outside-envelope', areas: ['generated'], expected: ['ENV-2', 'ENV-3'],
    description: 'a body that is not JSON is answered by the HTTP layer: 400 text/html outside the error envelope',
    answer: (req) => (typeof req.body === 'string' && /json/.test(req.headers['content-type'] ?? '')
      ? { status: 400, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>400 Bad Request</h1></body></html>' } : undefined),
  },
  {
    id: 'stack-431-to-blocked-origins', areas: ['auth'], only: ['AUTH-4'], expected: ['ENV-2'],
    description: 'a request of the origin-restricted key from another origin is answered 431 with no body (a stack\'s "headers too large" to a request of a few hundred bytes)',
    answer(req, ctx) {
      const origin = req.headers.origin;
      if (!origin || origin === ctx.keys.allowedOrigin || keyOf(req) !== ctx.keys.originKey) return undefined;
      return { status: 431, headers: {}, body: undefined };
    },
  },
  {
    id: 'stack-413-414-to-small-requests', areas: ['generated'], expected: ['ENV-2', 'ENV-3'],
    description: 'the service\'s 4xx answers become a stack\'s pages: 413 to a body within 8 KiB, 414 to a request line within 4 KiB',
    response(res, req) {
      if (res.status < 400 || res.status >= 500) return;
      const body = Buffer.byteLength(req.rawBody);
      const line = req.path.length + req.query.toString().length;
      const page = body > 0 && body <= 8 * 1024 ? html(413, 'Request Entity Too Large') : body === 0 && line < 2_000 ? html(414, 'Request-URI Too Large') : undefined;
      if (page) Object.assign(res, page);
    },
  },
  {
    id: 'env-text-plain', areas: ['worlds'], expected: ['ENV-3'],
    description: 'JSON bodies are labelled text/plain',
    response: (res, req) => { if (!isDocument(req) && res.body !== undefined) res.headers['content-type'] = 'text/plain; charset=utf-8'; },
  },
];
