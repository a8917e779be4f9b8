// Error policy of the reference deployment: one envelope, one table of codes, and the
// Fastify options and handlers that make every failure path end up in that envelope.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
// Types only: brings @fastify/swagger's `schema.hide` into FastifySchema.
import type {} from '@fastify/swagger';
import { registerJsonBody } from './json-body.ts';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Any Fastify instance, whatever its type provider or logger (a TypeBox app is not assignable to the default one). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFastifyInstance = FastifyInstance<any, any, any, any, any>;

// The table of codes lives in the contract (the OpenAPI responses are generated from it).
export { ERROR_CODES, type ErrorCode } from '../../contract/errors.ts';

/** The body of every error response. */
export interface ErrorEnvelope {
  error: { code: string; message: string };
}

/** An error meant for the client: its status, code and message are sent as they are. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  /** Extra response headers (e.g. Retry-After, Allow) the error handler must set. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(statusCode: number, code: string, message: string, options: { headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.headers = options.headers ?? {};
  }
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Time a client has to send a whole request (headers and body); then 408 and the socket is closed. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The Fastify constructor options this error policy relies on. Spread them and add your own:
 * `Fastify({ ...fastifyServerOptions(), logger: true })`.
 */
export function fastifyServerOptions(opts: { bodyLimit?: number; requestTimeoutMs?: number } = {}): FastifyServerOptions {
  const requestTimeout = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return {
    bodyLimit: opts.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Fastify turns Node's request timeout off by default: a client sending its body a byte at a
    // time would hold its socket for ever. Headers get the same time (Node wants headersTimeout ≤
    // requestTimeout); Node checks both every connectionsCheckingInterval, hence a finer one.
    requestTimeout,
    // Node answers a request without Host with an empty 400 of its own; the hook of
    // registerErrorHandling answers it in the envelope instead.
    ...({ http: { headersTimeout: requestTimeout, connectionsCheckingInterval: Math.min(30_000, Math.max(100, requestTimeout / 4)), requireHostHeader: false } } as object),
    // Errors Node's HTTP parser raises before Fastify sees a request (malformed HTTP, headers or URL
    // over 16 KB, timeouts) get the envelope too, not Fastify's own body.
    clientErrorHandler,
    // A member named `__proto__` is data like any other: JSON.parse makes it an own member (it never
    // sets a prototype), closed objects refuse it as an unknown member, and the maps keyed by a
    // client's name read and write own members only (reference/engine/keyed.ts). Refusing it here
    // would make a world whose persona met an entity named `__proto__` impossible to import from its
    // own export. `constructor.prototype` is still refused: no export holds it, and a library that
    // walks `x.constructor.prototype` must never meet a client's object there.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'error',
    // Errors raised by the router before any route or hook runs (undecodable URL, over-long
    // param) never reach setErrorHandler; without this they get Fastify's own body.
    frameworkErrors: (error, request, reply) => {
      replyWithError(error, request as FastifyRequest, reply as FastifyReply);
    },
    ajv: {
      customOptions: {
        // Fastify's defaults (removeAdditional, coerceTypes 'array', useDefaults) silently rewrite
        // the request; the interface wants unknown members of closed objects REJECTED and types exact.
        // Consequence: querystring/params values are strings, declare them as strings.
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        // First error only: allErrors is a known DoS vector and one precise message is enough.
        allErrors: false,
      },
    },
  };
}

/** What a client error of Node's HTTP parser is answered with. */
export function classifyClientError(error: { code?: string }): { status: number; message: string } {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request line and headers exceed 16 KB' };
    default:
      return { status: 400, message: `Malformed HTTP request (${String(error.code ?? 'parse error').slice(0, 60)})` };
  }
}

function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, message } = classifyClientError(error);
    const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message } } satisfies ErrorEnvelope);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy();
}

function send(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  const body: ErrorEnvelope = { error: { code, message } };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** `body/definition/identity/name must be string`: location, JSON path of the member, problem. */
export function describeValidationIssue(context: string, issue: ValidationIssue): string {
  const at = `${context}${issue.instancePath ?? ''}`;
  const params = issue.params ?? {};
  // Ajv reports these two at the parent object; name the member itself instead.
  if (issue.keyword === 'required' && typeof params.missingProperty === 'string') {
    return `${at}/${params.missingProperty} is required`;
  }
  if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `${at}/${params.additionalProperty} is not an allowed member`;
  }
  return `${at} ${issue.message ?? 'is invalid'}`;
}

