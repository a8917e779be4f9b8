// A real Apache httpd 2.4 in front of a deployment: its compiled-in defaults (AllowEncodedSlashes Off:
// a path holding %2F gets Apache's own 404 page; LimitRequestLine and LimitRequestFieldSize 8,190
// bytes), the modules a reverse proxy needs and one ProxyPass. Used by the stacks family (stacks.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findProgram, startFront, type Front } from './front.ts';

/** Debian's httpd and its modules' folder. */
const BINARY = () => findProgram('apache2') ?? findProgram('httpd');
const MODULES = ['/usr/lib/apache2/modules', '/usr/lib64/httpd/modules', '/usr/lib/httpd/modules'];

/** The configuration: the event MPM, the proxy modules, where its files go, one ProxyPass. Nothing about limits. */
export function apacheConfig(dir: string, port: number, upstream: URL, modules = MODULES[0]): string {
  return [
    ...['mpm_event', 'authz_core', 'proxy', 'proxy_http'].map((m) => `LoadModule ${m}_module ${join(modules, `mod_${m}.so`)}`),
    `ServerRoot ${dir}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${port}`,
    `PidFile ${join(dir, 'httpd.pid')}`,
    `ErrorLog ${join(dir, 'error.log')}`,
    `DefaultRuntimeDir ${dir}`,
    `Mutex file:${dir} default`,
    `ProxyPass / http://${upstream.host}/`,
    `ProxyPassReverse / http://${upstream.host}/`,
    '',
  ].join('\n');
}

/** Starts Apache httpd in front of `upstream`; throws FrontMissing when it is not installed. */
export function startApache(upstream: string): Promise<Front> {
  const modules = MODULES.find((m) => existsSync(join(m, 'mod_proxy.so'))) ?? MODULES[0];
  return startFront({
    name: 'Apache httpd', binary: BINARY(), install: 'Debian: apt-get install apache2', errorLog: 'error.log',
    config: { file: 'httpd.conf', text: (dir, port, up) => apacheConfig(dir, port, up, modules) },
    args: (dir, conf) => ['-d', dir, '-f', conf, '-DFOREGROUND'],
  }, upstream);
}
