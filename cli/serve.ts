// npm run serve -- [--port 8080] [--host 127.0.0.1] [--keys keys.json] [--db data.sqlite]
// Runs the reference deployment until Ctrl-C. A bad option or file is one clear line and exit 2.
import { randomBytes } from 'node:crypto';
import { loadKeyFile, type KeyRecord } from '../reference/platform/index.ts';
import { startReference } from '../reference/index.ts';
import { helpText, parseOptions, type OptionSpec } from './common/options.ts';
import { UsageError, exitWith } from './common/errors.ts';

const OPTIONS: OptionSpec[] = [
  { name: 'port', type: 'integer', default: 8080, description: 'port to listen on; 0 picks a free port' },
  { name: 'host', type: 'string', placeholder: 'ADDR', default: '127.0.0.1', description: 'address to bind' },
  { name: 'keys', type: 'string', placeholder: 'FILE', description: 'API keys: a JSON array of {"key", "tenantId", "plan", "rpm"?, "origins"?} (default: one generated mk_test_ key on the pro plan, printed at start)' },
  { name: 'db', type: 'string', placeholder: 'FILE', description: 'SQLite file: every acknowledged write survives a crash and a restart (default: memory, lost on exit)' },
  { name: 'rate-window-ms', type: 'integer', default: 60_000, description: 'rate-limit window in ms (the plans of SPEC.md are per minute)' },
  { name: 'log', type: 'boolean', default: false, description: 'log every request (JSON lines on stdout)' },
];
const USAGE = 'Usage: npm run serve -- [options]';
const ABOUT = 'Runs the reference deployment of the Simulation Service interface until Ctrl-C.';

async function main() {
  const v = parseOptions(OPTIONS, process.argv.slice(2), process.env, 'SERVE');
  if (v.help) { process.stdout.write(helpText(USAGE, ABOUT, OPTIONS, 'SERVE')); return; }
  if (Number(v['rate-window-ms']) < 1) throw new UsageError('--rate-window-ms must be at least 1');
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
    `Reference deployment listening on ${server.url}`,
    `  store: ${db ? `SQLite ${db}` : 'memory (lost on exit; --db FILE to keep it)'}`,
    `  keys: ${keys.length} (${new Set(keys.map((k) => k.tenantId)).size} tenants)`,
    `  OpenAPI: ${server.url}/openapi.json`,
  ];
  if (generated) lines.push(`  generated key (tenant default, plan pro): ${generated}`);
  process.stdout.write(lines.join('\n') + '\n');
  const stop = async () => { await server.close(); process.exit(0); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => exitWith('serve', err));
