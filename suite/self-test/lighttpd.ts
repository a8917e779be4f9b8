// A real lighttpd 1.4 in front of a deployment: its defaults (it answers its own 400 to a GET that
// carries a body and to a control character in the URL, decodes %2F and removes dot segments before
// proxying), mod_proxy and one proxy.server. Used by the stacks family (stacks.ts).
import { join } from 'node:path';
import { findProgram, startFront, type Front } from './front.ts';

/** The configuration: where its files go, mod_proxy and one backend. Nothing about limits or parsing. */
export function lighttpdConfig(dir: string, port: number, upstream: URL): string {
  return [
    `server.document-root = "${dir}"`,
    'server.bind = "127.0.0.1"',
    `server.port = ${port}`,
    `server.errorlog = "${join(dir, 'error.log')}"`,
    'server.modules = ( "mod_proxy" )',
    `proxy.server = ( "" => ( ( "host" => "${upstream.hostname}", "port" => ${upstream.port} ) ) )`,
    '',
  ].join('\n');
}

/** Starts lighttpd in front of `upstream`; throws FrontMissing when it is not installed. */
export function startLighttpd(upstream: string): Promise<Front> {
  return startFront({
    name: 'lighttpd', binary: findProgram('lighttpd'), install: 'Debian: apt-get install lighttpd', errorLog: 'error.log',
    config: { file: 'lighttpd.conf', text: lighttpdConfig },
    args: (_dir, conf) => ['-D', '-f', conf],
  }, upstream);
}
