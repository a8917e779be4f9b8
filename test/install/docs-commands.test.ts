// Docs that a user copies must work as written: the ready-to-copy CI files (docs/ci/) are valid YAML,
// every `simulation-conformance` command they run parses with the command's real options and the
// environment the job gives it (each CONFORMANCE_* / LOAD_* variable an option's twin), and they
// publish the JUnit report, gate only a deploy that succeeded, keep the hidden cleanup ledger and
// make the first load baseline when there is none (the load step's script run by bash). The
// documented helper `npx tsx load/k6-host/testrun.ts` answers --help and a missing flag in one line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { envName, parseOptions, type OptionSpec } from '../../cli/common/options.ts';
import { OPTIONS as CONFORMANCE } from '../../cli/conformance/options.ts';
import { SPECS as LOAD } from '../../cli/load.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMANDS: Record<string, { specs: readonly OptionSpec[]; prefix: string; config?: string }> = {
  conformance: { specs: CONFORMANCE, prefix: 'CONFORMANCE', config: 'config' },
  load: { specs: LOAD, prefix: 'LOAD' },
};

/** A CI file, read strictly: a YAML error or a key given twice fails. */
function read(file: string): any {
  const doc = parseDocument(readFileSync(`${ROOT}${file}`, 'utf8'), { uniqueKeys: true, prettyErrors: true });
  expect(doc.errors.map((e) => e.message), file).toEqual([]);
  return doc.toJS();
}

/** The environment a step sees: the file's, the job's and the step's, secrets standing as test keys. */
const envOf = (...blocks: Array<Record<string, string> | undefined>) =>
  Object.fromEntries(Object.entries(Object.assign({}, ...blocks)).map(([k, v]) => [k, /secrets\.|^\$/.test(String(v)) ? 'mk_test_ci_placeholder_key_0001' : String(v)]));

function expectRuns(line: string, env: Record<string, string>): string {
  const [bin, command, ...args] = line.trim().split(/\s+/);
  expect(bin).toBe('simulation-conformance');
  const spec = COMMANDS[command];
  expect(spec, `${command}: not a command`).toBeDefined();
  // Every variable of the command's prefix is an option's twin (a typo would be silently ignored).
  const twins = new Set(spec.specs.map((o) => envName(spec.prefix, o.name)));
  for (const name of Object.keys(env).filter((k) => k.startsWith(`${spec.prefix}_`))) expect(twins, `${name} is no option's twin`).toContain(name);
  // The real parser: an unknown flag, a bad value or a missing required one throws.
  const scoped = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith(`${spec.prefix}_`)));
  expect(() => parseOptions(spec.specs, args, scoped, spec.prefix, spec.config), line).not.toThrow();
  return command;
}

/** The command lines of a step's script, a multi-line one (if … then … else … fi) too. */
const commandsIn = (script: string) => script.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('simulation-conformance '));

/**
 * The load step's script, run by bash with a stand-in `simulation-conformance` that writes the
 * report, once without a baseline file and once with: the first run makes the baseline, the next
 * compares with it. Returns the commands run and what the script printed.
 */
