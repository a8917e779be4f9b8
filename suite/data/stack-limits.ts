// What the HTTP stacks in front of a service accept by default, and how an answer of theirs looks.
//
// Real deployments sit behind nginx, a cloud load balancer, uvicorn, gunicorn, Node's http server…
// Each refuses a request it finds too large BEFORE the service sees it, with an answer of its own
// making: nginx 414 or 413 with an HTML page (request line and headers within 8 KiB, bodies within
// 1 MiB), Node's http server 431 with no body (16 KiB of headers), uvicorn 400 text/plain "Invalid HTTP
// request received.", gunicorn 400 on a request line over 4,094 bytes, Express's body parser 413 HTML
// past 100 KB. SPEC.md says request size limits are "not shown": such an answer is legal, and it is the
// stack's, never the service's envelope or contract.
//
// Stacks also refuse some paths on their own: nginx answers 400 HTML to a path that, decoded, holds a
// NUL, climbs above the root with dot segments (`/personas/..%2F..`), or has a broken percent-escape;
// Apache httpd its 404 HTML page to a path holding an encoded slash (AllowEncodedSlashes Off); lighttpd
// its 400 HTML page to a path holding a control character, encoded or not (measured: %01, %09, %7F),
// and it decodes %2F and resolves dot segments before proxying (suite/generate/requests.ts,
// `passesStacks`). The generated area no longer sends them; a check whose subject is such a path
// (scenarios/errors.test.ts, ERR-11 and ERR-12) must not take the stack's answer for the service's either.
//
// So the suite sends nothing larger than these defaults (suite/generate/requests.ts keeps every
// generated request line and headers within REQUEST_HEAD_MAX), and an answer that comes from the HTTP
// layer to an oversize request is reported as "refused by the HTTP stack before the service": not judged
// by the envelope and contract checks, nor counted as "no answer" when the stack ended the connection.

/** Request line and headers nginx accepts by default (large_client_header_buffers 4 8k): what the suite sends stays within it. */
export const REQUEST_HEAD_MAX = 8 * 1024;
/** The body nginx accepts by default (client_max_body_size 1m): what the suite sends stays within it. */
export const REQUEST_BODY_MAX = 1024 * 1024;
/**
 * Past these, a request is large enough for some stack's default to refuse it: gunicorn's request line
 * (4,094 bytes), Express's JSON body (100 KB). A 400 to a smaller request is the service's own answer
 * (a 413, 414 or 431 names the size it refuses itself).
 */
export const HEAD_REFUSABLE = 4 * 1024;
export const BODY_REFUSABLE = 100 * 1024;
/**
 * The tightest body limit a front is plausibly set to (a client_max_body_size of 8k): a 413 to a
 * smaller body names a size the request does not have, and is the service's answer, judged as such.
 */
export const BODY_413_MIN = 8 * 1024;

/** What the HTTP layer answers a request too large for it with: 400 (uvicorn, gunicorn, nginx's and lighttpd's paths), 404 (Apache's encoded slash), 413, 414, 431. */
const STACK_STATUSES = new Set([400, 404, 413, 414, 431]);

/** The sizes the client sent (request line and headers, the request line alone, and body, in bytes) and the path as sent (percent-encoded). */
export interface RequestSize { headBytes: number; bodyBytes: number; lineBytes?: number; path?: string }

/** The size of a request as it goes on the wire (HTTP/1.1), the Host and Content-Length headers counted. */
export function requestSize(method: string, url: string, headers: Record<string, string>, body: string | undefined): RequestSize {
  let u: { pathname: string; search: string; host: string };
  // A URL the parser refuses is sent as written (and fails in the client, which says why).
  try { u = new URL(url); } catch { u = { pathname: url, search: '', host: '' }; }
  const bodyBytes = body === undefined ? 0 : Buffer.byteLength(body);
  const lineBytes = Buffer.byteLength(`${method} ${u.pathname}${u.search} HTTP/1.1\r\n`);
  let headBytes = lineBytes + Buffer.byteLength(`host: ${u.host}\r\n`);
  for (const [k, v] of Object.entries(headers)) headBytes += Buffer.byteLength(`${k}: ${v}\r\n`);
  if (body !== undefined) headBytes += `content-length: ${bodyBytes}\r\n`.length;
  return { headBytes: headBytes + 2, bodyBytes, lineBytes, path: u.pathname };
}

