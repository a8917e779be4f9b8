import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMatrix, renderMatrix } from './suite/self-test/matrix.ts';
import { FAULTS } from './suite/self-test/faults.ts';
const m = await runMatrix({ workDir: mkdtempSync(join(tmpdir(), 'faults-')), print: console.log, faults: FAULTS.filter((f) => f.areas.includes('generated')), skipCleanRuns: process.argv[2] !== 'clean', cleanAreas: ['generated', 'errors', 'worlds'] });
console.log(renderMatrix(m));
process.exit(0);
