// Faults that generated inputs and stateful sequences find (ENV-4, GEN-1, GEN-2).
import type { Fault } from '../faults.ts';
import { type Json, is, is2xx, isDocument, json, names, okResult, resultOf, wait } from './helpers.ts';

/** How deep a body nests (a parsed value, or a text the proxy could not parse), without recursion. */
function nesting(body: unknown): number {
  if (typeof body === 'string') {
    let depth = 0, max = 0, inString = false;
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (inString) { if (c === '\\') i++; else if (c === '"') inString = false; continue; }
      if (c === '"') inString = true;
      else if (c === '[' || c === '{') max = Math.max(max, ++depth);
      else if (c === ']' || c === '}') depth--;
    }
    return max;
  }
  let max = 0;
  const stack: Array<[unknown, number]> = [[body, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    max = Math.max(max, d + 1);
    for (const x of Object.values(v)) stack.push([x, d + 1]);
  }
  return max;
}


export const FAULTS: Fault[] = [
  {
    id: 'deep-nesting-500', areas: ['generated'], expected: ['ENV-4', 'GEN-1'],
    description: 'a body nested deeper than 1,000 levels is answered 500 (a stack overflow in the store)',
    answer: (req) => (req.body !== undefined && nesting(req.body) > 1_000 ? json(500, { error: { code: 'INTERNAL_ERROR', message: 'fault: Maximum call stack size exceeded' } }) : undefined),
  },
  {
    id: 'long-tick-never-answers', areas: ['generated'], expected: ['ENV-4', 'GEN-1'], timeoutMs: 1_000,
    description: 'a tick or time-jump of a million seconds or more never answers (cut by the request timeout)',
    async answer(req, ctx) {
      const seconds = (req.body as Json | undefined)?.seconds;
      if (!is(req, 'tickWorld', 'tickPersona', 'timeJump') || !(typeof seconds === 'number' && seconds >= 1e6)) return undefined;
      await wait(30_000, ctx);
      return json(200, { result: { affected: [], events: [] } });
    },
  },
  {
    id: 'long-integer-500', areas: ['generated'], expected: ['ENV-4'],
    description: 'a body holding an integer literal of 100 digits or more is answered 500 (the number parser overflows)',
    answer: (req) => (/\d{100,}/.test(req.rawBody) ? json(500, { error: { code: 'INTERNAL_ERROR', message: 'fault: number out of range' } }) : undefined),
  },
  {
    id: 'proto-name-breaks-every-tenant', areas: ['generated'], expected: ['GEN-1', 'GEN-2'],
    description: 'after a request naming `__proto__`, every request of every key answers 400 VALIDATION_ERROR until restart',
    answer(req, ctx) {
      if (isDocument(req)) return undefined;
      if (ctx.state.has('poisoned')) return json(400, { error: { code: 'VALIDATION_ERROR', message: 'fault: entityId is not an allowed member' } });
      if (names(req, '__proto__')) ctx.state.set('poisoned', true);
      return undefined;
    },
  },
  {
    id: 'use-after-changed-import-500', areas: ['generated'], expected: ['GEN-1'],
    description: 'a world snapshot import that changes any member of the exported one is accepted, after which every use of that world answers 500',
    // Accepted here, whatever the deployment behind would answer (the reference refuses most changes).
    answer(req, ctx) {
      const id = req.params.id;
      const exported = id ? ctx.state.get(`snapshot ${id}`) as string | undefined : undefined;
      if (!id || !is(req, 'putWorldSnapshot') || exported === undefined || JSON.stringify((req.body as Json | undefined)?.snapshot) === exported) return undefined;
      ctx.state.set(`broken ${id}`, true);
      return okResult();
    },
    response(res, req, ctx) {
      const id = req.params.id;
      if (!id || !is2xx(res)) return;
      if (is(req, 'getWorldSnapshot')) ctx.state.set(`snapshot ${id}`, JSON.stringify(resultOf(res)));
      else if (ctx.state.has(`broken ${id}`) && is(req, 'chat', 'tickWorld', 'dispatchEvent', 'worldContext', 'queryWorld', 'timeJump')) {
        res.status = 500;
        res.body = { error: { code: 'INTERNAL_ERROR', message: 'fault: Cannot read properties of undefined' } };
      }
    },
  },
  {
    id: 'builtin-entity-name-breaks-chat', areas: ['generated'], expected: ['GEN-1'],
    description: 'after an accepted world write naming constructor, toString, valueOf or hasOwnProperty, every chat of that world answers 500',
    response(res, req, ctx) {
      const id = req.params.id;
      if (!id || !req.path.startsWith('/worlds/')) return;
      if (is(req, 'chat') && ctx.state.has(`builtin ${id}`)) {
        res.status = 500;
        res.body = { error: { code: 'INTERNAL_ERROR', message: 'fault: x.call is not a function' } };
      } else if (is2xx(res) && req.method !== 'GET' && ['constructor', 'toString', 'valueOf', 'hasOwnProperty'].some((n) => names(req, n))) ctx.state.set(`builtin ${id}`, true);
    },
  },
];
