// The deployment a command runs against: a given --base-url after a preflight, or the embedded
// reference started in-process with the keys the run needs. Refuses a live key without --allow-live.
import { request } from 'undici';
import { randomBytes } from 'node:crypto';
import { loadOpenApi } from '../../contract/openapi-loader.ts';
import type { RunningReference } from '../../reference/index.ts';
import type { KeyRecord, Plan } from '../../reference/platform/index.ts';
import { UsageError } from '../data/errors.ts';
import { PLAN_RPM } from '../../contract/plans.ts';
import { redactKey } from '../data/redact.ts';
import { DEFAULT_MAX_BODY_MB, mbToBytes, transport } from '../http/transport.ts';
import { whyFailed } from '../http/why.ts';
import { parseAnswer } from '../http/answer-weight.ts';

export interface Target {
  baseUrl: string;
  /** The key the run uses. */
  apiKey: string;
  /** Keys provisioned for the embedded reference (second tenant, free plan, origin-restricted). */
  extraKeys: { secondKey?: string; rateLimitKey?: string; originKey?: string; allowedOrigin?: string };
  embedded: boolean;
  /** The window the embedded reference counts its rate limits in (a deployment's is a minute). */
  rateWindowMs?: number;
  /** The main key's limit per window, when the target's own keys say it (the embedded reference). */
  mainRpm?: number;
  /** The OpenAPI document the target serves (validated); empty when it serves none or an invalid one. */
  document: Record<string, any>;
  /** Why the served document could not be used, if so (OAS-1 then fails; the run goes on against the bundled contract). */
  documentProblem?: string;
  close(): Promise<void>;
}

export interface TargetOptions {
  baseUrl?: string;
  apiKey?: string;
  allowLive?: boolean;
  timeoutMs?: number;
  /** Plan of the main key the embedded reference provisions. */
  plan?: Plan;
  rpm?: number;
  /** Rate-limit window of the embedded reference (tests shorten it). */
  rateLimitWindowMs?: number;
  /** Epoch ms: the preflight gives up then (the run's --deadline-s). */
  deadlineAt?: number;
  /** The answer size cap in bytes (--max-body-mb). */
  maxBodyBytes?: number;
}

export function guardLiveKey(key: string | undefined, allowLive: boolean | undefined): void {
  if (key?.startsWith('mk_live_') && !allowLive) {
    throw new UsageError(`refusing the production key ${redactKey(key)}: live keys are billed; pass --allow-live if you mean it`);
  }
}

const genKey = (label: string) => `mk_test_${label}_${randomBytes(8).toString('hex')}`;

