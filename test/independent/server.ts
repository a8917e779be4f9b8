// A second, independent implementation of the Simulation Service interface, written from SPEC alone,
// on plain node:http and in memory: the suite must pass it as it passes the reference (README.md).
// Run: node --import tsx test/independent/server.ts [--port N] [--rate-window-ms MS] [--fault NAME]
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ApiError, invalid } from './errors.ts';
import { DEFAULT_KEYS, KeyTable, type KeyEntry } from './keys.ts';
import { DOCUMENT } from './openapi.ts';
import { Personas } from './personas.ts';
import { Worlds } from './worlds.ts';

/** Faults the server can be started with, each breaking one sentence of SPEC (proof that a run can fail). */
export type Fault = 'unauthorized-as-403';

/**
 * Legal variants kept switchable: each is a reading SPEC allows that a version of the suite refused
 * (README.md names the finding), so that the suite's fix can be checked against it.
 */
export interface Variants { personaCodeInBodies?: boolean; importListedOnly?: boolean; exportedAt?: boolean }

export interface Options { port?: number; host?: string; keys?: KeyEntry[]; rateWindowMs?: number; fault?: Fault; variants?: Variants }
export interface Running { url: string; keys: KeyEntry[]; close(): Promise<void> }

type Json = Record<string, unknown>;
interface Ctx { tenant: string; params: string[]; query: URLSearchParams; body: unknown }
interface Route { method: string; path: string[]; status?: number; body?: boolean; run(c: Ctx): Json }

const MAX_BODY = 1 << 20;
/** Bodies nested deeper than this are refused (a request limit SPEC leaves open): no recursion overflows. */
const MAX_DEPTH = 32;

function tooDeep(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d >= MAX_DEPTH) return true;
    for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return false;
}

