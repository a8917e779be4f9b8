// npm run conformance -- --self-test: the suite's own proof. Faulty deployments (test/faults: one
// fault each, injected by a proxy in front of the embedded reference) must each make the suite fail
// on a requirement that names the fault, and the correct deployment must pass, twice alike. Prints
// a line per run while it goes, then the matrix; exit 0 when every fault was caught and the correct
// runs were clean and stable, else 1.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from './faults.ts';
import { renderMatrix, runMatrix } from './matrix.ts';

export async function selfTest({ print, reportDir }: { print: (line: string) => void; reportDir: string }): Promise<number> {
  print(`self-test: ${FAULTS.length} faulty deployments (one fault each, injected by a proxy in front of the embedded reference), and the correct one twice`);
  print('  a fault is caught when the run fails (--strict, only the areas it concerns) on at least one requirement expected of it');
  const workDir = join(reportDir, 'self-test');
  mkdirSync(workDir, { recursive: true });
  // Everything lives in this process (the reference is in memory): stopping is enough.
  const interrupted = () => { print('\ninterrupted'); process.exit(2); };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const m = await runMatrix({ workDir, print });
  print('');
  print(renderMatrix(m));
  const file = join(reportDir, 'self-test.json');
  writeFileSync(file, JSON.stringify({
    ok: m.ok, durationMs: m.durationMs, unstable: m.unstable,
    clean: m.clean.map(({ outcomes: _outcomes, ...rest }) => rest),
    faults: m.faults,
  }, null, 2));
  print(`  the matrix as JSON: ${file}`);
  return m.ok ? 0 : 1;
}
