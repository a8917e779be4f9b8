// The Node runner's HTTP client: one undici pool of keep-alive connections to the target, driven
// through undici's dispatch interface with a callback per answer. No promise, stream or body
// string per request: at tens of thousands of requests a second that bookkeeping is what limits
// a load generator, and it would be charged to the target's service time. The pool is sized for
// an open model: a slow target needs many requests in flight.
import { Pool } from 'undici';
import type { LoadRequest } from '../model/mix.ts';

export interface Outcome {
  /** HTTP status; 0 when no answer came (connection refused, reset, timeout). */
  status: number;
  retryAfter?: string;
  /** Response body text (kept only when asked, e.g. for setup). */
  text?: string;
  /** Transport error code when status is 0. */
  error?: string;
  /**
   * performance.now() when the request was handed to undici, when it began to be written on a
   * connection (as k6 starts http_req_duration: a wait for a free connection, or for a new one,
   * is not the target's), and when its whole answer was in. connectedAt is dispatchedAt when no
   * connection took it (an error before).
   */
  dispatchedAt: number;
  connectedAt: number;
  answeredAt: number;
}

export interface Client {
  /** Sends at once and calls `done` with the whole answer read (as k6 does, a latency includes receiving the body). */
  dispatch(req: LoadRequest, done: (o: Outcome) => void, keepBody?: boolean): void;
  /** The same as a promise (setup, teardown). */
  send(req: LoadRequest, keepBody?: boolean): Promise<Outcome>;
  close(): Promise<void>;
}

export function createClient(baseUrl: string, apiKey: string, o: { connections?: number; timeoutMs?: number } = {}): Client {
  const url = new URL(baseUrl);
  // A base URL may carry a path prefix (https://host/api): requests go under it.
  const prefix = url.pathname.replace(/\/+$/, '');
  const timeout = o.timeoutMs ?? 10_000;
  const pool = new Pool(url.origin, {
    connections: o.connections ?? 128, pipelining: 1, keepAliveTimeout: 30_000,
    headersTimeout: timeout, bodyTimeout: timeout, connectTimeout: timeout,
  });
  const getHeaders = { 'x-api-key': apiKey, accept: 'application/json' };
  const bodyHeaders = { ...getHeaders, 'content-type': 'application/json' };

  const dispatch: Client['dispatch'] = (req, done, keepBody = false) => {
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    pool.dispatch({ method: req.method, path: prefix + req.path, headers: body === undefined ? getHeaders : bodyHeaders, body }, new Answer(done, keepBody));
  };

  return {
    dispatch,
    send: (req, keepBody = false) => new Promise((resolve) => dispatch(req, resolve, keepBody)),
    close: () => pool.close(),
  };
}

/**
 * One request's handler, in undici's handler interface (the one its Pool checks for). A class, not
 * closures: one small object per request. Raw headers are read only on a 429.
 */
class Answer {
  private status = 0;
  private retryAfter: string | undefined;
  private chunks: Buffer[] | undefined;
  private finished = false;
  private readonly dispatchedAt = performance.now();
  private connectedAt = this.dispatchedAt;
  constructor(private readonly done: (o: Outcome) => void, private readonly keepBody: boolean) {}
  /** undici calls it with the connection in hand, just before writing the request. */
  onConnect() { this.connectedAt = performance.now(); }
  onHeaders(statusCode: number, rawHeaders: Buffer[] | string[] | null) {
    this.status = statusCode;
    if (statusCode === 429) this.retryAfter = headerOf(rawHeaders, 'retry-after');
    if (this.keepBody) this.chunks = [];
    return true;
  }
  onData(chunk: Buffer) { this.chunks?.push(chunk); return true; }
  onComplete() {
    const out: Outcome = { status: this.status, dispatchedAt: this.dispatchedAt, connectedAt: this.connectedAt, answeredAt: 0 };
    if (this.retryAfter !== undefined) out.retryAfter = this.retryAfter;
    if (this.chunks) out.text = Buffer.concat(this.chunks).toString('utf8');
    this.finish(out);
  }
  onError(err: Error) {
    this.finish({ status: 0, error: (err as NodeJS.ErrnoException).code ?? err.name, dispatchedAt: this.dispatchedAt, connectedAt: this.connectedAt, answeredAt: 0 });
  }
  private finish(out: Outcome) {
    if (this.finished) return;
    this.finished = true;
    out.answeredAt = performance.now();
    this.done(out);
  }
}

/** A header's value from undici's raw [name, value, name, value, …] list. */
function headerOf(raw: Buffer[] | string[] | null | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) if (String(raw[i]).toLowerCase() === name) return String(raw[i + 1]);
  return undefined;
}
