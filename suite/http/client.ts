// The one HTTP layer of the suite (undici). Every scenario talks through it: it paces itself under
// the key's plan, honours Retry-After (unless a scenario provokes 429 on purpose), times out,
// records every exchange with credentials redacted, checks each response against SPEC.md's envelope,
// the bundled contract and the served document, and notes what the run creates for cleanup.
import { request } from 'undici';
import { appendFileSync } from 'node:fs';
import { transport } from './transport.ts';
import { AnswerTooHeavy, tooHeavy } from './answer-weight.ts';
import { releaseCutAnswer } from './cut-answers.ts';
import { inMb } from '../data/body-cap.ts';
import { whyFailed } from './why.ts';
import type { ResponseValidator } from '../../contract/validate.ts';
import { documents, type Documents } from '../checks/documents.ts';
import { suiteConfig, type SuiteConfig } from '../data/config.ts';
import { cut, keyVariableOf, type Exchange } from '../data/exchange.ts';
import { redactHeaders, scrub } from '../data/redact.ts';
import { record } from './recorder.ts';
import { runScoped } from '../data/run-scope.ts';
import { noteWait } from './waits.ts';
import { TransportFailure } from '../data/failure.ts';
import { msLeft, RunStopped, stopReason } from '../data/stop.ts';
import { inspect } from '../checks/response.ts';
import { requestSize, stackHangUp } from '../data/stack-limits.ts';

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
  /** Paced by its key's plan even with expect429 (a key the scenario must not exhaust, whose 429 it reads). */
  paced?: boolean;
  /**
   * The path goes on the request line as written: a URL parser (undici's request(), a browser, curl
   * without --path-as-is) resolves its dot segments before it leaves (RFC 3986 §5.2.4).
   */
  asIs?: boolean;
}

export interface Reply<T = any> { status: number; headers: Record<string, string>; body: T; text: string; exchange: Exchange }

const MAX_RETRIES_ON_429 = 2;

/** Where a request goes, its path exactly as written after the base URL's own (for a dispatcher, which sends it unparsed). */
const onTheWire = (baseUrl: string, target: string) => {
  const base = new URL(baseUrl);
  return { origin: base.origin, path: `${base.pathname.replace(/\/$/, '')}${target}` };
};
const UTF8 = new TextDecoder();
const MAX_WAIT_S = 65;

/** Per key, the earliest time the next paced request may leave (one pacer per key for the worker). */
const nextSlot = new Map<string, number>();
runScoped(() => nextSlot.clear());

export class Client {
  readonly config: SuiteConfig;
  private readonly served: ResponseValidator;
  private readonly bundled: ResponseValidator;

  constructor(config = suiteConfig(), docs: Documents = documents()) {
    this.config = config;
    this.served = docs.validators.served;
    this.bundled = docs.validators.bundled;
  }

