// A real HAProxy in front of a deployment: Debian's stock defaults section (mode http, its three
// timeouts) and one frontend with one server. Used by the stacks family (stacks.ts).
import { findProgram, startFront, type Front } from './front.ts';

/** The configuration: the stock defaults, one frontend, one backend server. Nothing about limits. */
export function haproxyConfig(_dir: string, port: number, upstream: URL): string {
  return [
    'defaults',
    '  mode http',
    '  timeout connect 5000',
    '  timeout client 50000',
    '  timeout server 50000',
    'frontend front',
    `  bind 127.0.0.1:${port}`,
    '  default_backend service',
    'backend service',
    `  server s1 ${upstream.host}`,
    '',
  ].join('\n');
}

/** Starts HAProxy in front of `upstream`; throws FrontMissing when it is not installed. */
export function startHaproxy(upstream: string): Promise<Front> {
  return startFront({
    name: 'HAProxy', binary: findProgram('haproxy'), install: 'Debian: apt-get install haproxy',
    config: { file: 'haproxy.cfg', text: haproxyConfig },
    args: (_dir, conf) => ['-db', '-f', conf],
  }, upstream);
}
