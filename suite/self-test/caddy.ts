// A real Caddy 2 in front of a deployment: its defaults and one reverse_proxy; no admin endpoint (two
// Caddys on one machine would want the same port), its state in the run's folder. Used by the stacks
// family (stacks.ts).
import { join } from 'node:path';
import { findProgram, startFront, type Front } from './front.ts';

/** The Caddyfile: one plain-HTTP site on 127.0.0.1 and its reverse_proxy. Nothing about limits. */
export function caddyConfig(_dir: string, port: number, upstream: URL): string {
  return [
    '{',
    '  admin off',
    '}',
    `http://127.0.0.1:${port} {`,
    '  bind 127.0.0.1',
    `  reverse_proxy ${upstream.host}`,
    '}',
    '',
  ].join('\n');
}

/** Starts Caddy in front of `upstream`; throws FrontMissing when it is not installed. */
export function startCaddy(upstream: string): Promise<Front> {
  return startFront({
    name: 'Caddy', binary: findProgram('caddy'), install: 'Debian: apt-get install caddy',
    config: { file: 'Caddyfile', text: caddyConfig },
    args: (_dir, conf) => ['run', '--config', conf, '--adapter', 'caddyfile'],
    env: (dir) => ({ XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') }),
  }, upstream);
}
