// A fault-injecting HTTP proxy: a node:http server on 127.0.0.1 in front of any deployment, forwarding
// with undici. One Fault drives it: hooks rewrite the request (method, path, query, headers such as
// X-API-Key and Origin, body), answer it without forwarding, rewrite the response (status, headers,
// JSON body), or delay either. What the hooks leave alone goes through byte for byte, /openapi.json
// included (a fault may rewrite that too), so the suite's preflight and served-document checks see the
// deployment as the proxy presents it. Everything is bounded: every upstream call has a timeout, and
// close() ends open connections and pending delays.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { OpenApiReader } from '../../contract/openapi-reader.ts';
import { bundledContract } from '../checks/documents.ts';

/** The keys of the deployment behind the proxy, for faults that swap or recognise them. */
export interface FaultKeys {
  mainKey: string;
  secondKey?: string;
  rateLimitKey?: string;
  originKey?: string;
  allowedOrigin?: string;
}

export interface FaultRequest {
  method: string;
  /** Path without the query, as sent (percent-encoded). */
  path: string;
  query: URLSearchParams;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON when the body parses, else its text; undefined when there is none. */
  body: unknown;
  /** The body as received ('' when there is none): tells malformed JSON from a JSON string. */
  rawBody: string;
  /** Operation of the bundled contract (SPEC.md) this request is, with its path parameters. */
  operationId?: string;
  params: Record<string, string>;
  /** Position of this request among those the proxy received, GET /openapi.json not counted (0-based). */
  seq: number;
}

export interface FaultResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON when the body parses, else its text; undefined when there is none. */
  body: unknown;
  /** Instead of an answer: these bytes as they are, then the connection ends (a stack cutting its answer short). */
  cut?: string;
}

export interface FaultContext {
  keys: FaultKeys;
  /** Sends a request to the deployment behind the proxy, as the proxy would. */
  forward(req: FaultRequest): Promise<FaultResponse>;
  /** Memory of the fault across requests (one per proxy). */
  state: Map<string, unknown>;
  /** Aborted when the proxy closes; pass it to waits. */
  signal: AbortSignal;
}

type Maybe<T> = T | Promise<T>;

/** What a fault does to the traffic. Hooks change their arguments in place. */
export interface FaultHooks {
  /** Rewrites the request before anything else. */
  request?(req: FaultRequest, ctx: FaultContext): Maybe<void>;
  /** Answers without forwarding when it returns a response. */
  answer?(req: FaultRequest, ctx: FaultContext): Maybe<FaultResponse | undefined>;
  /** Rewrites the deployment's response (not called for answers of `answer`). */
  response?(res: FaultResponse, req: FaultRequest, ctx: FaultContext): Maybe<void>;
}

export interface FaultProxy {
  url: string;
  /** Requests received so far (GET /openapi.json included). */
  received(): number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** The deployment's keys, for faults that swap or recognise them. */
  keys?: FaultKeys;
  /** Timeout of each upstream request. */
  timeoutMs?: number;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'content-length', 'host']);

/** A JSON answer: `json(200, { result: { ok: true } })`. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}): FaultResponse =>
  ({ status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body });

/** Parses a text as JSON when it is JSON; keeps it as text otherwise. */
function decode(text: string): { body: unknown; canonical?: string } {
  if (text === '') return { body: undefined };
  try {
    const body = JSON.parse(text);
    return { body, canonical: JSON.stringify(body) };
  } catch {
    return { body: text };
  }
}

/** The text to send: the original bytes when the hooks left the body as it was. */
function encode(body: unknown, original: { text: string; canonical?: string }): string | undefined {
  if (body === undefined) return undefined;
  if (original.canonical === undefined && body === original.text) return original.text;
  if (typeof body === 'string' && original.canonical === undefined) return body;
  const text = JSON.stringify(body);
  return text === original.canonical ? original.text : text;
}

// ---- Operations of the bundled contract, to name what a request is ----

interface Route { operationId: string; method: string; pattern: RegExp; names: string[] }
let routes: Route[] | undefined;
function routeTable(): Route[] {
  routes ??= OpenApiReader.index(bundledContract()).operations().map(({ operationId, method, path }) => {
    const names: string[] = [];
    const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { operationId, method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), names };
  });
  return routes;
}

/** The operation of SPEC.md a method and path are, with the decoded path parameters. */
export function operationOf(method: string, path: string): { operationId?: string; params: Record<string, string> } {
  for (const r of routeTable()) {
    if (r.method !== method.toUpperCase()) continue;
    const m = r.pattern.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.names.forEach((name, i) => {
      try { params[name] = decodeURIComponent(m[i + 1]); } catch { params[name] = m[i + 1]; }
    });
    return { operationId: r.operationId, params };
  }
  return { operationId: undefined, params: {} };
}

// ---- The proxy ----

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, answer: FaultResponse, original?: { text: string; canonical?: string }): void {
  if (res.destroyed || res.writableEnded) return;
  if (answer.cut !== undefined) { res.socket?.end(answer.cut); res.socket?.destroySoon(); return; }
  const text = encode(answer.body, original ?? { text: '' });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(k.toLowerCase()) && v !== undefined) headers[k.toLowerCase()] = v;
  if (text !== undefined) {
    headers['content-length'] = String(Buffer.byteLength(text));
    if (!('content-type' in headers) && original === undefined) headers['content-type'] = 'application/json; charset=utf-8';
  }
  try {
    res.writeHead(answer.status, headers);
    res.end(text);
  } catch {
    res.destroy();
  }
}

