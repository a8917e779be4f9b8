// npm run serve -- [--port 8080] [--host 127.0.0.1] [--keys keys.json] [--db data.sqlite]
// Runs the reference deployment until Ctrl-C. A bad option or file is one clear line and exit 2.
// The reference itself loads once the options are known good, so --help answers at once.
import { randomBytes } from 'node:crypto';
import type { KeyRecord } from '../reference/platform/index.ts';
import { helpText, parseOptions, type OptionSpec } from './common/options.ts';
import { UsageError } from './common/errors.ts';
import { isEntry, runCommand } from './common/command.ts';

const OPTIONS: OptionSpec[] = [
  { name: 'port', type: 'integer', default: 8080, description: 'port to listen on; 0 picks a free port' },
  { name: 'host', type: 'string', placeholder: 'ADDR', default: '127.0.0.1', description: 'address to bind' },
  { name: 'keys', type: 'string', placeholder: 'FILE', description: 'API keys: a JSON array of {"key", "tenantId", "plan", "rpm"?, "origins"?, "quotas"?} (default: one generated mk_test_ key on the pro plan, printed at start)' },
  { name: 'db', type: 'string', placeholder: 'FILE', description: 'SQLite file: every acknowledged write survives a crash and a restart; a damaged file is refused at start (default: memory, lost on exit)' },
  { name: 'rate-window-ms', type: 'integer', default: 60_000, description: 'rate-limit window in ms (the plans of SPEC.md are per minute)' },
  { name: 'log', type: 'boolean', default: false, description: 'log every request (JSON lines on stdout)' },
];
const ABOUT = 'Runs the reference deployment of the Simulation Service interface until Ctrl-C.';

/** Resolves (0) once the server has closed after Ctrl-C or SIGTERM. */
export async function main(argv: string[], env: NodeJS.ProcessEnv, invokedAs: string): Promise<number> {
  const v = parseOptions(OPTIONS, argv, env, 'SERVE');
  if (v.help) { process.stdout.write(helpText(`Usage: ${invokedAs} [options]`, ABOUT, OPTIONS, 'SERVE')); return 0; }
  if (Number(v['rate-window-ms']) < 1) throw new UsageError('--rate-window-ms must be at least 1');
  const { loadKeyFile } = await import('../reference/platform/index.ts');
  const { startReference } = await import('../reference/index.ts');
  let keys: KeyRecord[];
  let generated: string | undefined;
  try {
    keys = v.keys ? loadKeyFile(String(v.keys)) : [];
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!v.keys) {
    generated = `mk_test_${randomBytes(16).toString('hex')}`;
    keys = [{ key: generated, tenantId: 'default', plan: 'pro' }];
  }
  const db = v.db as string | undefined;
  const server = await startReference({
    port: Number(v.port), host: String(v.host), keys, db, rateLimitWindowMs: Number(v['rate-window-ms']), logger: v.log as boolean,
  }).catch((err: Error) => { throw new UsageError(err.message); });
  const lines = [
    `Reference deployment listening on ${server.url}${['0.0.0.0', '::'].includes(String(v.host)) ? ' (and every other interface)' : ''}`,
    `  store: ${db ? `SQLite ${db}` : 'memory (lost on exit; --db FILE to keep it)'}`,
    `  keys: ${keys.length} (${new Set(keys.map((k) => k.tenantId)).size} tenants)`,
    `  OpenAPI: ${server.url}/openapi.json`,
  ];
  if (generated) lines.push(`  generated key (tenant default, plan pro): ${generated}`);
  process.stdout.write(lines.join('\n') + '\n');
  return new Promise<number>((done) => {
    const stop = () => { void server.close().then(() => done(0)); };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

if (isEntry(import.meta.url)) runCommand('serve', main, process.argv.slice(2), 'npm run serve --');