function routes(worlds: Worlds, personas: Personas): Route[] {
  const r = (method: string, path: string, run: Route['run'], extra: Partial<Route> = {}): Route =>
    ({ method, path: path.split('/').filter(Boolean), run, body: method !== 'GET' && method !== 'DELETE', ...extra });
  const W = worlds;
  const P = personas;
  return [
    r('POST', 'worlds', (c) => W.create(c.tenant, c.body), { status: 201 }),
    r('GET', 'worlds', (c) => W.list(c.tenant, c.query)),
    r('GET', 'worlds/:', (c) => W.read(c.tenant, c.params[0])),
    r('PATCH', 'worlds/:', (c) => W.patch(c.tenant, c.params[0], c.body)),
    r('DELETE', 'worlds/:', (c) => W.remove(c.tenant, c.params[0])),
    r('POST', 'worlds/:/restore', (c) => W.restore(c.tenant, c.params[0]), { body: false }),
    r('POST', 'worlds/:/tick', (c) => W.tick(c.tenant, c.params[0], c.body)),
    r('POST', 'worlds/:/time-jump', (c) => W.timeJump(c.tenant, c.params[0], c.body)),
    r('POST', 'worlds/:/chat', (c) => W.chat(c.tenant, c.params[0], c.body)),
    r('POST', 'worlds/:/events', (c) => W.dispatch(c.tenant, c.params[0], c.body)),
    r('GET', 'worlds/:/events', (c) => W.eventLog(c.tenant, c.params[0], c.query)),
    r('POST', 'worlds/:/query', (c) => W.query(c.tenant, c.params[0], c.body)),
    r('POST', 'worlds/:/context', (c) => W.context(c.tenant, c.params[0], c.body)),
    r('POST', 'worlds/:/mutate', (c) => W.mutate(c.tenant, c.params[0], c.body)),
    r('GET', 'worlds/:/snapshot', (c) => W.snapshot(c.tenant, c.params[0])),
    r('PUT', 'worlds/:/snapshot', (c) => W.importSnapshot(c.tenant, c.params[0], c.body)),
    r('GET', 'worlds/:/personas', (c) => W.personas(c.tenant, c.params[0])),
    r('POST', 'worlds/:/personas', (c) => W.addPersona(c.tenant, c.params[0], c.body), { status: 201 }),
    r('GET', 'worlds/:/personas/:', (c) => W.getPersona(c.tenant, c.params[0], c.params[1])),
    r('DELETE', 'worlds/:/personas/:', (c) => W.removePersona(c.tenant, c.params[0], c.params[1])),
    r('GET', 'worlds/:/actions', (c) => W.actions(c.tenant, c.params[0])),
    r('POST', 'worlds/:/actions', (c) => W.addAction(c.tenant, c.params[0], c.body), { status: 201 }),
    r('DELETE', 'worlds/:/actions/:', (c) => W.removeAction(c.tenant, c.params[0], c.params[1])),
    r('POST', 'worlds/:/interact', (c) => W.interact(c.tenant, c.params[0], c.body)),
    r('PUT', 'worlds/:/relationships', (c) => W.putRelationship(c.tenant, c.params[0], c.body)),
    r('GET', 'worlds/:/relationships', (c) => W.relationshipList(c.tenant, c.params[0])),
    r('DELETE', 'worlds/:/relationships/:', (c) => W.removeRelationship(c.tenant, c.params[0], c.params[1])),
    r('POST', 'personas', (c) => P.create(c.tenant, c.body), { status: 201 }),
    r('GET', 'personas', (c) => P.list(c.tenant, c.query)),
    r('GET', 'personas/:', (c) => P.read(c.tenant, c.params[0])),
    r('PATCH', 'personas/:', (c) => P.patch(c.tenant, c.params[0], c.body)),
    r('DELETE', 'personas/:', (c) => P.remove(c.tenant, c.params[0])),
    r('POST', 'personas/:/restore', (c) => P.restore(c.tenant, c.params[0]), { body: false }),
    r('POST', 'personas/:/perceive', (c) => P.perceive(c.tenant, c.params[0], c.body)),
    r('POST', 'personas/:/tick', (c) => P.tick(c.tenant, c.params[0], c.body)),
    r('POST', 'personas/:/emotion', (c) => P.emotion(c.tenant, c.params[0], c.body)),
    r('POST', 'personas/:/annotate', (c) => P.annotate(c.tenant, c.params[0], c.body), { status: 202 }),
    r('POST', 'personas/:/next-response', (c) => P.nextResponse(c.tenant, c.params[0], c.body), { status: 202 }),
    r('GET', 'personas/:/state', (c) => P.state(c.tenant, c.params[0])),
    r('POST', 'personas/:/prompt-context', (c) => P.promptContext(c.tenant, c.params[0]), { body: false }),
    r('GET', 'personas/:/snapshot', (c) => P.snapshot(c.tenant, c.params[0])),
    r('PUT', 'personas/:/snapshot', (c) => P.importSnapshot(c.tenant, c.params[0], c.body)),
  ];
}

/** Path segments as sent (no dot-segment folding: `/worlds/..` names a world called `..`), decoded. */
function segments(rawPath: string): string[] {
  return rawPath.split('/').slice(1).map((s) => {
    try { return decodeURIComponent(s); } catch { return s; }
  });
}

