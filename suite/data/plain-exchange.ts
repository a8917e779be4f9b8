// Which exchange a failure is shown with, and what its reproduction needs first. A requirement checked
// on every response (CONTRACT-1, ENV-1…) may be broken by a hundred answers of one operation, among
// them the generated area's requests with a 2,000-character query or a random body: the row shows the
// plainest of them (a scenario's before a generated one, then the shortest request), so the curl a
// reader pastes is the one that shows the cause and nothing else.
import type { Exchange } from './exchange.ts';

/** A successful creation of a world or a persona: what a reproduction may need to send first. */
export const isCreation = (x: Exchange) => (x.operationId === 'createWorld' || x.operationId === 'createPersona') && x.status >= 200 && x.status < 300;

/** The latest creation (of `creations`, in order) whose answer holds an id that `x`'s path names, with that id. */
export function creationAmong(creations: readonly Exchange[], x: Exchange): { id: string; exchange: Exchange } | undefined {
  let segments: string[];
  try {
    segments = new URL(x.url).pathname.split('/').filter((s) => s.length >= 4).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (let i = creations.length - 1; i >= 0; i--) {
    const c = creations[i];
    const id = c !== x ? segments.find((s) => c.responseBody.includes(JSON.stringify(s))) : undefined;
    if (id) return { id, exchange: c };
  }
  return undefined;
}

/** How much a reader must paste to repeat the request: its URL and body. */
const weight = (x: Exchange) => x.url.length + (x.requestBody?.length ?? 0);

/**
 * The plainest of `candidates` (none generated when one is not, then the least to paste, counting
 * the request `before(x)` names, which the reproduction sends first); the first on a tie.
 */
export function plainest(candidates: readonly Exchange[], generated: ReadonlySet<Exchange>, before: (x: Exchange) => Exchange | undefined = () => undefined): Exchange | undefined {
  const cost = (x: Exchange) => {
    const first = before(x);
    return weight(x) + (first ? weight(first) : 0);
  };
  let best: Exchange | undefined;
  for (const x of candidates) {
    if (!best) { best = x; continue; }
    const [a, b] = [Number(generated.has(x)), Number(generated.has(best))];
    if (a < b || (a === b && cost(x) < cost(best))) best = x;
  }
  return best;
}
