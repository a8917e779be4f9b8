// A real HTTP server started in front of a deployment for one run of the stacks family (stacks.ts):
// nginx, Apache httpd, lighttpd, HAProxy, Caddy, each from the machine's own packages with its stock
// configuration and only the lines that make it a reverse proxy. The server runs as a child of this
// process, unprivileged (as `nobody` when this process is root), with its configuration, logs, pid and
// temporary files in a new temporary folder removed on close; it listens on 127.0.0.1 only.
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

const WHERE = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', '/usr/local/bin', '/opt/homebrew/bin'];

/** A program of this machine: on PATH or where packages put it; undefined when none. */
export function findProgram(name: string, extraDirs: string[] = []): string | undefined {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...WHERE, ...extraDirs]) {
    const file = join(dir, name);
    try { accessSync(file, constants.X_OK); return file; } catch { /* next */ }
  }
  return undefined;
}

/** A free port on 127.0.0.1 (asked of the system, then released for the server). */
export async function freePort(): Promise<number> {
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

/** The uid and gid of `nobody`, for a root process to start a server unprivileged. */
function nobody(): { uid: number; gid: number } {
  try {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'));
    const [, , uid, gid] = line?.split(':') ?? [];
    if (uid && gid) return { uid: Number(uid), gid: Number(gid) };
  } catch { /* the usual ids */ }
  return { uid: 65534, gid: 65534 };
}

/** How to start one server: its program, its configuration file, its arguments (all in `dir`). */
export interface FrontSpec {
  /** The server's name, for messages. */
  name: string;
  /** Its program, found on this machine, or undefined (the entry is then not run). */
  binary: string | undefined;
  /** How to install it, said when it is missing. */
  install: string;
  /** The configuration file's name and text, for a server on 127.0.0.1:`port` in front of `upstream`. */
  config: { file: string; text: (dir: string, port: number, upstream: URL) => string };
  /** The arguments that run it in the foreground on that file. */
  args: (dir: string, configFile: string) => string[];
  /** Its error log in `dir`, read when it does not start. */
  errorLog?: string;
  /** Environment beyond PATH (a home for a server that writes state). */
  env?: (dir: string) => Record<string, string>;
}

/** Starts a server in front of `upstream` (an http URL on loopback); throws FrontMissing when it is not installed. */
export async function startFront(spec: FrontSpec, upstream: string): Promise<Front> {
  if (!spec.binary) throw new FrontMissing(`${spec.name} is not installed on this machine (${spec.install})`);
  const dir = mkdtempSync(join(tmpdir(), `stack-${spec.name.toLowerCase().replace(/\W+/g, '-')}-`));
  const port = await freePort();
  const configFile = join(dir, spec.config.file);
  writeFileSync(configFile, spec.config.text(dir, port, new URL(upstream)));
  const user = process.getuid?.() === 0 ? nobody() : undefined;
  if (user) { chmodSync(dir, 0o755); chownSync(dir, user.uid, user.gid); chownSync(configFile, user.uid, user.gid); }
  const child: ChildProcess = spawn(spec.binary, spec.args(dir, configFile), {
    stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}), cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...(spec.env?.(dir) ?? {}) },
  });
  let output = '';
  const keep = (d: Buffer) => { output = (output + d.toString()).slice(-2000); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
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
      try { log = spec.errorLog ? readFileSync(join(dir, spec.errorLog), 'utf8') : ''; } catch { /* none */ }
      await stop();
      throw new Error(`${spec.name} did not start: ${(output || log).trim().split('\n').slice(-2).join(' ').slice(0, 300) || 'no output'}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}`, close: stop };
}