  /** Method and path template of an operation of SPEC.md (the bundled contract names them). */
  route(operationId: string): { method: string; path: string } {
    const op = this.bundled.reader.operation(operationId);
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
    const size = { ...requestSize(method, this.config.baseUrl + target, headers, requestBody), ...(o.asIs ? { path: onTheWire(this.config.baseUrl, target).path } : {}) };
    // A reproduction repeats the request with the key it went out with, not the main key.
    const keyVariable = keyVariableOf(this.config, key ?? undefined);
    for (let attempt = 0; ; attempt++) {
      // The pacing is the main key's plan; a check that provokes 429 on purpose (with a key it may
      // exhaust) is not held back by another key's plan.
      if (!o.expect429 || o.paced) await this.pace(key ?? '');
      this.stopIfStopping();
      const started = performance.now();
      // The run's deadline bounds every exchange too.
      const timeoutMs = Math.max(1, Math.min(this.config.timeoutMs, msLeft(this.config)));
      const secrets = [this.config.apiKey, this.config.secondKey, this.config.rateLimitKey, this.config.originKey, key ?? ''];
      const maxBodyBytes = this.config.maxBodyBytes;
      let res: Awaited<ReturnType<typeof request>> | undefined;
      let text: string;
      try {
        // One deadline for the whole exchange, headers and body: a target that drip-feeds its answer
        // is as late as a silent one (undici's own timeouts measure idle time only). The transport
        // caps the answer's size and resends a request a stale keep-alive connection lost.
        const signal = AbortSignal.timeout(timeoutMs);
        const options = { method: method as 'GET', headers, body: requestBody, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs };
        const { dispatcher, ...how } = transport(method, maxBodyBytes);
        res = o.asIs
          ? await dispatcher.request({ ...onTheWire(this.config.baseUrl, target), ...options, ...how })
          : await request(this.config.baseUrl + target, { ...options, dispatcher, ...how });
        // Weighed before it is decoded: an answer too heavy to parse never becomes a string.
        const bytes = new Uint8Array(await res.body.arrayBuffer());
        const heavy = tooHeavy(bytes, maxBodyBytes);
        if (heavy) {
          // Its bytes and the chunks they came in are garbage now, as a cut answer's are.
          releaseCutAnswer(bytes.length * 2);
          throw new AnswerTooHeavy(heavy);
        }
        // As undici's text() decodes: UTF-8, a byte order mark dropped, bad sequences replaced.
        text = UTF8.decode(bytes);
      } catch (err) {
        const e = err as Error & { code?: string };
        this.stopIfStopping();
        const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
        const why = timedOut ? `no complete answer within ${timeoutMs} ms` : whyFailed(e, { url: this.config.baseUrl + target, maxBodyBytes });
        // A stack that ends the connection on an oversize request (or answers what is not HTTP) refused it; a silence is still the target's.
        const refusedByStack = timedOut || e.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE' || e instanceof AnswerTooHeavy ? undefined : stackHangUp(size, scrub(why, secrets));
        // The status and headers, when they came before the body failed.
        const exchange: Exchange = {
          operationId: op?.operationId, method, url: cut(scrub(this.config.baseUrl + target, secrets)), requestHeaders: redactHeaders(headers, secrets),
          requestBody: requestBody === undefined ? undefined : cut(scrub(requestBody, secrets)), status: res?.statusCode ?? 0,
          responseHeaders: res ? redactHeaders(res.headers as Record<string, unknown>, secrets) : {},
          responseBody: '', durationMs: Math.round(performance.now() - started), checked: [], problems: {}, ...(refusedByStack ? { refusedByStack } : {}), ...(keyVariable ? { keyVariable } : {}),
        };
        record(exchange);
        // An answer too heavy to parse came whole: it is not called incomplete.
        const heavy = e instanceof AnswerTooHeavy;
        const title = heavy ? `${method} ${target}: ${scrub(why, secrets)}` : `${method} ${target}: the target gave no complete answer (${scrub(why, secrets)})`;
        const expected = heavy ? `an answer whose parse takes at most the ${inMb(maxBodyBytes)} of --max-body-mb` : 'a complete HTTP response';
        throw new TransportFailure({ title, expected, received: scrub(why, secrets), exchange });
      }
      const durationMs = Math.round(performance.now() - started);
      const responseHeaders = redactHeaders(res.headers as Record<string, unknown>, secrets);
      const retryAfter = Number(responseHeaders['retry-after']);
      const waitOut = res.statusCode === 429 && !o.expect429 && attempt < MAX_RETRIES_ON_429 && Number.isFinite(retryAfter);
      const limited = res.statusCode !== 429 ? undefined : o.expect429 ? 'provoked' as const : waitOut ? 'waited' as const : 'returned' as const;
      if (waitOut) {
        // Not this scenario's business: wait as told and try again. The 429 is recorded all the same
        // (not judged by the checks of the answer): RATE-6 counts the main key's, never hidden.
        record({
          operationId: op?.operationId, method, url: cut(scrub(this.config.baseUrl + target, secrets)), requestHeaders: redactHeaders(headers, secrets),
          requestBody: requestBody === undefined ? undefined : cut(scrub(requestBody, secrets)), status: 429, responseHeaders,
          responseBody: cut(scrub(text, secrets)), durationMs: Math.round(performance.now() - started), checked: [], problems: {}, limited,
          ...(keyVariable ? { keyVariable } : {}),
        });
        const waitMs = Math.min(Math.max(retryAfter, 1), MAX_WAIT_S) * 1000;
        noteWait(waitMs, `429 to ${method} ${target}: waiting the Retry-After it gave, then trying again`);
        await this.sleep(waitMs);
        continue;
      }
      let body: unknown = text;
      try { body = text ? JSON.parse(text) : undefined; } catch { /* kept as text; the envelope check reports it */ }
      const shown = scrub(text, secrets);
      const exchange: Exchange = {
        operationId: op?.operationId, method, url: cut(scrub(this.config.baseUrl + target, secrets)),
        requestHeaders: redactHeaders(headers, secrets), requestBody: requestBody === undefined ? undefined : cut(scrub(requestBody, secrets)),
        status: res.statusCode, responseHeaders, responseBody: cut(shown), durationMs, ...(keyVariable ? { keyVariable } : {}), ...(limited ? { limited } : {}),
        ...inspect({ method, operation: op, status: res.statusCode, contentType: responseHeaders['content-type'], body, text, bundled: this.bundled, served: this.served, size, server: responseHeaders.server }),
      };
      record(exchange);
      // The text a check may quote in a message: secrets scrubbed like the exchange's.
      return { status: res.statusCode, headers: responseHeaders, body, text: shown, exchange };
    }
  }

  /** Throws RunStopped when the run is stopping (deadline, Ctrl-C): the check ends at its next request. */
  private stopIfStopping(): void {
    const reason = stopReason(this.config);
    if (reason) throw new RunStopped(reason);
  }

  /** A wait that ends early when the run stops (checked every half second). */
  private async sleep(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      this.stopIfStopping();
      await new Promise((r) => setTimeout(r, Math.min(500, until - Date.now())));
    }
  }

  /**
   * Waits until this key may send again: one interval after the last request actually sent. The check
   * and the claim happen with no wait between them, so requests made at once (checks running
   * concurrently in this worker) leave one interval apart, however late their timers fire.
   */
  /** Takes this key's next paced slot now, for a request the caller sends unpaced at a moment of its choosing. */
  async takePace(key: string | null | undefined): Promise<void> {
    await this.pace(key ?? '');
  }

  private async pace(key: string): Promise<void> {
    if (!this.config.paceRpm) return;
    const interval = 60_000 / this.config.paceRpm;
    for (;;) {
      const now = Date.now();
      const next = nextSlot.get(key) ?? 0;
      if (now >= next) { nextSlot.set(key, now + interval); return; }
      await this.sleep(next - now);
    }
  }

  /** What the run creates is written down first, so that cleanup finds it even after a crash. */
  private ledger(operationId: string, body: any): void {
    const kind = operationId === 'createWorld' ? 'world' : operationId === 'createPersona' ? 'persona' : undefined;
    // The id where SPEC.md puts it, or (a broken envelope) at the top: either way it is the run's.
    const member = kind === 'world' ? 'worldId' : 'personaId';
    const id = kind ? body?.result?.[member] ?? body?.[member] : undefined;
    if (kind && typeof id === 'string') appendFileSync(this.config.ledgerFile, JSON.stringify({ kind, id, baseUrl: this.config.baseUrl, runId: this.config.runId }) + '\n');
  }
}
