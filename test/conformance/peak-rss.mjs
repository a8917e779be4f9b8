// Loaded with --import into every Node process of a measured run (NODE_OPTIONS is inherited by what
// it starts): appends "<pid> <peak RSS in KB>" to $PEAK_RSS_FILE now and then and at exit. The peak
// is the kernel's high-water mark for the process, so a sample taken after it still holds it.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.PEAK_RSS_FILE;
const write = () => {
  try { appendFileSync(file, `${process.pid} ${process.resourceUsage().maxRSS}\n`); } catch { /* the measure only */ }
};
// Once a process: its threads (the scenario workers) share its memory.
if (file && isMainThread) {
  setInterval(write, 100).unref();
  process.on('exit', write);
}
