// What a tenant's large requests may take of the server before their bodies are read (issue 26:
// one tenant creating 1 MB worlds as fast as its plan allows made another tenant's p99 60× its idle
// figure). Two hooks, both before the body is read, so neither costs a parse:
//  - a create past the tenant's quota of worlds, personas or stored bytes is refused at once (what a
//    full tenant keeps sending costs the server only the reading of bytes it discards);
//  - a tenant has one large body (over LARGE_BODY bytes, or of unknown length) in the works at a time:
//    its next waits, its bytes left in the socket, while other tenants' requests go on between.
// And once read, a large body's steps (decode, parse, validation, the handler) each take a turn of the
// event loop of their own (platform/json-body.ts, giveWay): a 1 MB create in one turn held another
// tenant's request for up to 9 ms, and four creates chained through the gate for 30 ms.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hadLargeBody, LARGE_BODY, nextTurn } from '../platform/json-body.ts';
import type { ServerContext } from './context.ts';
import { roomForOrFail } from './context.ts';

/** preValidation and preHandler hook: a request whose body was large lets waiting I/O go first. */
export async function giveWay(request: FastifyRequest): Promise<void> {
  if (hadLargeBody(request)) await nextTurn();
}

/**
 * preParsing: refuses a create at once when the tenant already holds its quota, counting the body's
 * length as announced (Content-Length) toward its stored bytes: what is stored is the body's JSON
 * with defaults added, rarely less, and a full tenant's next create must not cost a parse.
 */
export function refuseWhenFull(kind: 'world' | 'persona', ctxOf: (request: FastifyRequest) => ServerContext) {
  return async (request: FastifyRequest) => {
    const announced = Number(request.headers['content-length'] ?? 0);
    roomForOrFail(ctxOf(request), request.principal.tenantId, kind, Number.isSafeInteger(announced) ? announced : 0);
  };
}

/** One large body per tenant at a time, in arrival order; released when its answer is sent or its socket closes. */
export class LargeBodyGate {
  private readonly tails = new Map<string, Promise<void>>();

  /** preParsing hook: waits for the tenant's turn when the body is large. */
  readonly hook = async (request: FastifyRequest, reply: FastifyReply) => {
    const length = request.headers['content-length'];
    const large = length === undefined ? request.headers['transfer-encoding'] !== undefined : Number(length) > LARGE_BODY;
    if (!large || !request.principal) return;
    const key = request.principal.tenantId;
    const previous = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const tail = previous ? previous.then(() => mine) : mine;
    this.tails.set(key, tail);
    reply.raw.once('close', () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    if (previous) {
      await previous;
      // The release came from the last one's answer; resuming in the same turn would chain the next
      // body's work onto it, ahead of every other tenant's waiting request.
      await nextTurn();
    }
  };
}
