// Loaded with --import into every process of a measured run (NODE_OPTIONS is inherited by the
// scenario workers): appends "<pid> <peak RSS in KB> <command|worker>" to $PEAK_RSS_FILE now and
// then and at exit. The peak is the kernel's high-water mark for the process, so a sample taken
// after it still holds it.
import { appendFileSync } from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
const role = process.argv.some((a) => /vitest.*workers/.test(a)) ? 'worker' : 'command';
const write = () => {
  try { appendFileSync(file, `${process.pid} ${process.resourceUsage().maxRSS} ${role}\n`); } catch { /* the measure only */ }
};
if (file) {
  setInterval(write, 100).unref();
  process.on('exit', write);
}
