// The JSON body parser of the reference, in place of Fastify's: it reads the bytes itself so that
//  - a charset other than UTF-8 is refused (415) instead of being decoded as UTF-8 regardless;
//  - bytes that are not valid UTF-8 are refused (400) instead of becoming U+FFFD and being stored;
//  - nesting deeper than MAX_JSON_DEPTH is refused (400) before anything walks the value
//    recursively (validation, merge, the store's copies), where it would overflow the stack (500);
//  - an empty body is accepted by an operation that takes none (many clients send
//    `Content-Type: application/json` on every request, DELETE included), refused (400) elsewhere.
// Parsing itself is Fastify's (secure-json-parse), with the same poisoning policy as the server.
import type { FastifyRequest } from 'fastify';
import { ApiError, type AnyFastifyInstance } from './errors.ts';

/**
 * A body this large is decoded, parsed, validated and stored in milliseconds, not microseconds: its
 * steps run in turns of the event loop of their own, so that other tenants' requests go on between
 * (server/admission.ts gives a tenant one such body at a time).
 */
export const LARGE_BODY = 64 * 1024;

const largeBodies = new WeakSet<FastifyRequest>();
/** Whether the request's body was over LARGE_BODY bytes: its later steps give way too (server/admission.ts). */
export const hadLargeBody = (request: FastifyRequest) => largeBodies.has(request);

/** Resolves in a later turn of the event loop, after the I/O that is waiting (setImmediate runs after the poll phase). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Levels of objects and arrays a body may nest, the body itself included. */
export const MAX_JSON_DEPTH = 64;

const UTF8 = new Set(['utf-8', 'utf8']);
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The charset parameter of a Content-Type header, lower-cased and unquoted, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  for (const part of (contentType ?? '').split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    return part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

/** Whether text holds more than `limit` of `{` and `[` in all (a native search: a text of long strings has few). */
function opensExceed(text: string, limit: number): boolean {
  let n = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) if (++n > limit) return true;
  }
  return false;
}

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count). */
export function nestingExceeds(text: string, limit: number): boolean {
  // Nesting deeper than the limit needs more opening brackets than it: most bodies are done here.
  if (!opensExceed(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) { if (++depth > limit) return true; }
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const invalid = (message: string) => new ApiError(400, 'VALIDATION_ERROR', message);

export function registerJsonBody(app: AnyFastifyInstance): void {
  const parse = app.getDefaultJsonParser('ignore', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request: FastifyRequest, raw: Buffer, done) => {
    if (raw.length > LARGE_BODY) {
      largeBodies.add(request);
      setImmediate(() => decodeAndParse(request, raw, done, true));
    } else decodeAndParse(request, raw, done, false);
  });

  function decodeAndParse(request: FastifyRequest, raw: Buffer, done: (err: Error | null, body?: unknown) => void, large: boolean): void {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && !UTF8.has(charset)) {
      done(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Request body must be JSON in UTF-8; charset '${charset.slice(0, 40)}' is not supported`));
      return;
    }
    if (raw.length === 0) {
      if (request.routeOptions.schema?.body) done(invalid('Request body is empty but Content-Type is application/json'));
      else done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(raw);
    } catch {
      done(invalid('Request body is not valid UTF-8'));
      return;
    }
    if (nestingExceeds(text, MAX_JSON_DEPTH)) {
      done(invalid(`Request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels`));
      return;
    }
    if (large) setImmediate(() => parse(request, text, done));
    else parse(request, text, done);
  }
}

