// Which proxy a target is reached through, by the environment a CI runner sets: HTTPS_PROXY for
// https URLs, HTTP_PROXY for http ones (either case; HTTPS_PROXY falls back to HTTP_PROXY), none for
// the hosts NO_PROXY names. The rules are undici's EnvHttpProxyAgent's (which makes the connections,
// suite/http/transport.ts); this file only says them ahead, for the run's header and its messages.
// Loopback hosts are never proxied (as Go and curl's defaults do): the embedded reference, or a
// deployment on this machine, is not behind the runner's proxy.

/** Hosts added to NO_PROXY: this machine. */
export const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** A variable in either case (lower first, as curl reads them); an empty value is no value. */
const env = (name: string) => process.env[name.toLowerCase()] || process.env[name.toUpperCase()] || undefined;

/** The proxies the environment sets: HTTPS_PROXY falls back to HTTP_PROXY. The transport is given these, so that it and this file agree. */
export function proxies(): { http?: string; https?: string } {
  const http = env('http_proxy');
  return { http, https: env('https_proxy') ?? http };
}

/** The NO_PROXY list the transport uses: the environment's and loopback; '*' proxies nothing. */
export function noProxy(): string {
  const given = env('no_proxy') ?? '';
  return given.trim() === '*' ? '*' : [given, ...LOOPBACK].filter(Boolean).join(',');
}

export interface ProxyUse {
  /** The proxy's URL as it may be shown (credentials removed). */
  shown: string;
  /** The variable it came from. */
  from: 'HTTP_PROXY' | 'HTTPS_PROXY';
}

/** A proxy URL without its user and password. */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url.replace(/\/$/, '');
    u.username = '';
    u.password = '';
    return `${u.toString().replace(/\/$/, '')} (credentials not shown)`;
  } catch {
    return '(a proxy URL that cannot be read)';
  }
}

/** The proxy requests to `url` go through, or undefined when they go direct. */
export function proxyFor(url: string): ProxyUse | undefined {
  let u: URL;
  try { u = new URL(url); } catch { return undefined; }
  const http = env('http_proxy');
  const https = env('https_proxy');
  const chosen = u.protocol === 'https:' ? (https ? { url: https, from: 'HTTPS_PROXY' as const } : http ? { url: http, from: 'HTTP_PROXY' as const } : undefined)
    : http ? { url: http, from: 'HTTP_PROXY' as const } : undefined;
  if (!chosen) return undefined;
  const hostname = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(u.port, 10) || (u.protocol === 'https:' ? 443 : 80);
  const list = noProxy();
  if (list === '*') return undefined;
  for (const entry of list.split(/[,\s]/).filter(Boolean)) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const host = (m ? m[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return undefined;
  }
  return { shown: withoutCredentials(chosen.url), from: chosen.from };
}
