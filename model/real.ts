// What the model's commands act on: the suite's paced client (through a Probe, which counts every
// request against the budget), the keys, and the record of the requests a run made, from which a
// failure is written as a bug report. The scenario file gives what only it can read (the run's names,
// a PATCH body from the served document): the model folder imports no scenario.
import type { Probe, Answer } from '../suite/generate/probe.ts';
import type { CallOptions, Reply } from '../suite/http/client.ts';
import { TransportFailure, CheckFailure } from '../suite/data/failure.ts';
import { curlOf, type Exchange } from '../suite/data/exchange.ts';
import { SENTENCES, type SentenceKey } from './sentences.ts';
import type { PersonaOps } from './personas.ts';

export interface Real {
  probe: Probe;
  keys: { main: string; second?: string };
  /** A name that says which run made it. */
  named: (label: string) => string;
  /** A PATCH /worlds/{id} body that renames the world, from the served document; undefined when it names no such member. */
  patchBody?: (name: string) => unknown;
  /** Bodies of the operations SPEC.md shows only by path, from the served document (model/world-parts.ts). */
  parts?: import('./world-parts.ts').PartBodies;
  /** What the persona commands read from the served document (model/personas.ts). */
  personas?: PersonaOps;
  /** The key restricted to one origin (--origin-key) and that origin; absent: the allowlist is not exercised. */
  origin?: { key: string; allowed: string };
  /** The requests of this run's commands, in order (views read between commands are not listed). */
  steps: Step[];
}

export interface Step { command: string; exchange?: Exchange }

export type Tenantless = Omit<CallOptions, 'key'>;

/** A request of one of the run's commands: recorded as a step of the bug report. */
export async function send(real: Real, command: string, operationId: string, options: CallOptions = {}): Promise<Reply> {
  const reply = await answer(real, operationId, options);
  real.steps.push({ command, exchange: reply.exchange });
  return reply;
}

/** A request that reads a view: not a step (a failure on it is shown as the last line). */
export async function read(real: Real, operationId: string, options: CallOptions = {}): Promise<Reply> {
  return answer(real, operationId, options);
}

async function answer(real: Real, operationId: string, options: CallOptions): Promise<Reply> {
  const a: Answer = await real.probe.call(operationId, options);
  if (a instanceof TransportFailure) throw a;
  return a;
}

export const is2xx = (r: Reply) => r.status >= 200 && r.status < 300;
export const resultOf = (r: Reply): any => (is2xx(r) && r.body && typeof r.body === 'object' ? r.body.result : undefined);
export const codeOf = (r: Reply): unknown => r.body?.error?.code;
export const shortText = (r: Reply) => `${r.status} ${r.text.length > 300 ? `${r.text.slice(0, 300)}…` : r.text}`;

/** A prediction the answer broke: the sentence it rests on, what the model expected, what came. */
export class Mismatch extends CheckFailure {
  constructor(readonly sentence: SentenceKey, title: string, expected: string, received: string, exchange?: Exchange) {
    super({ title: `model: ${title}`, expected, received, exchange, requirementId: SENTENCES[sentence].requirementId });
  }
}

/** Fails unless the condition holds. */
export function predict(condition: boolean, sentence: SentenceKey, title: string, expected: string, received: () => string, reply?: Reply): void {
  if (!condition) throw new Mismatch(sentence, title, expected, received(), reply?.exchange);
}

/** A 2xx with a result, as the sentence says; returns the result. */
export function accepted(reply: Reply, sentence: SentenceKey, what: string): any {
  const result = resultOf(reply);
  predict(result !== undefined && result !== null, sentence, `${what}: expected a 2xx with a result`, '2xx {"result": …}', () => shortText(reply), reply);
  return result;
}

/** An error with this code and, where SPEC.md gives it, this status (else any 4xx). */
export function refused(reply: Reply, sentence: SentenceKey, what: string, code: string, status?: number): void {
  const okStatus = status === undefined ? reply.status >= 400 && reply.status < 500 : reply.status === status;
  predict(okStatus && codeOf(reply) === code, sentence, `${what}: expected ${status ?? '4xx'} ${code}`, `${status ?? '4xx'} {"error": {"code": "${code}", …}}`, () => shortText(reply), reply);
}

/** The bug report of a failed run: the requests in order, each a curl line, then the one that showed the failure. */
export function report(steps: readonly Step[], failing?: Exchange): string {
  const lines = steps.map((s, i) => `${i + 1}. ${s.command}${s.exchange ? `\n   ${curlOf(s.exchange)}\n   → ${s.exchange.status}` : ''}`);
  const last = steps[steps.length - 1]?.exchange;
  if (failing && failing !== last) lines.push(`${steps.length + 1}. (the view that showed it)\n   ${curlOf(failing)}\n   → ${failing.status}`);
  return lines.join('\n');
}
