// The k6-operator manifest in load/README.md: a TestRun the operator accepts (the CRD's schema,
// test/load/testrun-schema.ts), running a bundle that the build makes, with the target and the
// key in the runner's environment, the key from a Secret and never written in the manifest, and
// every other LOAD_* variable one the bundles read.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../contract/plans.ts';
import { TESTRUN_SCHEMA } from './testrun-schema.ts';

const readme = readFileSync(fileURLToPath(new URL('../../load/README.md', import.meta.url)), 'utf8');
const script = readFileSync(fileURLToPath(new URL('../../load/k6/script.ts', import.meta.url)), 'utf8');
const validate = new Ajv({ strict: true, allErrors: true }).compile(TESTRUN_SCHEMA);

/** Every YAML block of the README that declares a TestRun. */
function testRuns(text: string): any[] {
  const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => parseAllDocuments(b).map((d) => d.toJS())).filter((d) => d?.kind === 'TestRun');
}

/** LOAD_* variables the bundles read: `__ENV.LOAD_X`, and the options read through envName(). */
function variablesRead(): Set<string> {
  const direct = [...script.matchAll(/__ENV\.(LOAD_[A-Z_]+)/g)].map((m) => m[1]);
  const viaNum = [...script.matchAll(/num\('([a-z0-9-]+)'\)/g)].map((m) => `LOAD_${m[1].toUpperCase().replace(/-/g, '_')}`);
  return new Set([...direct, ...viaNum, 'LOAD_DURATION']);
}

describe('the k6-operator TestRun of load/README.md', () => {
  const runs = testRuns(readme);

  it('is there, and valid against the TestRun CRD', () => {
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(validate(run) ? [] : validate.errors, JSON.stringify(run)).toEqual([]);
  });

  it('runs a bundle the build makes, from a ConfigMap the README creates', () => {
    for (const run of runs) {
      const { name, file } = run.spec.script.configMap;
      expect(PLANS.map((p) => `${p}.js`)).toContain(file);
      expect(readme).toContain(`kubectl create configmap ${name} --from-file=dist/load/${file}`);
    }
  });

  it('gives the runners the target, and the key from a Secret only', () => {
    for (const run of runs) {
      const env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }> = run.spec.runner.env;
      const byName = new Map(env.map((e) => [e.name, e]));
      expect(byName.get('LOAD_BASE_URL')?.value).toMatch(/^https?:\/\//);
      const key = byName.get('LOAD_API_KEY')!;
      expect(key.value).toBeUndefined();
      expect(key.valueFrom?.secretKeyRef).toBeDefined();
      expect(readme).toContain(`kubectl create secret generic ${key.valueFrom!.secretKeyRef!.name} --from-literal=${key.valueFrom!.secretKeyRef!.key}=`);
      expect(JSON.stringify(run)).not.toMatch(/mk_(test|live)_/);
      const read = variablesRead();
      for (const e of env) expect(read, `${e.name} is not a variable the bundles read`).toContain(e.name);
    }
  });

  it('the check itself refuses what the operator would drop or refuse', () => {
    const good = runs[0];
    const misspelt = { ...good, spec: { ...good.spec, script: { configmap: good.spec.script.configMap } } };
    const noParallelism = { ...good, spec: { ...good.spec, parallelism: undefined } };
    const wrongCleanup = { ...good, spec: { ...good.spec, cleanup: 'always' } };
    for (const bad of [misspelt, JSON.parse(JSON.stringify(noParallelism)), wrongCleanup]) expect(validate(bad)).toBe(false);
    expect(variablesRead()).toContain('LOAD_TIMEOUT_MS');
  });
});
