// A real nginx in front of a deployment, as the commonest front of all is set up: the stock limits
// (nothing about sizes or timeouts configured: 8 KiB of request line and headers, 1 MiB of body) and a
// plain proxy_pass. Used by the stacks family of the self-test (stacks.ts); started by front.ts.
import { join } from 'node:path';
import { findProgram, startFront, type Front } from './front.ts';

export { FrontMissing, type Front } from './front.ts';

/** The nginx program of this machine: on PATH or where packages put it; undefined when none. */
export function nginxBinary(): string | undefined {
  return findProgram('nginx', ['/usr/local/nginx/sbin']);
}

/** The configuration: everything nginx defaults to, but where its files go and the one proxy_pass. */
export function nginxConfig(dir: string, port: number, upstream: URL): string {
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} error;`,
    'events { worker_connections 512; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, t)};`),
    '  server {',
    `    listen 127.0.0.1:${port};`,
    `    location / { proxy_pass http://${upstream.host}; }`,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** Starts nginx in front of `upstream` (an http URL on loopback); throws FrontMissing when nginx is not installed. */
export function startNginx(upstream: string): Promise<Front> {
  return startFront({
    name: 'nginx', binary: nginxBinary(), install: 'Debian: apt-get install nginx', errorLog: 'error.log',
    config: { file: 'nginx.conf', text: nginxConfig },
    // -e: the error log from the first line on (the default one, under /var/log, is not ours to write).
    args: (dir, conf) => ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')],
  }, upstream);
}
