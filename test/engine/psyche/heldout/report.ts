// npx tsx test/engine/psyche/heldout/report.ts [--misses tuning]: the scores of both halves, per
// class and per temperament. Misses are printed for the tuning half only: the held-out half is
// scored, never read for tuning.
import { HELDOUT } from './heldout.ts';
import { TUNING } from './tuning.ts';
import { score, table } from './score.ts';

const tuning = score(TUNING);
const heldout = score(HELDOUT);
console.log(table(tuning, heldout));
if (process.argv.includes('--misses')) console.log(`\ntuning misses:\n  ${tuning.misses.join('\n  ')}`);
