// An HTTP exchange as the run records it: credentials redacted (suite/data/redact.ts), bodies cut at a
// fixed size, and the problems each response check found. Failures carry exchanges, rendered with a
// curl command.
import type { RequirementId } from '../../contract/requirements.ts';

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
  /** The per-response checks (suite/checks/response.ts) that looked at this response. */
  checked: RequirementId[];
  /** Requirement id → problems they found (ENV-1, ENV-3, CONTRACT-1, CONTRACT-2…). */
  problems: Partial<Record<RequirementId, string[]>>;
  /** Per-response checks that applied but could not look (a schema the suite cannot compile), and why. */
  notChecked?: Partial<Record<RequirementId, string>>;
  /** The answer (or the connection's end) came from the HTTP stack in front of the service, refusing an oversize request: why. */
  refusedByStack?: string;
  /** The shell variable the curl reads the request's key from, when it is not the main key's $API_KEY (keyVariableOf). */
  keyVariable?: string;
  /**
   * A 429: whether the check provoked it (`provoked`, a call made with expect429), or the client met
   * it unasked and waited out its Retry-After before sending again (`waited`), or gave up waiting
   * (`returned`). RATE-6 counts the main key's unprovoked ones (suite/results/main-key-limits.ts).
   */
  limited?: 'provoked' | 'waited' | 'returned';
}

/** The keys of a run by the shell variable a reproduction reads each from (docs/conformance.md, "Reading a failure"). */
export const KEY_VARIABLES = { apiKey: 'API_KEY', secondKey: 'SECOND_API_KEY', rateLimitKey: 'RATE_LIMIT_KEY', originKey: 'ORIGIN_KEY' } as const;

/** The variable of the key a request went out with: another tenant's request must not be repeated with the main key. */
export function keyVariableOf(keys: Partial<Record<keyof typeof KEY_VARIABLES, string>>, key: string | undefined): string | undefined {
  if (!key || key === keys.apiKey) return undefined;
  const role = (Object.keys(KEY_VARIABLES) as Array<keyof typeof KEY_VARIABLES>).find((r) => keys[r] === key);
  return role && KEY_VARIABLES[role];
}

/** Bodies and URLs (a generated URL may be 6,000 characters, a body 150,000) are kept to a readable size. */
export const cut = (text: string) => (text.length > BODY_LIMIT ? `${detached(text.slice(0, BODY_LIMIT))}…(${text.length - BODY_LIMIT} more bytes)` : text);

/**
 * A copy of a part of a long text that does not keep the whole alive: V8 makes `slice` a view of its
 * parent, so an exchange kept for the report would hold every answer it was cut from (8 MB each).
 */
export const detached = (part: string): string => Buffer.from(part, 'utf16le').toString('utf16le');

/** The first `limit` characters of a text, for a message that outlives the text (`detached`). */
export const excerpt = (text: string, limit: number): string => detached(text.slice(0, limit));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command that repeats the request; the key is a shell variable (the one of the key it went out with), never its value. */
export function curlOf(x: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'keyVariable'>): string {
  const parts = ['curl', '-i', '-X', x.method, quote(x.url)];
  for (const [k, v] of Object.entries(x.requestHeaders)) {
    parts.push('-H', k === 'x-api-key' ? `"X-API-Key: $${x.keyVariable ?? 'API_KEY'}"` : quote(`${k}: ${v}`));
  }
  if (x.requestBody !== undefined) parts.push('--data-raw', quote(x.requestBody));
  return parts.join(' ');
}
