// Servers on 127.0.0.1 for the network tests: what a CI runner meets between the suite and a staging
// deployment (a load balancer that closes idle connections, a forward proxy, a CONNECT proxy, TLS with
// a private CA), and targets that are not the service. Each counts what it carried; each closes.
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Loopback {
  url: string;
  port: number;
  /** Requests served (or, for a proxy, carried: `forwarded` absolute-form requests, `tunnels` CONNECTs). */
  count: { requests: number; forwarded: number; tunnels: number; dropped: number };
  close(): Promise<void>;
}

async function listen(server: Server, scheme = 'http'): Promise<Omit<Loopback, 'count'>> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  server.on('secureConnection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}`, port,
    close: async () => { for (const s of sockets) s.destroy(); await new Promise((r) => server.close(r)); },
  };
}

const upstreamAgent = new Agent({ keepAlive: true });

/** Passes one request to `upstream` (an http URL) and its answer back. */
function pass(req: IncomingMessage, res: ServerResponse, upstream: string, path = req.url ?? '/'): void {
  const target = new URL(path, upstream);
  const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent: upstreamAgent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  out.on('error', () => res.destroy());
  req.pipe(out);
}

export interface FrontOptions {
  /**
   * Close each client connection this many ms after each answer (once the request is read whole), as
   * a load balancer's idle timeout does. A request that reaches a connection already set to close is not
   * passed on (the front is closing it): the client sees the connection closed before any byte of
   * an answer, and the request was never applied.
   */
  closeAfterMs?: number;
  /**
   * Close a connection that has answered once when the next request arrives on it, unanswered: the
   * crossing of a server's close and a client's request, made certain instead of timed.
   */
  dropOnReuse?: boolean;
}

/** Long URLs pass (the generated area keeps request lines within 8 KiB; scenarios of other tests send longer): the deployment behind answers them. */
const LONG_HEADERS = { maxHeaderSize: 512 * 1024 };

/** A front passing every request to `upstream` (an http URL), counting them, and closing connections as told. */
export async function front(upstream: string, o: FrontOptions = {}): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const closing = new WeakSet<Socket>();
  const server = createServer(LONG_HEADERS, (req, res) => {
    const socket = req.socket;
    if (closing.has(socket)) {
      count.dropped++;
      if (o.dropOnReuse) socket.destroy();
      return;
    }
    count.requests++;
    // The connection is idle once the answer is sent and the request read whole (a 413 may answer
    // before the body is in): then the close is set.
    let answered = false;
    let read = false;
    const idle = () => {
      if (!answered || !read || (o.closeAfterMs === undefined && !o.dropOnReuse)) return;
      closing.add(socket);
      if (o.closeAfterMs !== undefined) setTimeout(() => socket.destroy(), o.closeAfterMs);
    };
    res.on('finish', () => { answered = true; idle(); });
    req.on('end', () => { read = true; idle(); });
    pass(req, res, upstream);
  });
  return { ...(await listen(server)), count };
}

/**
 * An HTTP proxy, as on a CI runner: absolute-form requests (`GET http://host/path`) are forwarded,
 * CONNECT opens a tunnel. `hosts` maps the names it knows (e.g. `staging.invalid:8443`) to loopback
 * ports: names that resolve nowhere else, so a request that reaches them went through the proxy.
 */
export async function httpProxy(hosts: Record<string, number>): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const server = createServer((req, res) => {
    count.requests++;
    let url: URL;
    try { url = new URL(req.url ?? ''); } catch { res.writeHead(400).end('absolute-form only'); return; }
    const port = hosts[url.host];
    if (!port) { res.writeHead(502).end(`unknown host ${url.host}`); return; }
    count.forwarded++;
    pass(req, res, `http://127.0.0.1:${port}`, url.pathname + url.search);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    count.requests++;
    const port = hosts[req.url ?? ''];
    if (!port) { client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'); return; }
    count.tunnels++;
    const upstream = netConnect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const end = () => { upstream.destroy(); client.destroy(); };
    upstream.on('error', end);
    client.on('error', end);
    client.on('close', end);
  });
  return { ...(await listen(server)), count };
}

/**
 * A deployment whose success envelope is broken: every 2xx answer's `result` member is renamed
 * `data` (the error envelope and /openapi.json pass as they are). Nothing of the service's shape is
 * left for the ledger to read an id from.
 */
export async function brokenEnvelopeFront(upstream: string): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const server = createServer((req, res) => {
    count.requests++;
    const target = new URL(req.url ?? '/', upstream);
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host }, agent: upstreamAgent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let text = Buffer.concat(chunks).toString('utf8');
        const status = answer.statusCode ?? 502;
        if (status < 300 && req.url !== '/openapi.json') {
          try {
            const body = JSON.parse(text);
            if (body && typeof body === 'object' && 'result' in body) { body.data = body.result; delete body.result; text = JSON.stringify(body); }
          } catch { /* not JSON: as it came */ }
        }
        const headers = { ...answer.headers };
        delete headers['content-length'];
        res.writeHead(status, headers).end(text);
      });
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  return { ...(await listen(server)), count };
}

export interface PrivateCa { caFile: string; key: string; cert: string }

/** A CA and a certificate it signed for these names, made with openssl at test time. */
export function privateCa(names: string[]): PrivateCa {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-ca-'));
  const at = (f: string) => join(dir, f);
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=conformance test CA');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', `/CN=${names[0]}`);
  const san = names.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  writeFileSync(at('leaf.ext'), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`);
  run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'leaf.ext');
  return { caFile: at('ca.pem'), key: readFileSync(at('leaf.key'), 'utf8'), cert: readFileSync(at('leaf.pem'), 'utf8') };
}

/** An HTTPS front with this certificate, passing every request to `upstream`. */
export async function tlsFront(upstream: string, tls: { key: string; cert: string }): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const server = createTlsServer({ key: tls.key, cert: tls.cert }, (req, res) => { count.requests++; pass(req, res, upstream); });
  return { ...(await listen(server as unknown as Server, 'https')), count };
}

/** A server that is not the service: an HTML page for every request. */
export async function htmlServer(): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const server = createServer((_req, res) => {
    count.requests++;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><title>Welcome to nginx!</title></head><body><h1>Welcome</h1></body></html>');
  });
  return { ...(await listen(server)), count };
}

/**
 * A server that answers the preflight as the service would (`document` at /openapi.json, an empty
 * list at GET /worlds) and every other request with `bytes` of JSON-looking text, made as it is sent
 * (nothing held in memory; it writes only when the client reads).
 */
export async function hugeBodyServer(document: string, bytes: number): Promise<Loopback> {
  const count = { requests: 0, forwarded: 0, tunnels: 0, dropped: 0 };
  const chunk = Buffer.alloc(64 * 1024, ' ');
  const server = createServer((req, res) => {
    count.requests++;
    if (req.url === '/openapi.json') { res.writeHead(200, { 'content-type': 'application/json' }).end(document); return; }
    if (req.url?.startsWith('/worlds?limit=1')) { res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{"worlds":[]}}'); return; }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
    let sent = 0;
    res.write('{"result":"');
    sent += 11;
    const more = () => {
      while (sent < bytes - 2) {
        const n = Math.min(chunk.length, bytes - 2 - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) { res.once('drain', more); return; }
      }
      res.end('"}');
    };
    res.on('close', () => res.removeAllListeners('drain'));
    more();
  });
  return { ...(await listen(server)), count };
}
