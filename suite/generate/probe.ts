// Sends what the generators make, through the suite's one client (paced, recorded, every response
// checked for the envelope and the contracts), counting each request against the budget, and judges
// the answers: no 5xx and an answer within the timeout for what was sent, and canaries (a valid
// request on a resource nothing generated touches) that still answer as they did before.
import type { Client, CallOptions, Reply } from '../http/client.ts';
import type { RequirementId } from '../../contract/requirements.ts';
import { CheckFailure, TransportFailure } from '../data/failure.ts';
import { runScoped } from '../data/run-scope.ts';
import type { Budget } from './property.ts';
import { describeRequest, resolve, short, type GenOperation, type GenRequest, type Owned } from './requests.ts';

export type Answer = Reply | TransportFailure;

export const answered = (a: Answer): a is Reply => !(a instanceof TransportFailure);
export const is2xx = (a: Answer): a is Reply => answered(a) && a.status >= 200 && a.status < 300;

/** Requests in a row that got no answer, over every probe of the file: a target that stopped answering
 *  (a tick that never ends) is not asked again while a failure is shrunk, each question costing a timeout. */
let silentInARow = 0;
runScoped(() => { silentInARow = 0; });
export const targetSilent = () => silentInARow >= 2;

export class Probe {
  constructor(readonly client: Client, readonly budget: Budget) {}

  /** A request of the bundled contract; a request that gets no complete answer is returned as such. */
  call(operationId: string, options: CallOptions = {}): Promise<Answer> {
    return this.answer(() => this.client.call(operationId, options));
  }

  raw(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<Answer> {
    return this.answer(() => this.client.raw(method, pathAndQuery, options));
  }

  /** One request made by a helper (createWorld…): counted, its silence noted, its failure thrown as it is. */
  async made<T>(make: () => Promise<T>): Promise<T> {
    this.budget.spent++;
    try {
      const made = await make();
      silentInARow = 0;
      return made;
    } catch (err) {
      // A connection the HTTP stack ended on an oversize request is its refusal, not the target's silence.
      if (err instanceof TransportFailure && !err.init.exchange?.refusedByStack) silentInARow++;
      throw err;
    }
  }

  /** As `made`, but a request with no complete answer is returned as what happened, not thrown. */
  private async answer(send: () => Promise<Reply>): Promise<Answer> {
    try {
      return await this.made(send);
    } catch (err) {
      if (err instanceof TransportFailure) return err;
      throw err;
    }
  }

  /** Sends a generated request; returns the answer and the one line that describes the request. */
  async send(req: GenRequest, op: GenOperation, owned: Owned, key?: string): Promise<{ answer: Answer; what: string }> {
    const r = resolve(req, op, owned);
    const what = describeRequest(req, r);
    const options: CallOptions = { params: r.params, query: r.query, rawBody: r.bodyText, headers: r.headers, key };
    const answer = r.operationId ? await this.call(r.operationId, options) : await this.raw(r.method, r.url + (r.query ? `?${new URLSearchParams(r.query)}` : ''), options);
    return { answer, what };
  }
}

/**
 * Fails unless the request got an answer in time and no 5xx. A connection the HTTP stack ended on an
 * oversize request is its refusal (suite/data/stack-limits.ts): not the service's silence.
 */
export function expectNo5xx(answer: Answer, what: string, requirementId: RequirementId, context = ''): void {
  if (!answered(answer) && answer.init.exchange?.refusedByStack) return;
  if (!answered(answer)) {
    throw new CheckFailure({ title: `no answer in time to ${short(what, 160)}${context}`, expected: 'an answer within the request timeout', received: answer.init.received, exchange: answer.init.exchange, requirementId });
  }
  if (answer.status >= 500) {
    throw new CheckFailure({ title: `${answer.status} to ${short(what, 160)}${context}`, expected: 'a 2xx, or a 4xx error envelope for a client mistake', received: `${answer.status} ${short(answer.text)}`, exchange: answer.exchange, requirementId });
  }
}

/** A valid request on a resource no generated request touches, and what its answer must stay. */
export interface Canary {
  label: string;
  send(): Promise<Answer>;
  /** The part of the answer that must not change (status and the stable members of the result). */
  fingerprint(reply: Reply): string;
}

/** Fails when the canary no longer answers in time with the answer it had before. */
export async function expectCanary(canary: Canary, before: string, after: string, requirementId: RequirementId): Promise<void> {
  const answer = await canary.send();
  if (!answered(answer)) {
    throw new CheckFailure({ title: `${canary.label} got no answer in time after ${short(after, 160)}`, expected: 'an answer within the request timeout', received: answer.init.received, exchange: answer.init.exchange, requirementId });
  }
  const now = canary.fingerprint(answer);
  if (now !== before) {
    throw new CheckFailure({ title: `${canary.label} answered differently after ${short(after, 160)}`, expected: short(before, 400), received: `${answer.status} ${short(answer.text)}`, exchange: answer.exchange, requirementId });
  }
}
