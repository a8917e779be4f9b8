// Exchanges recorded since the last test finished; the setup file moves them into the finished
// test's metadata, where the reporter finds them (also those made in beforeAll: they go to the
// first test of the file).
import type { Exchange } from './exchange.ts';

let pending: Exchange[] = [];
export function record(exchange: Exchange): void { pending.push(exchange); }
export function take(): Exchange[] {
  const out = pending;
  pending = [];
  return out;
}