export async function resolveTarget(options: TargetOptions): Promise<Target> {
  guardLiveKey(options.apiKey, options.allowLive);
  if (!options.baseUrl) return embedded(options);
  if (!options.apiKey) throw new UsageError('--api-key is required with --base-url');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url '${options.baseUrl}' is not a URL`);
  }
  const { document, problem } = await preflight(baseUrl, options.apiKey, options.timeoutMs ?? 10_000, options.deadlineAt ?? Infinity, options.maxBodyBytes ?? mbToBytes(DEFAULT_MAX_BODY_MB));
  return { baseUrl, apiKey: options.apiKey, extraKeys: {}, embedded: false, document, documentProblem: problem, close: async () => {} };
}

interface Answer { status: number; contentType?: string; location?: string; text: string }

/** What an answer looked like, in a few words: status (and where a redirect points), content type, first bytes. */
const seen = (status: number, contentType: string | undefined, text: string, location?: string) =>
  `${status}${location ? ` redirecting to ${location} (not followed: the key goes nowhere else; give that address as --base-url if it is the deployment)` : ''}, ${contentType || 'no content type'}, ${text.length ? `starting ${JSON.stringify(text.slice(0, 60))}${text.length > 60 ? '…' : ''}` : 'empty body'}`;
const seenAnswer = (a: Answer) => seen(a.status, a.contentType, a.text, a.location);

/** JSON in the service's envelope (`{"result": …}` or `{"error": {…}}`), or an OpenAPI document. */
function likeTheService(a: Answer, maxBodyBytes: number, document = false): boolean {
  let parsed: unknown;
  try { parsed = parseAnswer(a.text, maxBodyBytes); } catch { return false; }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const o = parsed as Record<string, unknown>;
  const error = !!o.error && typeof o.error === 'object';
  return error || (document ? typeof o.openapi === 'string' : 'result' in o);
}

/**
 * Reachable, serves /openapi.json, and accepts the key: else one clear line that says what was seen.
 * A missing or invalid document does not stop the run (OAS-1 fails it); the document is then empty.
 * A target that answers neither request like the service (an HTML page, a redirect) is not checked:
 * it is the wrong address, not a broken deployment.
 */
async function preflight(baseUrl: string, apiKey: string, timeoutMs: number, deadlineAt: number, maxBodyBytes: number): Promise<{ document: Record<string, any>; problem?: string }> {
  const get = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const limit = Math.max(1, Math.min(timeoutMs, deadlineAt - Date.now()));
    let reached = false;
    try {
      const res = await request(baseUrl + path, { headers, signal: AbortSignal.timeout(limit), headersTimeout: limit, bodyTimeout: limit, ...transport('GET', maxBodyBytes) });
      reached = true;
      const text = await res.body.text();
      const location = res.statusCode >= 300 && res.statusCode < 400 ? String(res.headers.location ?? '') || undefined : undefined;
      return { status: res.statusCode, contentType: res.headers['content-type'] as string | undefined, location, text };
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const late = e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.code ?? '');
      const why = Date.now() >= deadlineAt ? 'the deadline (--deadline-s) was reached' : late ? `no complete answer within ${limit} ms` : whyFailed(e, { url: baseUrl + path, maxBodyBytes });
      throw new UsageError(reached || late ? `${baseUrl}${path} answered but did not finish: ${why}` : `cannot reach ${baseUrl}: ${why}`);
    }
  };
  const openapi = await get('/openapi.json', { 'x-api-key': apiKey });
  let document: Record<string, any> = {};
  let problem: string | undefined;
  if (openapi.status !== 200) problem = `${baseUrl}/openapi.json answered ${seen(openapi.status, openapi.contentType, openapi.text)}`;
  else {
    try {
      const parsed = parseAnswer(openapi.text, maxBodyBytes) as Record<string, any>;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`not a JSON object (${seen(openapi.status, openapi.contentType, openapi.text)})`);
      if (typeof parsed.openapi !== 'string') throw new Error(`it has no \`openapi\` version member (${seen(openapi.status, openapi.contentType, openapi.text)})`);
      // The one loader reads it as every check will: same-document references only, bounded.
      const { problems } = await loadOpenApi(parsed);
      if (problems.length) throw new Error(problems[0]);
      document = parsed;
    } catch (err) {
      problem = `${baseUrl}/openapi.json is not a valid OpenAPI document: ${(err as Error).message.split('\n')[0]}`;
      if (err instanceof SyntaxError) problem = `${baseUrl}/openapi.json is not JSON (${seen(openapi.status, openapi.contentType, openapi.text)})`;
    }
  }
  const probe = await get('/worlds?limit=1', { 'x-api-key': apiKey });
  if (probe.status === 401 || probe.status === 403) throw new UsageError(`${baseUrl} refused the key ${redactKey(apiKey)} (${seen(probe.status, probe.contentType, probe.text)})`);
  if (!likeTheService(openapi, maxBodyBytes, true) && !likeTheService(probe, maxBodyBytes)) {
    throw new UsageError(`${baseUrl} does not answer like the Simulation Service, so nothing was checked: GET /openapi.json answered ${seenAnswer(openapi)}; GET /worlds?limit=1 answered ${seenAnswer(probe)}; neither is JSON in the service's envelope (is --base-url right?)`);
  }
  return { document, problem };
}

async function embedded(options: TargetOptions): Promise<Target> {
  const plan = options.plan ?? 'enterprise';
  const main = genKey('main');
  const allowedOrigin = 'https://conformance.example';
  const keys: KeyRecord[] = [
    { key: main, tenantId: 'tenant-main', plan, ...(plan === 'enterprise' ? { rpm: options.rpm ?? 100_000 } : {}) },
    { key: genKey('second'), tenantId: 'tenant-second', plan: 'enterprise', rpm: 100_000 },
    { key: genKey('free'), tenantId: 'tenant-main', plan: 'free' },
    { key: genKey('origin'), tenantId: 'tenant-main', plan: 'enterprise', rpm: 100_000, origins: [allowedOrigin] },
  ];
  let server: RunningReference;
  try {
    // Imported here: a run against a deployment never loads the reference (its engine's language model
    // and schemas cost a second of CPU at start-up).
    const { startReference } = await import('../../reference/index.ts');
    server = await startReference({ keys, rateLimitWindowMs: options.rateLimitWindowMs });
  } catch (err) {
    throw new UsageError(`cannot start the embedded reference: ${(err as Error).message}`);
  }
  const res = await request(`${server.url}/openapi.json`);
  return {
    baseUrl: server.url,
    apiKey: main,
    extraKeys: { secondKey: keys[1].key, rateLimitKey: keys[2].key, originKey: keys[3].key, allowedOrigin },
    embedded: true,
    rateWindowMs: options.rateLimitWindowMs ?? 60_000,
    mainRpm: keys[0].rpm ?? PLAN_RPM[plan as Exclude<Plan, 'enterprise'>],
    document: await res.body.json() as Record<string, any>,
    close: () => server.close(),
  };
}