function runLoadScript(script: string): Array<{ args: string; printed: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ci-load-'));
  try {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'simulation-conformance'), '#!/bin/sh\necho "$@" >> "$LOG"\nmkdir -p reports && echo "{}" > reports/load-pro.json\n', { mode: 0o755 });
    const runs = [];
    for (const round of [1, 2]) {
      const log = join(dir, `log-${round}`);
      const r = spawnSync('bash', ['-e', '-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, LOG: log } });
      expect(r.status, r.stderr).toBe(0);
      runs.push({ args: readFileSync(log, 'utf8').trim(), printed: r.stdout });
      // What the first run says to do: commit its load-pro.json as the baseline.
      mkdirSync(join(dir, '.conformance'), { recursive: true });
      copyFileSync(join(dir, 'reports', 'load-pro.json'), join(dir, '.conformance', 'load-pro.json'));
    }
    return runs;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docs/ci/github-actions.yml', () => {
  const wf = read('docs/ci/github-actions.yml');

  it('runs conformance with known failures and load with a baseline, each as written, and publishes the JUnit', () => {
    const ran: string[] = [];
    for (const job of Object.values<any>(wf.jobs)) {
      for (const step of job.steps) {
        if (step.uses) expect(step.uses, 'actions pinned to a version').toMatch(/@v\d+\.\d+\.\d+$/);
        if (typeof step.run === 'string') for (const line of commandsIn(step.run)) ran.push(expectRuns(line, envOf(wf.env, job.env, step.env)));
      }
    }
    expect(ran.sort()).toEqual(['conformance', 'load', 'load']);
    const junit = wf.jobs.conformance.steps.find((s: any) => String(s.uses).startsWith('mikepenz/action-junit-report'));
    expect(junit).toMatchObject({ if: 'always()', with: { report_paths: 'reports/junit.xml' } });
    expect(readFileSync(`${ROOT}docs/ci/github-actions.yml`, 'utf8')).toMatch(/--known-failures [\s\S]*--baseline /);
  });

  it('gates only a deploy that succeeded', () => {
    expect(wf.on.workflow_run.types).toEqual(['completed']);
    expect(wf.jobs.conformance.if).toMatch(/github\.event\.workflow_run\.conclusion == 'success'/);
    expect(wf.jobs.load.needs).toBe('conformance');
  });

  it('keeps the hidden cleanup ledger with the reports (upload-artifact v4 leaves hidden files out unless told)', () => {
    const upload = wf.jobs.conformance.steps.find((s: any) => String(s.uses).startsWith('actions/upload-artifact'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: 'reports/', 'include-hidden-files': true } });
  });

  it('makes the first baseline when there is none, then compares with it', () => {
    const step = wf.jobs.load.steps.find((s: any) => typeof s.run === 'string' && s.run.includes('simulation-conformance load'));
    const [first, next] = runLoadScript(step.run);
    expect(first.args).not.toContain('--baseline');
    expect(first.printed).toMatch(/first load run, no baseline yet: commit load-pro.json/);
    expect(next.args).toContain('--baseline .conformance/load-pro.json');
    expect(next.printed).toBe('');
  });
});

describe('docs/ci/gitlab-ci.yml', () => {
  const ci = read('docs/ci/gitlab-ci.yml');

  it('runs conformance with known failures and load with a baseline, each as written, and publishes the JUnit', () => {
    const ran: string[] = [];
    for (const [name, job] of Object.entries<any>(ci)) {
      if (!job?.script) continue;
      expect(ci.stages, name).toContain(job.stage);
      for (const entry of job.script) for (const line of commandsIn(entry)) ran.push(expectRuns(line, envOf(ci.variables, job.variables)));
    }
    expect(ran.sort()).toEqual(['conformance', 'load', 'load']);
    expect(ci.conformance.artifacts).toMatchObject({ when: 'always', reports: { junit: 'reports/junit.xml' } });
    expect(ci.conformance.artifacts.paths).toContain('reports/.created-*.jsonl');
  });

  it('makes the first baseline when there is none, then compares with it', () => {
    const script = ci.load.script.find((s: string) => s.includes('simulation-conformance load'));
    const [first, next] = runLoadScript(script);
    expect(first.args).not.toContain('--baseline');
    expect(first.printed).toMatch(/first load run, no baseline yet/);
    expect(next.args).toContain('--baseline .conformance/load-pro.json');
  });
});

describe('npx tsx load/k6-host/testrun.ts', () => {
  const testrun = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'load/k6-host/testrun.ts', ...args], { cwd: ROOT, encoding: 'utf8' });

  it('answers --help, and a missing or unknown flag in one line with exit 2', () => {
    const help = testrun('--help');
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx tsx load\/k6-host\/testrun\.ts --tier/);
    for (const args of [[], ['--bogus']]) {
      const r = testrun(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    }
  }, budget(60_000));
});
