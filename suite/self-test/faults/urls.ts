// Faults in the answers to malformed URLs on the routes with ids (ERR-11, ERR-12): an id
// holding an encoded slash, a dot segment or an encoded control character. Each is the service's own
// answer, not a stack's: the URLs every stock stack passes to it (a dot segment, a control character
// behind anything but lighttpd) show it, whatever page a stack might have made of the others.
import type { Fault } from '../faults.ts';
import { isDocument } from '../hooks.ts';
import { json, type FaultRequest } from '../proxy.ts';

/** A request whose path holds an encoded slash, an encoded control character or a dot segment. */
const malformed = (req: FaultRequest) => !isDocument(req)
  && (/%2F|%[01][0-9A-F]|%7F/i.test(req.path) || req.path.split('/').some((s) => s === '..' || s === '.'));

export const FAULTS: Fault[] = [
  {
    id: 'malformed-url-plain-text-404', areas: ['errors'], only: ['ERR-11', 'ERR-12'], expected: ['ERR-11'],
    description: 'the service answers a framework\'s plain-text 404 ("404 page not found", text/plain) to a path holding an encoded slash, a dot segment or an encoded control character',
    answer: (req) => (malformed(req) ? { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: '404 page not found\n' } : undefined),
  },
  {
    id: 'malformed-url-framework-detail', areas: ['errors'], only: ['ERR-11', 'ERR-12'], expected: ['ERR-11'],
    description: 'the service answers a framework\'s default 404 {"detail": "Not Found"} to a path holding an encoded slash, a dot segment or an encoded control character',
    answer: (req) => (malformed(req) ? json(404, { detail: 'Not Found' }) : undefined),
  },
  {
    id: 'malformed-id-validation-error', areas: ['errors'], only: ['ERR-11'], expected: ['ERR-11'],
    description: 'an id holding an encoded control character is refused 400 VALIDATION_ERROR (the envelope, not the not-found code of the world or persona)',
    answer: (req) => (/%[01][0-9A-F]|%7F/i.test(req.path) && !isDocument(req) ? json(400, { error: { code: 'VALIDATION_ERROR', message: 'fault: the id holds a control character' } }) : undefined),
  },
  {
    id: 'stack-404-page-to-encoded-slash', areas: ['errors'], only: ['ERR-11', 'ERR-12'], expected: ['ERR-12'],
    description: 'a stack in front answers its own 404 HTML page to every path holding %2F, as Apache httpd does by default (AllowEncodedSlashes Off): the service never sees them',
    answer: (req) => (/%2F/i.test(req.path)
      ? { status: 404, headers: { 'content-type': 'text/html; charset=iso-8859-1', server: 'Apache/2.4.71 (Debian)' }, body: '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>' } : undefined),
  },
];