function match(route: Route, segs: string[]): string[] | undefined {
  if (route.path.length !== segs.length) return undefined;
  const params: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    if (route.path[i] === ':') { if (segs[i] === '') return undefined; params.push(segs[i]); }
    else if (route.path[i] !== segs[i]) return undefined;
  }
  return params;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', `bodies are limited to ${MAX_BODY} bytes`)); req.resume(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function startIndependent(options: Options = {}): Promise<Running> {
  const keyEntries = options.keys ?? DEFAULT_KEYS;
  const keys = new KeyTable(keyEntries, options.rateWindowMs ?? 60_000);
  const table = routes(new Worlds(options.variants), new Personas());

  const send = (res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };
  const fail = (res: ServerResponse, e: ApiError, headers: Record<string, string>) =>
    send(res, e.status, { error: { code: e.code, message: e.message } }, { ...headers, ...e.headers });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors: Record<string, string> = {};
    try {
      const raw = req.url ?? '/';
      const q = raw.indexOf('?');
      const segs = segments(q < 0 ? raw : raw.slice(0, q));
      const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
      const method = req.method ?? 'GET';
      const origin = req.headers.origin;
      const candidates = table.filter((r) => match(r, segs));
      if (method === 'OPTIONS') {
        // A browser's preflight carries no key: it is answered for any known path.
        if (!candidates.length && raw !== '/openapi.json') throw new ApiError(404, 'NOT_FOUND', `no resource at ${raw.slice(0, 200)}`);
        res.writeHead(204, {
          ...(origin ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}),
          'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE', 'access-control-allow-headers': 'content-type, x-api-key', 'access-control-max-age': '600',
        });
        res.end();
        return;
      }
      if (method === 'GET' && raw.split('?')[0] === '/openapi.json') return send(res, 200, DOCUMENT);
      const keyHeader = req.headers['x-api-key'];
      const entry = keys.find(typeof keyHeader === 'string' ? keyHeader : undefined);
      if (!entry) {
        if (options.fault === 'unauthorized-as-403') throw new ApiError(403, 'FORBIDDEN', 'API key missing or invalid');
        throw new ApiError(401, 'UNAUTHORIZED', 'API key missing or invalid (header X-API-Key)');
      }
      if (origin !== undefined && entry.origins?.length) {
        if (!entry.origins.includes(origin)) throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', 'this key may not be used from this origin');
      }
      if (origin !== undefined) Object.assign(cors, { 'access-control-allow-origin': origin, vary: 'Origin' });
      const taken = keys.take(entry);
      if (!taken.ok) throw new ApiError(429, 'RATE_LIMITED', `rate limit of this key's plan (${entry.plan}) exceeded`, { 'retry-after': String(taken.retryAfterS) });
      if (!candidates.length) throw new ApiError(404, 'NOT_FOUND', `no resource at ${raw.slice(0, 200)}`);
      const route = candidates.find((r) => r.method === method);
      if (!route) throw new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed here`, { allow: candidates.map((r) => r.method).join(', ') });
      let body: unknown;
      if (route.body) {
        const text = await readBody(req);
        if (text.trim() !== '') {
          const type = String(req.headers['content-type'] ?? '').toLowerCase();
          if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'bodies must be application/json');
          try { body = JSON.parse(text); } catch { throw invalid('the body is not valid JSON'); }
          if (tooDeep(body)) throw invalid(`the body is nested deeper than ${MAX_DEPTH} levels`);
        }
      } else req.resume();
      const result = route.run({ tenant: entry.tenant, params: match(route, segs)!, query, body });
      send(res, route.status ?? 200, { result }, cors);
    } catch (err) {
      if (err instanceof ApiError) return fail(res, err, cors);
      console.error(err);
      send(res, 500, { error: { code: 'INTERNAL', message: 'internal error' } }, cors);
    }
  }

  const server = createServer((req, res) => { void handle(req, res); });
  return new Promise((resolve) => {
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`, keys: keyEntries,
        close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => { const i = process.argv.indexOf(name); return i < 0 ? undefined : process.argv[i + 1]; };
  const running = await startIndependent({
    port: Number(arg('--port') ?? 0), rateWindowMs: Number(arg('--rate-window-ms') ?? 60_000), fault: arg('--fault') as Fault | undefined,
    variants: { personaCodeInBodies: process.argv.includes('--persona-code-in-bodies'), importListedOnly: process.argv.includes('--import-listed-only'), exportedAt: process.argv.includes('--exported-at') },
  });
  console.log(JSON.stringify({ url: running.url, keys: running.keys }));
}
