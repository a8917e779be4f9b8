// A stale keep-alive connection: the target (or a load balancer before it) closed an idle connection
// just as the suite sent a request on it. The request never reached anyone, so the failure is not the
// target's; curl and browsers send such a request again on a new connection, and so does the suite
// (for the methods HTTP calls idempotent; suite/http/transport.ts says why not POST and PATCH).
//
// Stale means: the connection had carried an earlier exchange, and it closed (reset, EPIPE, "other
// side closed") before a single byte of this request's answer arrived. undici does not say so on the
// error, so the suite watches undici's diagnostics channels: when a request's headers are written it
// notes the socket, whether that socket was reused and how many bytes it had read; when the request
// fails, nothing more read on that socket means no byte of the answer came.
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { RetryHandler } from 'undici';

/** Methods HTTP defines as idempotent (RFC 9110 §9.2.2): sending one twice does what sending it once does. */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** How a connection dies under a request: undici's "other side closed", a reset, a broken pipe. */
const CLOSED = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * At most this many stale connections in a row for one request. Each is then gone from the pool, so
 * the count is bounded by the idle connections the pool held: after a burst of concurrent requests
 * (up to 16 at once, the rate-limit area's) that many; 3 failed a run whose 8 concurrent lists met a
 * front closing every reused connection.
 */
export const MAX_STALE_RETRIES = 20;

const requestsOn = new WeakMap<Socket, number>();
const sentOn = new WeakMap<object, { socket: Socket; reused: boolean; bytesRead: number }>();
const staleErrors = new WeakSet<object>();

subscribe('undici:client:sendHeaders', (message) => {
  const { request, socket } = message as { request: object; socket: Socket };
  const before = requestsOn.get(socket) ?? 0;
  requestsOn.set(socket, before + 1);
  sentOn.set(request, { socket, reused: before > 0, bytesRead: socket.bytesRead });
});

subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: object; error: Error & { code?: string } };
  const sent = sentOn.get(request);
  if (sent?.reused && CLOSED.has(error?.code ?? '') && sent.socket.bytesRead === sent.bytesRead) staleErrors.add(error);
});

/** The request died with a stale connection: it was never answered, nor (for all the suite knows) received. */
export const isStale = (err: unknown): boolean => typeof err === 'object' && err !== null && staleErrors.has(err);

/**
 * The decision for undici's retry interceptor: again, at once, only for a stale connection and an
 * idempotent method. Never for a status (a 503 or 429 is the target's answer, judged as it came), a
 * timeout, a refused connection, or an answer cut after its first byte: those are the target's.
 */
export const retryStale: RetryHandler.RetryCallback = (err, { state, opts }, callback) => {
  if (isStale(err) && IDEMPOTENT.has(String(opts.method).toUpperCase()) && state.counter <= MAX_STALE_RETRIES) callback(null);
  else callback(err);
};
