// Docs that a user copies must work as written: the ready-to-copy CI files (docs/ci/) are valid YAML,
// every `simulation-conformance` command they run parses with the command's real options and the
// environment the job gives it (each CONFORMANCE_* / LOAD_* variable an option's twin), and they
// publish the JUnit report. The documented helper `npx tsx load/k6-host/testrun.ts` answers --help
// and a missing flag in one line, not a stack.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

describe('docs/ci/github-actions.yml', () => {
  const wf = read('docs/ci/github-actions.yml');

  it('runs conformance with known failures and load with a baseline, each as written, and publishes the JUnit', () => {
    const ran: string[] = [];
    for (const job of Object.values<any>(wf.jobs)) {
      for (const step of job.steps) {
        if (step.uses) expect(step.uses, 'actions pinned to a version').toMatch(/@v\d+\.\d+\.\d+$/);
        if (typeof step.run === 'string' && step.run.startsWith('simulation-conformance')) ran.push(expectRuns(step.run, envOf(wf.env, job.env, step.env)));
      }
    }
    expect(ran.sort()).toEqual(['conformance', 'load']);
    const junit = wf.jobs.conformance.steps.find((s: any) => String(s.uses).startsWith('mikepenz/action-junit-report'));
    expect(junit).toMatchObject({ if: 'always()', with: { report_paths: 'reports/junit.xml' } });
    expect(readFileSync(`${ROOT}docs/ci/github-actions.yml`, 'utf8')).toMatch(/--known-failures [\s\S]*--baseline /);
  });
});

describe('docs/ci/gitlab-ci.yml', () => {
  const ci = read('docs/ci/gitlab-ci.yml');

  it('runs conformance with known failures and load with a baseline, each as written, and publishes the JUnit', () => {
    const ran: string[] = [];
    for (const [name, job] of Object.entries<any>(ci)) {
      if (!job?.script) continue;
      expect(ci.stages, name).toContain(job.stage);
      for (const line of job.script) if (line.startsWith('simulation-conformance')) ran.push(expectRuns(line, envOf(ci.variables, job.variables)));
    }
    expect(ran.sort()).toEqual(['conformance', 'load']);
    expect(ci.conformance.artifacts).toMatchObject({ when: 'always', reports: { junit: 'reports/junit.xml' } });
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
