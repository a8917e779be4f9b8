// The held-out faults (suite/self-test/faults/held-out.ts): written apart from the model and the
// scenarios, one bug each one step from a probe. Not a gate: how many the suite catches, per seed, is
// a measurement of how it generalizes. Each fault runs as the matrix runs a fault (its areas, --strict,
// judged again as a user's run), once a seed.
//   node --import tsx bench/held-out.ts [--seeds 1,2,3] [--no-model]
// --no-model: the same faults without the model area (what the probes alone catch).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS } from '../suite/self-test/faults/held-out.ts';
import { faultFamily } from '../suite/self-test/matrix.ts';
import { runFamily } from '../suite/self-test/runner.ts';
import { startBench } from '../suite/self-test/bench.ts';
import type { Fault } from '../suite/self-test/faults.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '1,2,3' }, 'no-model': { type: 'boolean', default: false } } });
const seeds = values.seeds.split(',').map(Number);
const faults: Fault[] = values['no-model'] ? FAULTS.map((f) => ({ ...f, areas: f.areas.filter((a) => a !== 'model') })).filter((f) => f.areas.length) : FAULTS;
const workDir = mkdtempSync(join(tmpdir(), 'held-out-'));
const bench = await startBench(workDir);
const caught = new Map<string, boolean[]>(faults.map((f) => [f.id, []]));
try {
  for (const seed of seeds) {
    const family = faultFamily(faults);
    const plan = family.plan!;
    family.plan = (f) => ({ ...plan(f), seed });
    const m = await runFamily(family, { workDir, bench });
    for (const v of m.verdicts) caught.get(v.id)!.push(v.ok);
    console.log(`seed ${seed}: ${m.verdicts.filter((v) => v.ok).length} of ${faults.length} caught (${(m.durationMs / 1000).toFixed(0)} s)`);
  }
} finally {
  await bench.target.close();
  rmSync(workDir, { recursive: true, force: true });
}
for (const [id, marks] of caught) console.log(`  ${marks.map((c) => (c ? '✓' : '✗')).join('')}  ${id}`);
const every = [...caught.values()].filter((m) => m.every(Boolean)).length;
console.log(`caught at every seed: ${every} of ${faults.length}${values['no-model'] ? ' (without the model area)' : ''}`);
