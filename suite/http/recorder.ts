// Exchanges recorded since the last check finished; the setup file moves them into the finished
// check's metadata, where the reporter finds them (also those made in beforeAll: they go to the
// first check of the file). The last one is the exchange a failed assertion is shown with.
// The creations of the worker are kept too: a failure's reproduction needs the request that made the
// world or persona its own request names (cleanup deletes it once the run is over).
import type { Exchange } from '../data/exchange.ts';
import { creationAmong, isCreation } from '../data/plain-exchange.ts';
import { runScoped } from '../data/run-scope.ts';

let pending: Exchange[] = [];
const creations: Exchange[] = [];
const MAX_CREATIONS = 500;
runScoped(() => { pending = []; creations.length = 0; });

export function record(exchange: Exchange): void {
  pending.push(exchange);
  if (isCreation(exchange)) {
    creations.push(exchange);
    if (creations.length > MAX_CREATIONS) creations.shift();
  }
}

/** The latest creation whose answer holds an id that `x`'s path names, with that id. */
export const creationOf = (x: Exchange) => creationAmong(creations, x);
export function take(): Exchange[] {
  const out = pending;
  pending = [];
  return out;
}
export const lastRecorded = (): Exchange | undefined => pending[pending.length - 1];
/** The exchanges recorded since the last check finished (read, not taken). */
export const pendingExchanges = (): readonly Exchange[] => pending;
