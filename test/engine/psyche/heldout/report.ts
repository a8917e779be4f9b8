// npx tsx test/engine/psyche/heldout/report.ts [--misses]: the scores of both halves and of the
// generated set (the second held-out set), per class and per temperament. Misses are printed for
// the tuning half only: the held-out sets are scored, never read for tuning.
import { HELDOUT } from './heldout.ts';
import { TUNING } from './tuning.ts';
import { GENERATED } from './generated.ts';
import { score, table } from './score.ts';

const tuning = score(TUNING);
const heldout = score(HELDOUT);
console.log(table(tuning, heldout, score(GENERATED)));
if (process.argv.includes('--misses')) console.log(`\ntuning misses:\n  ${tuning.misses.join('\n  ')}`);
