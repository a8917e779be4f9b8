// Faults that look like an HTTP stack's refusal but answer a request without the property the status
// is about (suite/data/stack-limits.ts): a 431 with no body to a 146-byte GET, a 413 page to a 13-byte
// body, a 414 page to a short URL. Where a check accepts any refusal (the origin near misses, generated
// requests) only the envelope check can see them: it must judge them as the service's answers.
import type { Fault } from '../faults.ts';
import type { FaultResponse } from '../proxy.ts';
import { keyOf } from '../hooks.ts';

const html = (status: number, title: string): Pick<FaultResponse, 'status' | 'headers' | 'body'> => ({
  status, headers: { 'content-type': 'text/html' }, body: `<html><head><title>${status} ${title}</title></head><body><h1>${status} ${title}</h1></body></html>`,
});

export const STACK_FAULTS: Fault[] = [
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
    id: 'stack-404-page-to-encoded-slash', areas: ['errors'], only: ['ERR-11', 'ERR-12'], expected: ['ERR-12'],
    description: 'a stack in front answers its own 404 HTML page to every path holding %2F, as Apache httpd does by default (AllowEncodedSlashes Off): the service never sees them',
    answer: (req) => (/%2F/i.test(req.path) ? { ...html(404, 'Not Found'), headers: { 'content-type': 'text/html; charset=iso-8859-1', server: 'Apache/2.4.71 (Debian)' } } : undefined),
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
];
