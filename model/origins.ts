// Per-key origin allowlists (Authentication 6): the key restricted to one origin (--origin-key,
// --allowed-origin) works from that origin and is refused from near misses of it (any 4xx: the code and
// status are not shown); the main key, which has no configured origins, works from any origin. The
// restricted key's tenant is not known: only list operations are sent with it.
import fc from 'fast-check';
import { is2xx, predict, send, shortText, type Real } from './real.ts';
import type { ModelState } from './state.ts';
import { nearOrigins } from './near.ts';

type Cmd = fc.AsyncCommand<ModelState, Real>;
const LISTS = ['listWorlds', 'listPersonas'] as const;

/** Both route families from another origin with the main key and from the allowed origin with the origin key; the near origins alternate between them. */
export class Origins implements Cmd {
  constructor(readonly first: number) {}
  check = () => true;
  async run(_m: ModelState, real: Real) {
    const ops = [LISTS[this.first % 2], LISTS[(this.first + 1) % 2]];
    const query = (op: string) => (op === 'listWorlds' ? { limit: '1' } : undefined);
    for (const op of ops) {
      const any = await send(real, `${op} with the main key from another origin`, op, { query: query(op), headers: { origin: 'https://anywhere.model.invalid' } });
      predict(is2xx(any), 'anyOrigin', `${op} with a key without configured origins, from https://anywhere.model.invalid`, 'a 2xx', () => shortText(any), any);
    }
    const restricted = real.origin;
    if (!restricted) return;
    for (const op of ops) {
      const allowed = await send(real, `${op} with the origin key from its origin`, op, { query: query(op), key: restricted.key, headers: { origin: restricted.allowed } });
      predict(is2xx(allowed), 'originAllowed', `${op} with the origin key from ${restricted.allowed}`, 'a 2xx', () => shortText(allowed), allowed);
    }
    for (const [i, origin] of nearOrigins(restricted.allowed).entries()) {
      const op = ops[i % 2];
      const reply = await send(real, `${op} with the origin key from ${origin}`, op, { query: query(op), key: restricted.key, headers: { origin } });
      predict(reply.status >= 400 && reply.status < 500, 'originBlocked', `${op} with the origin key from ${origin}, a near miss of ${restricted.allowed}`, 'a refusal (4xx; its code and status are not shown)', () => shortText(reply), reply);
    }
  }
  toString = () => 'the lists from other origins: the main key (no origins configured) and the origin key (its origin and near misses of it)';
}

export const originsArbitrary = (): fc.Arbitrary<Cmd> => fc.nat({ max: 1 }).map((first) => new Origins(first));
