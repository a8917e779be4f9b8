// What k6-operator makes of a TestRun, per runner, written from its source (grafana/k6-operator,
// pkg/resources/jobs/runner.go and pkg/segmentation/segmentation.go, v1.x) to check our manifest
// against: runner i of N (1-based) runs `k6 run` with execution segment (i−1)/N:i/N when N > 1,
// the TestRun's `arguments`, the script, `--paused` and the instance and test-run tags; it adds
// `--no-setup --no-teardown` only to Grafana Cloud private load zone runs (not ours), so every
// runner runs setup() and teardown() itself.
export interface RunnerJob { index: number; argv: string[]; env: Record<string, string | { secret: string; key: string }>; segment: string | null; runsSetup: boolean }

const fraction = (i: number, n: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);

export function operatorRunners(run: any, plz = false): RunnerJob[] {
  const n: number = run.spec.parallelism;
  const file = run.spec.script.configMap ? `/test/${run.spec.script.configMap.file}` : run.spec.script.localFile;
  const env = Object.fromEntries((run.spec.runner?.env ?? []).map((e: any) => [e.name, e.value ?? { secret: e.valueFrom.secretKeyRef.name, key: e.valueFrom.secretKeyRef.key }]));
  return Array.from({ length: n }, (_, k) => {
    const index = k + 1;
    const segment = n > 1 ? `${fraction(index - 1, n)}:${fraction(index, n)}` : null;
    const sequence = Array.from({ length: n + 1 }, (_, i) => fraction(i, n)).join(',');
    const argv = ['k6', 'run', '--quiet',
      ...(segment ? [`--execution-segment=${segment}`, `--execution-segment-sequence=${sequence}`] : []),
      ...String(run.spec.arguments ?? '').split(' ').filter(Boolean), file, '--address=0.0.0.0:6565', '--paused',
      '--tag', `instance_id=${index}`, '--tag', `testrun_name=${run.metadata.name}`,
      ...(plz ? ['--no-setup', '--no-teardown', '--linger'] : [])];
    return { index, argv, env, segment, runsSetup: !argv.includes('--no-setup') };
  });
}
