// Malformed URLs on the routes with ids (ERR-11 MUST, ERR-12 SHOULD), as a user's run judges them
// (without --strict): the reference passes both directly; behind a real Apache httpd (its 404 page to
// %2F) and lighttpd (its 400 page to a control character), each from the machine's packages with its
// stock configuration, the run still exits 0: ERR-11 partly verified (the kinds the stack answered
// were not the service's to judge) and ERR-12 warning, naming the stack by its Server header. A front
// that is not installed is said in one line; the direct run always runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { FrontMissing, type Front } from '../../suite/self-test/front.ts';
import { startApache } from '../../suite/self-test/apache.ts';
import { startLighttpd } from '../../suite/self-test/lighttpd.ts';
import { conformance } from './run-cli.ts';
import { budget } from '../budget.ts';

const KEY = 'mk_test_malformedurls00000000000';
const dir = mkdtempSync(join(tmpdir(), 'conformance-malformed-'));
let reference: RunningReference;
beforeAll(async () => { reference = await startReference({ keys: [{ key: KEY, tenantId: 't1', plan: 'enterprise', rpm: 1_000_000 }] }); }, budget(30_000));
afterAll(async () => { await reference?.close(); rmSync(dir, { recursive: true, force: true }); });

/** The run of ERR-11 and ERR-12 against a base URL: its exit status, and the outcome of each requirement. */
async function judge(name: string, baseUrl: string) {
  const reports = join(dir, name);
  const run = await conformance(['--base-url', baseUrl, '--api-key', KEY, '--only', 'ERR-11,ERR-12', '--report-dir', reports]);
  const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8'));
  const outcome = (id: string) => results.requirements.find((q: { id: string }) => q.id === id)?.outcome;
  return { code: run.code, stdout: run.stdout, err11: outcome('ERR-11'), err12: outcome('ERR-12') };
}

/** Runs behind a front, or says in one line that it is not installed here. */
async function behind(start: (upstream: string) => Promise<Front>, name: string) {
  let front: Front;
  try { front = await start(reference.url); } catch (err) {
    if (err instanceof FrontMissing) { process.stdout.write(`${name}: not run: ${err.message}\n`); return undefined; }
    throw err;
  }
  try { return await judge(name, front.url); } finally { await front.close(); }
}

describe('malformed URLs on the routes with ids', () => {
  it('the reference, directly: ERR-11 and ERR-12 pass', async () => {
    const r = await judge('direct', reference.url);
    expect([r.code, r.err11, r.err12], r.stdout.slice(-1500)).toEqual([0, 'pass', 'pass']);
  }, budget(60_000));

  it.each([
    ['Apache httpd', startApache, /Server: Apache\/2\.4/, /encoded slash/],
    ['lighttpd', startLighttpd, /Server: lighttpd\/1\.4/, /control character/],
  ])('the reference behind a real %s: exit 0, ERR-11 partly verified, ERR-12 warns naming it', async (name, start, server, kind) => {
    const r = await behind(start, name);
    if (!r) return;
    expect([r.code, r.err11, r.err12], r.stdout.slice(-1500)).toEqual([0, 'partial', 'warn']);
    expect(r.stdout).toMatch(server);
    expect(r.stdout).toMatch(kind);
  }, budget(90_000));
});
