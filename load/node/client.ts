// The Node runner's HTTP client: one undici pool of keep-alive connections to the target. The
// pool is sized for an open model: a slow target needs many requests in flight, and a request
// queued in the client for want of a connection is charged to the target's latency anyway
// (latency counts from the scheduled send time).
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
}

export interface Client {
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
  return {
    async send(req, keepBody = false) {
      const body = req.body === undefined ? undefined : JSON.stringify(req.body);
      try {
        const res = await pool.request({
          method: req.method,
          path: prefix + req.path,
          headers: { 'x-api-key': apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body,
        });
        // Read the whole body: the latency of an answer includes receiving it, as in k6.
        const text = await res.body.text();
        const retryAfter = res.headers['retry-after'];
        return {
          status: res.statusCode,
          ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}),
          ...(keepBody ? { text } : {}),
        };
      } catch (err) {
        return { status: 0, error: (err as NodeJS.ErrnoException).code ?? (err as Error).name };
      }
    },
    close: () => pool.close(),
  };
}
