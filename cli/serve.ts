// npm run serve -- [--port 8080] [--host 127.0.0.1] [--keys keys.json] [--db data.sqlite]
// Runs the reference deployment until Ctrl-C. A bad option or file is one clear line and exit 2.
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { loadKeyFile, type KeyRecord } from '../reference/platform/index.ts';
import { startReference } from '../reference/index.ts';

const HELP = `Usage: npm run serve -- [options]

Runs the reference deployment of the Simulation Service interface.

Options:
  --port N              port to listen on (default 8080; 0 picks a free port)
  --host ADDR           address to bind (default 127.0.0.1)
  --keys FILE           API keys: a JSON array of {"key", "tenantId", "plan", "rpm"?, "origins"?}
                        (default: one generated mk_test_ key on the pro plan, printed at start)
  --db FILE             SQLite file: every acknowledged write survives a crash and a restart
                        (default: memory, lost on exit)
  --rate-window-ms N    rate-limit window in ms (default 60000, the per-minute plans of SPEC.md)
  --log                 log every request (JSON lines on stdout)
  -h, --help            this help
`;

function die(message: string): never {
  process.stderr.write(`serve: ${message}\n`);
  process.exit(2);
}

function positiveInt(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) die(`--${name} must be an integer ≥ ${min}, got '${value}'`);
  return n;
}

async function main() {
  let args;
  try {
    args = parseArgs({
      options: {
        port: { type: 'string' }, host: { type: 'string' }, keys: { type: 'string' }, db: { type: 'string' },
        'rate-window-ms': { type: 'string' }, log: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
      },
      strict: true, allowPositionals: false,
    }).values;
  } catch (err) {
    die(`${(err as Error).message} (see --help)`);
  }
  if (args.help) { process.stdout.write(HELP); return; }

  const port = positiveInt('port', args.port, 8080, 0);
  const windowMs = positiveInt('rate-window-ms', args['rate-window-ms'], 60_000);
  let keys: KeyRecord[];
  let generated: string | undefined;
  try {
    keys = args.keys ? loadKeyFile(args.keys) : [];
  } catch (err) {
    die((err as Error).message);
  }
  if (!args.keys) {
    generated = `mk_test_${randomBytes(16).toString('hex')}`;
    keys = [{ key: generated, tenantId: 'default', plan: 'pro' }];
  }

  let server;
  try {
    server = await startReference({ port, host: args.host ?? '127.0.0.1', keys, db: args.db, rateLimitWindowMs: windowMs, logger: args.log });
  } catch (err) {
    die((err as Error).message);
  }
  const lines = [
    `Reference deployment listening on ${server.url}`,
    `  store: ${args.db ? `SQLite ${args.db}` : 'memory (lost on exit; --db FILE to keep it)'}`,
    `  keys: ${keys.length} (${[...new Set(keys.map((k) => k.tenantId))].length} tenants)`,
    `  OpenAPI: ${server.url}/openapi.json`,
  ];
  if (generated) lines.push(`  generated key (tenant default, plan pro): ${generated}`);
  process.stdout.write(lines.join('\n') + '\n');

  const stop = async () => { await server.close(); process.exit(0); };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
