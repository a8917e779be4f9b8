// The one HTTP layer of the suite (undici). Every scenario talks through it: it paces itself under
// the key's plan, honours Retry-After (unless a scenario provokes 429 on purpose), times out,
// records every exchange with credentials redacted, checks each response against SPEC.md's envelope,
// the bundled contract and the served document, and notes what the run creates for cleanup.
import { request } from 'undici';
import { appendFileSync } from 'node:fs';
import { ResponseValidator } from '../../contract/validate.ts';
import { suiteConfig, type SuiteConfig } from './config.ts';
import { cut, redactHeaders, scrub, type Exchange } from './exchange.ts';
import { record } from './recorder.ts';

export interface CallOptions {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON-encoded unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  /** Key to send: default the run's key; null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  /** The scenario provokes 429 itself: do not wait and retry. */
  expect429?: boolean;
}

export interface Reply<T = any> { status: number; headers: Record<string, string>; body: T; text: string; exchange: Exchange }

const MAX_RETRIES_ON_429 = 2;
const MAX_WAIT_S = 65;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let validators: { served: ResponseValidator; bundled: ResponseValidator } | undefined;
const lastSend = new Map<string, number>();

export class Client {
  readonly config: SuiteConfig;
  private readonly served: ResponseValidator;
  private readonly bundled: ResponseValidator;

  constructor(config = suiteConfig()) {
    this.config = config;
    validators ??= { served: new ResponseValidator(config.servedDocument, 'served'), bundled: new ResponseValidator(config.bundledDocument, 'bundled') };
    this.served = validators.served;
    this.bundled = validators.bundled;
  }

  /** Method and path template of an operation of SPEC.md (the bundled contract names them). */
  route(operationId: string): { method: string; path: string } {
    const op = this.bundled.operations().find((o) => o.operationId === operationId);
    if (!op) throw new Error(`suite: no operation ${operationId} in the bundled contract`);
    return { method: op.method.toUpperCase(), path: op.path };
  }

  async call<T = any>(operationId: string, options: CallOptions = {}): Promise<Reply<T>> {
    const { method, path } = this.route(operationId);
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`suite: ${operationId} needs path parameter ${name}`);
      return encodeURIComponent(value);
    });
    const reply = await this.send(method, url + (options.query ? `?${new URLSearchParams(options.query)}` : ''), options, { operationId, path });
    if (reply.status >= 200 && reply.status < 300) this.ledger(operationId, reply.body);
    return reply as Reply<T>;
  }

  /** A request that is not (or not exactly) an operation of SPEC.md: checked for the envelope only. */
  raw(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Reply> {
    return this.send(method, pathAndQuery, options);
  }

  private async send(method: string, target: string, o: CallOptions, op?: { operationId: string; path: string }): Promise<Reply> {
    const key = o.key === undefined ? this.config.apiKey : o.key;
    const requestBody = o.rawBody ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
    const headers: Record<string, string> = { accept: 'application/json', ...(requestBody !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers };
    if (key) headers['x-api-key'] = key;
    for (let attempt = 0; ; attempt++) {
      await this.pace(key ?? '');
      const started = performance.now();
      const res = await request(this.config.baseUrl + target, {
        method: method as 'GET', headers, body: requestBody,
        headersTimeout: this.config.timeoutMs, bodyTimeout: this.config.timeoutMs,
      }).catch((err: Error & { code?: string }) => {
        throw new Error(`request ${method} ${target} failed: ${err.code ?? err.message} (timeout ${this.config.timeoutMs} ms)`);
      });
      const text = await res.body.text();
      const durationMs = Math.round(performance.now() - started);
      const responseHeaders = redactHeaders(res.headers as Record<string, unknown>);
      const retryAfter = Number(responseHeaders['retry-after']);
      if (res.statusCode === 429 && !o.expect429 && attempt < MAX_RETRIES_ON_429 && Number.isFinite(retryAfter)) {
        // Not this scenario's business: wait as told and try again.
        await sleep(Math.min(Math.max(retryAfter, 1), MAX_WAIT_S) * 1000);
        continue;
      }
      let body: unknown = text;
      try { body = text ? JSON.parse(text) : undefined; } catch { /* kept as text; the envelope check reports it */ }
      const secrets = [this.config.apiKey, this.config.secondKey, this.config.rateLimitKey, this.config.originKey, key ?? ''].filter((s): s is string => !!s);
      const exchange: Exchange = {
        operationId: op?.operationId, method, url: this.config.baseUrl + target,
        requestHeaders: redactHeaders(headers), requestBody: requestBody === undefined ? undefined : cut(scrub(requestBody, secrets)),
        status: res.statusCode, responseHeaders, responseBody: cut(scrub(text, secrets)), durationMs,
        problems: this.inspect(method, op, res.statusCode, responseHeaders['content-type'], body, text),
      };
      record(exchange);
      return { status: res.statusCode, headers: responseHeaders, body, text, exchange };
    }
  }

  /** The checks every response gets: ENV-1..3, CONTRACT-1 (bundled), CONTRACT-2 (served). */
  private inspect(method: string, op: { operationId: string; path: string } | undefined, status: number, contentType: string | undefined, body: unknown, text: string): Record<string, string[]> {
    const problems: Record<string, string[]> = {};
    const add = (id: string, ...list: string[]) => { if (list.length) (problems[id] ??= []).push(...list); };
    const isJson = /^application\/json\b/i.test(contentType ?? '');
    if (text.length > 0 && !isJson) add('ENV-3', `content-type is '${contentType ?? '(none)'}', expected application/json`);
    const bundledOp = op ? this.bundled.operation(op.operationId) : undefined;
    const raw = op?.operationId === 'getOpenApi';
    if (status >= 200 && status < 300 && !raw) {
      if (!body || typeof body !== 'object' || Array.isArray(body) || !('result' in body)) add('ENV-1', 'a 2xx body must be an object with a result member');
      else if (bundledOp?.['x-shape-source'] === 'spec') add('CONTRACT-1', ...this.bundled.checkSuccessBody(op!.operationId, body).problems);
    }
    if (status >= 400) add('ENV-2', ...this.bundled.checkComponent('ErrorEnvelope', body).problems);
    if (op) {
      const servedId = this.served.operationAt(method, op.path);
      if (!servedId) add('CONTRACT-2', `the served document has no ${method} ${op.path}`);
      else add('CONTRACT-2', ...this.served.check(servedId, status, contentType, body).problems);
    }
    return problems;
  }

  private async pace(key: string): Promise<void> {
    if (!this.config.paceRpm) return;
    const interval = 60_000 / this.config.paceRpm;
    const wait = (lastSend.get(key) ?? 0) + interval - Date.now();
    if (wait > 0) await sleep(wait);
    lastSend.set(key, Date.now());
  }

  /** What the run creates is written down first, so that cleanup finds it even after a crash. */
  private ledger(operationId: string, body: any): void {
    const kind = operationId === 'createWorld' ? 'world' : operationId === 'createPersona' ? 'persona' : undefined;
    const id = kind === 'world' ? body?.result?.worldId : kind === 'persona' ? body?.result?.personaId : undefined;
    if (kind && typeof id === 'string') appendFileSync(this.config.ledgerFile, JSON.stringify({ kind, id }) + '\n');
  }
}