/** Why a stock stack may refuse a request before the service (its size, its path), or undefined when none would. */
export function refusable(size: RequestSize | undefined): string | undefined {
  if (!size) return undefined;
  if (size.headBytes > HEAD_REFUSABLE) return `a request line and headers of ${size.headBytes.toLocaleString('en')} bytes`;
  if (size.bodyBytes > BODY_REFUSABLE) return `a body of ${size.bodyBytes.toLocaleString('en')} bytes`;
  return size.path === undefined ? undefined : refusablePath(size.path);
}

/** A path holding an encoded slash: Apache httpd answers its own 404 page to it (AllowEncodedSlashes Off). */
export const encodedSlashIn = (path: string | undefined): string | undefined => (path && /%2F/i.test(path) ? 'a path holding an encoded slash (%2F)' : undefined);

/** A path a stack refuses with 400 before any proxying: a NUL, dot segments above the root, a broken escape (nginx); a control character (lighttpd). */
function refusablePath(path: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return 'a path with a broken percent-escape';
  // Bytes, not UTF-8: NULs, control characters and dots are all that matter, and no escape sequence can fail here.
  const decoded = Buffer.from(path.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('latin1');
  if (decoded.includes('\0')) return 'a path holding a NUL';
  if (/[\x01-\x1f\x7f]/.test(decoded)) return 'a path holding a control character';
  let depth = 0;
  for (const segment of decoded.split('/').slice(1)) {
    depth += segment === '..' ? -1 : segment === '.' || segment === '' ? 0 : 1;
    if (depth < 0) return 'a path whose dot segments climb above the root';
  }
  return undefined;
}

/**
 * Whether an answer is the HTTP stack's refusal of a request too large (or a path) for it, with a body
 * that is not JSON (none, an HTML page, a line of text). Each status is excused only for a request with
 * the property it is about: 414 (URI too long) for a request line past 4 KiB, 431 (headers too large)
 * for a request line and headers past 4 KiB, 413 (content too large) for a body past 8 KiB; a 400 only
 * for a request some stack refuses (past 4 KiB of head or 100 KB of body, or a path nginx refuses). A
 * 413 to a 13-byte body, or a 431 to a 146-byte GET, is the service's answer, judged as such.
 * Returns what to report instead of judging the answer.
 */
export function stackRefusal(a: { status: number; contentType: string | undefined; text: string; size?: RequestSize; server?: string }): string | undefined {
  if (!STACK_STATUSES.has(a.status) || !a.size) return undefined;
  if (/json/i.test(a.contentType ?? '') && isJson(a.text)) return undefined;
  const { headBytes, bodyBytes, lineBytes = headBytes } = a.size;
  const why = a.status === 414 ? (lineBytes > HEAD_REFUSABLE ? `a request line of ${lineBytes.toLocaleString('en')} bytes` : undefined)
    : a.status === 431 ? (headBytes > HEAD_REFUSABLE ? `a request line and headers of ${headBytes.toLocaleString('en')} bytes` : undefined)
      : a.status === 413 ? (bodyBytes > BODY_413_MIN ? `a body of ${bodyBytes.toLocaleString('en')} bytes` : undefined)
        : a.status === 404 ? encodedSlashIn(a.size.path)
          : refusable(a.size);
  if (!why) return undefined;
  const what = a.text.length === 0 ? 'no body' : `${(a.contentType ?? 'no content-type').split(';')[0]}`;
  const server = a.server ? `, Server: ${a.server}` : '';
  return `refused by the HTTP stack before the service: ${a.status} (${what}${server}) to ${why} (SPEC.md: request size limits "not shown")`;
}

/** A request that got no complete answer: when it was oversize, the stack ending the connection is its refusal. */
export function stackHangUp(size: RequestSize | undefined, why: string): string | undefined {
  const large = refusable(size);
  return large ? `refused by the HTTP stack before the service: the connection ended without a complete answer (${why}) to ${large} (SPEC.md: request size limits "not shown")` : undefined;
}

function isJson(text: string): boolean {
  try { JSON.parse(text); return true; } catch { return false; }
}
