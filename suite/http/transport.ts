// How the suite's requests reach a target, in every process of a run (the command, the scenario
// workers): undici's dispatchers, configured to behave as curl or a browser would.
//
// - Proxies: HTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured by undici's EnvHttpProxyAgent. An http
//   URL goes to the proxy in absolute form (as curl does; many proxies allow CONNECT only to 443),
//   an https URL through a CONNECT tunnel. Loopback is never proxied (suite/http/proxy.ts).
// - A stale keep-alive connection (closed by the target as the request went out, before any byte of
//   the answer) is not the target's failure: undici's retry interceptor sends the request again on a
//   new connection, for idempotent methods only, and for nothing else (suite/http/stale.ts). undici
//   does not do this by itself, and its retry interceptor's defaults would also retry 429, 5xx and
//   refused connections after a wait, which would hide the target's own failures; the decision here
//   replaces them.
// - POST and PATCH are never sent twice: HTTP lets a client repeat a non-idempotent request only when
//   it knows the first was never applied (RFC 9110 §9.2.2), and a repeated POST may create a second
//   world or count an event twice, a false failure of its own. Instead each one goes on a connection
//   opened for it (`reset`: closed after its answer, never pooled), so it can never meet a stale
//   connection; a connection closed before its answer is then the target's doing. The price is one
//   connection (and TLS handshake) per POST or PATCH.
// - An answer's size is capped (undici's maxResponseSize, --max-body-mb): past the cap the connection
//   is closed and the exchange is the target's failure; nothing reads on, so memory stays bounded,
//   and what was read is collected at once (suite/http/cut-answers.ts).
import { EnvHttpProxyAgent, Pool, interceptors, type Dispatcher } from 'undici';
import { IDEMPOTENT, retryStale } from './stale.ts';
import { noProxy, proxies } from './proxy.ts';
import { DEFAULT_MAX_BODY_MB, mbToBytes } from '../data/body-cap.ts';
import { releaseCutAnswer } from './cut-answers.ts';
import { runScoped } from '../data/run-scope.ts';

export { DEFAULT_MAX_BODY_MB, mbToBytes };

interface Dispatchers { reused: Dispatcher; fresh: Dispatcher }
const built = new Map<number, Dispatchers>();
// A run's connections end with it (its target, often a proxy of its own, is gone).
runScoped(() => {
  for (const d of built.values()) for (const dispatcher of [d.reused, d.fresh]) void dispatcher.destroy().catch(() => undefined);
  built.clear();
});

/** A connection closed for an answer over the cap left its chunks behind: they are released at once (suite/http/cut-answers.ts). */
function watchCuts(pool: Pool, maxBodyBytes: number): Pool {
  return pool.on('disconnect', (_origin, _targets, err) => {
    if ((err as { code?: string } | undefined)?.code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') releaseCutAnswer(maxBodyBytes);
  });
}

function build(maxBodyBytes: number): Dispatchers {
  const { http, https } = proxies();
  const agent = () => new EnvHttpProxyAgent({
    // Given explicitly ('' for none), so undici and the run's header read the environment alike.
    httpProxy: http ?? '', httpsProxy: https ?? '', noProxy: noProxy(),
    proxyTunnel: false,
    maxResponseSize: maxBodyBytes,
    // Every pool gets the cap, the one undici opens to a forward proxy included.
    factory: (origin, options) => watchCuts(new Pool(origin, { ...options, maxResponseSize: maxBodyBytes }), maxBodyBytes),
  });
  return {
    reused: agent().compose(interceptors.retry({ retry: retryStale, statusCodes: [], methods: [...IDEMPOTENT] })),
    fresh: agent(),
  };
}

/** What to add to undici's request() for this method: the dispatcher, and for POST or PATCH a connection of its own. */
export function transport(method: string, maxBodyBytes = mbToBytes(DEFAULT_MAX_BODY_MB)): { dispatcher: Dispatcher; reset?: boolean } {
  let d = built.get(maxBodyBytes);
  if (!d) built.set(maxBodyBytes, (d = build(maxBodyBytes)));
  return IDEMPOTENT.has(method.toUpperCase()) ? { dispatcher: d.reused } : { dispatcher: d.fresh, reset: true };
}