/** How long the proxy keeps an idle connection from its client: Fastify's default, the reference's. */
const IDLE_KEPT_MS = 72_000;

/** Starts a proxy in front of `baseUrl` with the given fault (none: a pass-through proxy). */
export async function startFaultProxy(baseUrl: string, fault: FaultHooks = {}, options: ProxyOptions = {}): Promise<FaultProxy> {
  const upstream = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new Agent({ connections: 32, keepAliveTimeout: 2_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const closing = new AbortController();
  // Every request in flight through the proxy listens to it: many at once is no leak (Node warns past 10).
  setMaxListeners(0, closing.signal);
  let count = 0;
  let seq = 0;

  type Original = { text: string; canonical?: string };
  /**
   * `search`: the query as received, sent as it was when the hooks left it alone. `parse`: whether a
   * hook will read the answer's body; when none will, it is not parsed (a fault without a response
   * hook, the pass-through proxy): its text goes back as it came, as `encode` would send it anyway.
   */
  const forwardRaw = async (req: FaultRequest, sent: Original = { text: '' }, search?: { raw: string; parsed: string }, parse = true): Promise<{ answer: FaultResponse; original: Original }> => {
    const headers: Record<string, string> = {};
    // Identity bodies only: the hooks read and rewrite them.
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && k !== 'accept-encoding') headers[k] = v;
    const qs = req.query.toString();
    const query = search && qs === search.parsed ? search.raw : qs ? `?${qs}` : '';
    const body = encode(req.body, sent);
    const res = await request(`${upstream}${req.path}${query}`, {
      method: req.method as 'GET', headers, body, dispatcher: agent, signal: closing.signal,
    });
    const text = await res.body.text();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    const decoded = parse ? decode(text) : { body: text === '' ? undefined : text };
    return { answer: { status: res.statusCode, headers: out, body: decoded.body }, original: { text, canonical: decoded.canonical } };
  };

  const ctx: FaultContext = {
    keys: options.keys ?? { mainKey: '' },
    state: new Map(),
    signal: closing.signal,
    forward: async (req) => structuredClone((await forwardRaw(req)).answer),
  };

  // Headers as large as the deployment behind accepts: the proxy must not answer in its place.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (incoming, res) => {
    count += 1;
    res.on('error', () => undefined);
    void (async () => {
      const text = await readBody(incoming);
      const target = incoming.url ?? '/';
      const cut = target.indexOf('?');
      const path = cut < 0 ? target : target.slice(0, cut);
      const search = cut < 0 ? '' : target.slice(cut);
      const query = new URLSearchParams(search);
      const received = { raw: search, parsed: query.toString() };
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const method = (incoming.method ?? 'GET').toUpperCase();
      const isDocument = method === 'GET' && path === '/openapi.json';
      // No hook at all (the pass-through proxy): the body is not parsed, its text is sent as it came.
      const decoded = fault.request || fault.answer || fault.response ? decode(text) : { body: text === '' ? undefined : text };
      const req: FaultRequest = {
        method, path, query, headers, body: decoded.body, rawBody: text,
        ...operationOf(method, path), seq: isDocument ? -1 : seq++,
      };
      await fault.request?.(req, ctx);
      // A changed method or path names another operation.
      Object.assign(req, operationOf(req.method, req.path));
      const early = await fault.answer?.(req, ctx);
      if (early) { send(res, early); return; }
      const { answer, original } = await forwardRaw(req, { text, canonical: decoded.canonical }, received, !!fault.response);
      await fault.response?.(answer, req, ctx);
      send(res, answer, original);
    })().catch((err: Error & { code?: string }) => {
      if (closing.signal.aborted) { res.destroy(); return; }
      send(res, json(502, { error: { code: 'PROXY_ERROR', message: `fault proxy: ${err.code ?? err.message}` } }));
    });
  });
  // What even a large header limit refuses (malformed HTTP): answered in the envelope, as the
  // reference does, so that the pass-through proxy adds no answer of its own making.
  server.on('clientError', (err: Error & { code?: string }, socket) => {
    if (!socket.writable) { socket.destroy(); return; }
    const body = JSON.stringify({ error: { code: 'BAD_REQUEST', message: `malformed request (${err.code ?? 'client error'})` } });
    socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  // As long as the deployment it stands for keeps an idle connection (the reference: Fastify's 72 s). A
  // front that pools its connections (Apache httpd's mod_proxy reuses them without limit) sent a request
  // on one the proxy had closed after 2 s idle while its event loop was busy, and answered that with its
  // own 502 page: a verdict on the service made by the bench (measured: once in 15 runs behind Apache).
  server.keepAliveTimeout = IDLE_KEPT_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => count,
    async close() {
      closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await agent.destroy().catch(() => undefined);
    },
  };
}

/** Waits `ms`, or less when the proxy closes (then throws, and the request is dropped). */
export const wait = (ms: number, ctx: FaultContext) => sleep(ms, undefined, { signal: ctx.signal });

/** Fetches what a proxy (or any deployment) serves at /openapi.json. */
export async function servedDocument(url: string, timeoutMs = 10_000): Promise<Record<string, any>> {
  const res = await request(`${url}/openapi.json`, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const text = await res.body.text();
  // As the preflight does: no usable document is an empty one (OAS-1 then fails the run).
  if (res.statusCode !== 200) return {};
  try { return JSON.parse(text) as Record<string, any>; } catch { return {}; }
}
