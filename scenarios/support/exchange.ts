// An HTTP exchange as the run records it: credentials redacted, bodies cut at a fixed size, and
// the problems each response check found. Failures carry exchanges, rendered with a curl command.
export const BODY_LIMIT = 4096;

export interface Exchange {
  /** operationId in the bundled contract (SPEC.md's operation), when the request is one. */
  operationId?: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  durationMs: number;
  /** Requirement id → problems found in this response (ENV-1, ENV-3, CONTRACT-1, CONTRACT-2…). */
  problems: Record<string, string[]>;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'cookie', 'set-cookie']);

export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = SECRET_HEADERS.has(k.toLowerCase()) ? redactSecret(String(v)) : Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

export function redactSecret(value: string): string {
  const prefix = /^mk_(live|test)_/.exec(value)?.[0] ?? '';
  return `${prefix}…(redacted)`;
}

/** Removes every occurrence of the given secrets from a text (bodies may echo a key). */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join(redactSecret(s));
  return out;
}

export const cut = (text: string) => (text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…(${text.length - BODY_LIMIT} more bytes)` : text);

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command that repeats the request; the key is a shell variable, never its value. */
export function curlOf(x: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): string {
  const parts = ['curl', '-i', '-X', x.method, quote(x.url)];
  for (const [k, v] of Object.entries(x.requestHeaders)) {
    parts.push('-H', k === 'x-api-key' ? `"X-API-Key: $API_KEY"` : quote(`${k}: ${v}`));
  }
  if (x.requestBody !== undefined) parts.push('--data-raw', quote(x.requestBody));
  return parts.join(' ');
}