interface Classified {
  status: number;
  code: string;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

/** The whole error policy in one place: which status, code and message the client gets for `error`. */
export function classifyError(error: FastifyError): Classified {
  if (error instanceof ApiError) {
    return { status: error.statusCode, code: error.code, message: error.message, headers: error.headers };
  }
  if (Array.isArray(error.validation) && error.validation.length > 0) {
    const context = error.validationContext ?? 'request';
    return { status: 400, code: 'VALIDATION_ERROR', message: describeValidationIssue(context, error.validation[0]) };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'Request body is empty but Content-Type is application/json',
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      // Fastify raises the same error for malformed JSON and for a constructor.prototype member
      // (secure-json-parse throws, the parser swallows which one), so name both.
      return {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'Request body is not valid JSON, or contains a forbidden "constructor.prototype" member',
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than the allowed limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request body must be sent as application/json' };
  }
  const status = error.statusCode;
  if (status === 429) {
    // Only reached if a limiter without our errorResponseBuilder is in use; its headers are already set.
    return {
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded; retry after the number of seconds in Retry-After',
    };
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, code: 'BAD_REQUEST', message: error.message };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An internal error occurred' };
}

function replyWithError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, code, message, headers } = classifyError(error);
  // A 500 is our fault: log the real error, the client only gets the generic message.
  if (status >= 500) request.log.error({ err: error }, 'unhandled error');
  for (const [name, value] of Object.entries(headers ?? {})) reply.header(name, value);
  return send(reply, status, code, message);
}

/**
 * Bytes of a refused body the server still reads (and discards) before answering 413. Fastify answers
 * at once and closes the socket, and a client still sending then meets a reset (EPIPE, ECONNRESET)
 * instead of the answer (issue 26: snapshots of 4 MB and more). Reading the rest first lets every
 * client read its 413; past this many bytes (or Content-Length announcing more) it is answered at once.
 */
export const DRAIN_LIMIT = 64 * 1024 * 1024;

/** Resolves once the request's body has been read to its end (discarded), or DRAIN_LIMIT is passed. */
export function drainBody(raw: IncomingMessage, limit = DRAIN_LIMIT): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete || raw.readableEnded || raw.destroyed || Number(raw.headers['content-length']) > limit) return resolve();
    let seen = 0;
    const done = () => {
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('error', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) done();
    };
    raw.on('data', onData);
    raw.on('end', done);
    raw.on('error', done);
    raw.on('close', done);
    raw.resume();
  });
}

/** Maps every error and every unknown route to the `{ error: { code, message } }` envelope. */
export function registerErrorHandling(app: AnyFastifyInstance): void {
  // Fastify parses text/plain by default; the API only speaks JSON, so let it answer 415.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE' || request.raw.complete) return replyWithError(error, request, reply);
    return drainBody(request.raw).then(() => replyWithError(error, request, reply));
  });

  // A body no route reads (a GET, a 401 or 404 answered before parsing) is read and discarded before
  // the answer, as for a 413: closing a socket with unread bytes sends a reset, which cut the answer
  // of GET /openapi.json with a 38 KB body behind nginx (it talks to its upstream with
  // `Connection: close`; issue 32). Bounded by DRAIN_LIMIT and by the request timeout.
  app.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    // `complete` is Node's (false until the body's last byte); inject's requests have none.
    if (request.raw.complete === false) await drainBody(request.raw);
    return payload;
  });

  // HTTP/1.1 requires Host (RFC 9112, 3.2); checked first, before CORS and the key.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host) throw new ApiError(400, 'BAD_REQUEST', 'The Host header is required');
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0].slice(0, 200);
    return send(reply, 404, 'ROUTE_NOT_FOUND', `No route matches ${request.method} ${path}`);
  });
}

/** Methods for which a 405 is answered; OPTIONS is left to CORS preflight handling. */
const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'] as const;

/**
 * For every distinct url in `routes`, answers the methods it does not support with 405
 * METHOD_NOT_ALLOWED and an `Allow` header. Call after the real routes are declared.
 */
export function registerMethodNotAllowed(app: AnyFastifyInstance, routes: Array<{ method: string; url: string }>): void {
  const byUrl = new Map<string, Set<string>>();
  for (const { method, url } of routes) {
    const methods = byUrl.get(url) ?? new Set<string>();
    methods.add(method.toUpperCase());
    byUrl.set(url, methods);
  }
  for (const [url, methods] of byUrl) {
    // Fastify serves HEAD for every GET route (exposeHeadRoutes), so it is a real method too.
    if (methods.has('GET')) methods.add('HEAD');
    const allow = [...methods].sort().join(', ');
    for (const method of HTTP_METHODS) {
      if (methods.has(method) || app.hasRoute({ method, url })) continue;
      app.route({
        method,
        url,
        // Hidden from @fastify/swagger; public because a method error says nothing about a tenant's data
        // (same reason unknown routes answer 404 without a key).
        schema: { hide: true },
        config: { public: true },
        handler: async () => {
          throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${url}; allowed: ${allow}`, {
            headers: { Allow: allow },
          });
        },
      });
    }
  }
}
