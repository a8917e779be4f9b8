// Warms the runner's request path before the clock starts. A fresh process runs its first few
// thousand requests through code V8 has not optimised yet, and their slower handling lands in the
// service time's tail. Against a target answering after 5 ms at 200 req/s: the client alone read
// a p99 of 7.8–8.7 ms cold and 6.7–7.6 ms warmed (three runs each; k6 6.5–6.8 ms); a whole run,
// seven alternating pairs, p95 6.61 → 6.47 ms and p99 8.61 → 8.46 ms (medians; lower in five
// pairs of seven): a small gain, for half a second. The requests go to a route of this process
// on loopback, never to the target, whose rate budget stays untouched.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadRequest } from '../model/mix.ts';
import { createClient } from './client.ts';

export const WARM_UP_REQUESTS = 3000;
const CONNECTIONS = 8;

/** Sends `count` requests of the run's mix to a local route that answers `{}` at once. */
export async function warmUp(requestAt: (k: number) => LoadRequest, count = WARM_UP_REQUESTS): Promise<void> {
  if (count <= 0) return;
  const server = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const client = createClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'warm-up', { connections: CONNECTIONS });
  try {
    await new Promise<void>((done) => {
      let k = 0;
      let active = 0;
      const next = () => {
        if (k >= count) {
          if (active === 0) done();
          return;
        }
        active++;
        client.dispatch(requestAt(k++), () => { active--; next(); });
      };
      for (let i = 0; i < CONNECTIONS; i++) next();
    });
  } finally {
    await client.close();
    server.closeAllConnections();
    server.close();
  }
}
