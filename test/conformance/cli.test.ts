// The conformance command as a user meets it: the embedded run passes and writes its reports without
// any key in them; a bad start is one line and exit 2; what a run creates is gone afterwards, also
// when it is interrupted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createServer, type AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { conformance } from './run-cli.ts';
import { REQUIREMENTS } from '../../contract/requirements.ts';
import { budget } from '../budget.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'mk_test_cli_main_key_000000000001';
const SECOND = 'mk_test_cli_second_key_0000000001';

describe('npm run conformance against the embedded reference', () => {
  let run: Awaited<ReturnType<typeof conformance>>;
  const reports = join(dir, 'embedded');
  beforeAll(async () => { run = await conformance(['--report-dir', reports]); }, budget(120_000));

  it('passes with no MUST failure and no SHOULD warning', () => {
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8'));
    expect(results.summary.MUST.fail).toBe(0);
    const warned = results.checks.filter((c: { outcome: string }) => c.outcome === 'warn').map((c: { id: string; failure?: { message: string } }) => `${c.id}: ${c.failure?.message.slice(0, 300)}`);
    expect(warned, 'SHOULD checks that warned').toEqual([]);
    expect(results.summary.MUST.error + results.summary.SHOULD.error, JSON.stringify(results.checks.filter((c: any) => c.outcome === "error").map((c: any) => [c.id, c.reason, c.failure?.message?.slice(0, 300)]))).toBe(0);
    expect(results.summary.MUST['not-run']).toBe(0);
    // The generated area's seed, on a passing run too: the same --seed repeats its requests.
    expect(results.seed).toEqual(expect.any(Number));
    expect(readFileSync(join(reports, 'report.html'), 'utf8')).toContain(`<dt>Seed</dt><dd>${results.seed} `);
  });

  it('shows progress and a summary', () => {
    expect(run.stdout).toMatch(/✓ worlds: \[WORLD-1\]/);
    // A wait is announced before it starts, never a silent minute.
    expect(run.stdout).toMatch(/⏳ rate-limit: \[RATE-\d\] .*Retry-After.*, \d+ s\n/);
    expect(run.stdout).toMatch(/PASS/);
  });

  it('writes the three reports, none holding a key', () => {
    const files = readdirSync(reports);
    for (const f of ['junit.xml', 'results.json', 'report.html']) expect(files).toContain(f);
    for (const f of files) {
      const text = readFileSync(join(reports, f), 'utf8');
      // The embedded reference's keys are mk_test_<role>_<16 hex>; none may appear.
      expect(text, f).not.toMatch(/mk_(test|live)_[a-z]+_[0-9a-f]{16}/);
    }
    expect(run.stdout).not.toMatch(/mk_(test|live)_[a-z]+_[0-9a-f]{16}/);
  });
});

describe('npm run conformance against a deployment given by --base-url', () => {
  let server: RunningReference;
  beforeAll(async () => {
    server = await startReference({ keys: [
      { key: KEY, tenantId: 'cli-a', plan: 'enterprise', rpm: 1_000_000 },
      { key: SECOND, tenantId: 'cli-b', plan: 'enterprise', rpm: 1_000_000 },
    ] });
  });
  afterAll(async () => server.close());

  const live = async (kind: 'worlds' | 'personas') => {
    const res = await request(`${server.url}/${kind}?limit=100`, { headers: { 'x-api-key': KEY } });
    return ((await res.body.json()) as any).result[kind] as Array<{ id: string; definition?: any; config?: any }>;
  };

  it('soft-deletes everything the run created, and keys stay out of the output', async () => {
    const run = await conformance(['--base-url', server.url, '--api-key', KEY, '--second-key', SECOND, '--only', 'worlds,states,personas,isolation', '--report-dir', join(dir, 'external')]);
    expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/cleanup: soft-deleted [1-9]\d* of [1-9]\d* resources/);
    expect(await live('worlds')).toEqual([]);
    expect(await live('personas')).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stdout + run.stderr).not.toContain(SECOND);
    expect(readFileSync(join(dir, 'external', 'results.json'), 'utf8')).not.toContain(KEY);
  }, budget(120_000));

  it('cleans up after Ctrl-C and exits 2', async () => {
    let sent = false;
    const run = await conformance(['--base-url', server.url, '--api-key', KEY, '--only', 'worlds,simulation', '--report-dir', join(dir, 'interrupted')], {
      onStdout: (out, child) => {
        if (!sent && /✓ worlds:/.test(out)) { sent = true; child.kill('SIGINT'); }
      },
    });
    expect(sent).toBe(true);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(2);
    expect(run.stdout).toMatch(/Ctrl-C: stopping the checks/);
    expect(await live('worlds')).toEqual([]);
    // The reports are written, the unfinished checks "not run" with the reason.
    const results = JSON.parse(readFileSync(join(dir, 'interrupted', 'results.json'), 'utf8'));
    expect(results.stopped).toMatch(/interrupted/);
    expect(results.checks.some((c: any) => c.outcome === 'not-run' && /interrupted/.test(c.reason ?? ''))).toBe(true);
    // Every check of both areas is listed, the simulation area's too though it never started, and
    // the JUnit says the run was interrupted in a failed testcase, each name once.
    const simulation = REQUIREMENTS.filter((q) => q.area === 'simulation').map((q) => q.id);
    const listed = new Set(results.checks.flatMap((c: any) => c.requirementIds));
    expect(simulation.filter((id) => !listed.has(id))).toEqual([]);
    const junit = readFileSync(join(dir, 'interrupted', 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="\[run\] the run ran to its end"[^>]*>\s*<failure message="the run stopped before its end: interrupted \(SIGINT\)/);
    const names = [...junit.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"/g)].map((m) => `${m[2]} ${m[1]}`);
    expect(new Set(names).size).toBe(names.length);
  }, budget(120_000));

  it('still cleans up everything when Ctrl-C is pressed twice, and says what is left', async () => {
    let sent = 0;
    const run = await conformance(['--base-url', server.url, '--api-key', KEY, '--only', 'simulation,progression', '--report-dir', join(dir, 'twice')], {
      onStdout: (out, child) => {
        if (sent === 0 && /✓ simulation:/.test(out)) { sent = 1; child.kill('SIGINT'); setTimeout(() => { sent = 2; child.kill('SIGINT'); }, 50); }
      },
    });
    expect(sent).toBe(2);
    expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(2);
    expect(run.stdout).toMatch(/still cleaning up|cleanup: soft-deleted/);
    expect(await live('worlds')).toEqual([]);
    expect(readdirSync(join(dir, 'twice')).filter((f) => f.startsWith('.created-'))).toEqual([]);
  }, budget(120_000));

  it('given two keys of one tenant, names the key of each request in the curls and says both readings', async () => {
    const sameTenant = await startReference({ keys: [
      { key: KEY, tenantId: 'cli-a', plan: 'enterprise', rpm: 1_000_000 },
      { key: SECOND, tenantId: 'cli-a', plan: 'enterprise', rpm: 1_000_000 },
    ] });
    try {
      const run = await conformance(['--base-url', sameTenant.url, '--api-key', KEY, '--second-key', SECOND, '--only', 'ISO-2', '--report-dir', join(dir, 'same-tenant')]);
      expect(run.code, run.stdout.slice(-3000) + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/either tenant isolation is broken, or the two keys belong to one tenant/);
      // The failing request went out with the second key: its curl says so.
      expect(run.stdout).toMatch(/curl -i -X GET '[^']*\/worlds[^']*' .*-H "X-API-Key: \$SECOND_API_KEY"/);
    } finally {
      await sameTenant.close();
    }
  }, budget(120_000));

  it('removes what a ledger lists with --cleanup, then the ledger itself', async () => {
    const created = await request(`${server.url}/worlds`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ definition: { identity: { name: 'left behind' } }, entities: [] }) });
    const worldId = ((await created.body.json()) as any).result.worldId;
    const ledger = join(dir, 'left.jsonl');
    writeFileSync(ledger, `${JSON.stringify({ kind: 'world', id: worldId, baseUrl: server.url })}\n`);
    const run = await conformance(['--cleanup', ledger, '--api-key', KEY]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/soft-deleted 1 of 1/);
    expect((await live('worlds')).map((w) => w.id)).not.toContain(worldId);
    expect(existsSync(ledger)).toBe(false);
  }, budget(60_000));
});

