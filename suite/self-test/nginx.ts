// A real nginx in front of a deployment, as the commonest front of all is set up: the stock limits
// (nothing about sizes or timeouts configured: 8 KiB of request line and headers, 1 MiB of body) and a
// plain proxy_pass. Used by the stacks family of the self-test (stacks.ts). nginx runs as a child of
// this process, unprivileged (as `nobody` when this process is root), with a configuration, logs, pid
// and temporary files in a new temporary folder removed on close; it listens on 127.0.0.1 only.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A server in front of a deployment, started for one run. */
export interface Front {
  url: string;
  close(): Promise<void>;
}

/** The front cannot run on this machine (its program is not installed): the entry is not run, and says why. */
export class FrontMissing extends Error {
  override readonly name = 'FrontMissing';
}

const WHERE = ['/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin', '/opt/homebrew/bin'];

/** The nginx program of this machine: on PATH or where packages put it; undefined when none. */
export function nginxBinary(): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...WHERE]) {
    const file = join(dir, 'nginx');
    try { accessSync(file, constants.X_OK); return file; } catch { /* next */ }
  }
  return undefined;
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

/** A free port on 127.0.0.1 (asked of the system, then released for nginx). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const accepts = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); });
  socket.on('error', () => resolve(false));
});

/** The uid and gid of `nobody`, for a root process to start nginx unprivileged. */
function nobody(): { uid: number; gid: number } {
  try {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'));
    const [, , uid, gid] = line?.split(':') ?? [];
    if (uid && gid) return { uid: Number(uid), gid: Number(gid) };
  } catch { /* the usual ids */ }
  return { uid: 65534, gid: 65534 };
}

/** Starts nginx in front of `upstream` (an http URL on loopback); throws FrontMissing when nginx is not installed. */
export async function startNginx(upstream: string): Promise<Front> {
  const binary = nginxBinary();
  if (!binary) throw new FrontMissing('nginx is not installed on this machine (Debian: apt-get install nginx)');
  const dir = mkdtempSync(join(tmpdir(), 'stack-nginx-'));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, new URL(upstream)));
  const user = process.getuid?.() === 0 ? nobody() : undefined;
  if (user) { chmodSync(dir, 0o755); chownSync(dir, user.uid, user.gid); chownSync(join(dir, 'nginx.conf'), user.uid, user.gid); }
  // -e: the error log from the first line on (the default one, under /var/log, is not ours to write).
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'], ...(user ?? {}),
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-2000); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => { gone = true; });
  const stop = async () => {
    if (!gone) { child.kill('SIGTERM'); await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]); }
    if (!gone) { child.kill('SIGKILL'); await exited; }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (gone || Date.now() > until) {
      let log = '';
      try { log = readFileSync(join(dir, 'error.log'), 'utf8'); } catch { /* none */ }
      await stop();
      throw new Error(`nginx did not start: ${(stderr || log).trim().split('\n').slice(-2).join(' ').slice(0, 300) || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, close: stop };
}
