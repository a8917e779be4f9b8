// Exchanges recorded since the last check finished; the setup file moves them into the finished
// check's metadata, where the reporter finds them (also those made in beforeAll: they go to the
// first check of the file). The last one is the exchange a failed assertion is shown with.
import type { Exchange } from '../data/exchange.ts';

let pending: Exchange[] = [];
export function record(exchange: Exchange): void { pending.push(exchange); }
export function take(): Exchange[] {
  const out = pending;
  pending = [];
  return out;
}
export const lastRecorded = (): Exchange | undefined => pending[pending.length - 1];
/** The exchanges recorded since the last check finished (read, not taken). */
export const pendingExchanges = (): readonly Exchange[] => pending;