describe('a run that cannot start', () => {
  it('says why in one line and exits 2 when the target is unreachable, and leaves reports naming the cause', async () => {
    const reports = join(dir, 'unreachable');
    const run = await conformance(['--base-url', 'http://127.0.0.1:9', '--api-key', KEY, '--report-dir', reports]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    // The CI step that publishes junit.xml finds the cause as a failed testcase.
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase name="\[run\] the target could be checked"[^>]*>\s*<failure message="the run did not start: cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8'))).toMatchObject({ exitCode: 2, notStarted: expect.stringMatching(/cannot reach/) });
    expect(junit + readFileSync(join(reports, 'results.json'), 'utf8')).not.toContain(KEY);
  });

  it('leaves reports naming the cause when Ctrl-C comes during the preflight', async () => {
    const reports = join(dir, 'early');
    let child: ChildProcess | undefined;
    // A target that takes the preflight's request and never answers: Ctrl-C once it has arrived.
    const silent = createServer(() => child?.kill('SIGINT'));
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    try {
      const run = await conformance(['--base-url', `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, '--api-key', KEY, '--timeout-ms', '60000', '--report-dir', reports], {
        onStart: (c) => { child = c; },
      });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toMatch(/<failure message="the run did not start: interrupted \(SIGINT\) before the checks started"/);
    } finally {
      silent.close();
    }
  }, budget(90_000));

  it('refuses a live key without --allow-live, without printing it', async () => {
    const run = await conformance(['--base-url', 'http://127.0.0.1:9', '--api-key', 'mk_live_secret_value_123']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--allow-live/);
    expect(run.stderr).not.toContain('secret_value_123');
  });

  it('leaves a junit.xml naming the cause when the known-failures file has a typo', async () => {
    const reports = join(dir, 'bad-known');
    const file = join(dir, 'known-failures.yaml');
    writeFileSync(file, '- id: PROG-3\n  reason: tracked\n  expiress: 2027-12-31\n');
    const run = await conformance(['--known-failures', file, '--report-dir', reports]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/unknown member 'expiress'/)]);
    expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).toMatch(/<failure message="the run did not start: --known-failures .*unknown member &apos;expiress&apos;/);
  });

  it('offers the option a mistyped flag meant', async () => {
    const run = await conformance(['--report-dri', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("conformance: Unknown option '--report-dri': did you mean --report-dir? (see --help)");
  });

  it('refuses an unknown flag, a bad value and a bad environment twin', async () => {
    for (const [args, env] of [[['--bogus'], {}], [['--only', 'nowhere'], {}], [[], { CONFORMANCE_TIMEOUT_MS: 'soon' }]] as const) {
      const run = await conformance([...args], { env: { ...env } });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, budget(90_000));

  it('lists every option with its environment twin in --help', async () => {
    const run = await conformance(['--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--base-url', '--api-key', '--second-key', '--plan', '--rate-limit-key', '--origin-key', '--allowed-origin', '--only', '--strict', '--allow-live', '--allow-billable', '--keep', '--report-dir', '--timeout-ms', '--max-body-mb']) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain('CONFORMANCE_BASE_URL');
  });
});
