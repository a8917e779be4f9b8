// The resident memory of a process and every process under it, sampled from /proc (Linux) while it
// runs: what a CI container's memory limit sees. Each sample sums VmRSS over the tree; each process
// also keeps its own high-water mark (VmHWM), which catches a peak between two samples.
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeProcess { pid: number; command: string; peakMb: number; lastMb: number; cpuS: number }
export interface TreeMemory { peakMb: number; samples: number; processes: TreeProcess[] }

const kbOf = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
const read = (path: string) => { try { return readFileSync(path, 'utf8'); } catch { return undefined; } };

/** Every live descendant of root (root included), from the parent ids in /proc/<pid>/stat. */
function treeOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // The command name may hold spaces and parentheses: the fields after it start past the last ')'.
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    if (!Number.isNaN(ppid)) children.set(ppid, [...children.get(ppid) ?? [], Number(entry)]);
  }
  const out: number[] = [];
  const walk = (pid: number) => { out.push(pid); for (const c of children.get(pid) ?? []) walk(c); };
  walk(root);
  return out;
}

/** User and system CPU seconds of a process so far (fields 14 and 15 of its stat, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The short name a report gives a process: its arguments, paths cut to their last two parts. */
function nameOf(pid: number): string {
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean);
  return argv.map((a) => a.replace(/^.*\/([^/]+\/[^/]+)$/, '$1')).join(' ').slice(0, 100);
}

/** Samples the tree under root every intervalMs until stop() is called; stop() returns the figures. */
export function watchTree(root: number, intervalMs = 50): { stop: () => TreeMemory } {
  const seen = new Map<number, TreeProcess>();
  let peakKb = 0;
  let samples = 0;
  const sample = () => {
    let totalKb = 0;
    for (const pid of treeOf(root)) {
      const status = read(`/proc/${pid}/status`);
      if (!status) continue;
      const rss = kbOf(status, 'VmRSS');
      const hwm = kbOf(status, 'VmHWM');
      totalKb += rss;
      const p = seen.get(pid) ?? { pid, command: '', peakMb: 0, lastMb: 0, cpuS: 0 };
      // Read again each time: a child shows its parent's arguments until its exec.
      p.command = nameOf(pid) || p.command;
      p.peakMb = Math.max(p.peakMb, Math.round(hwm / 1024));
      p.lastMb = Math.round(rss / 1024);
      p.cpuS = cpuSecondsOf(pid) ?? p.cpuS;
      seen.set(pid, p);
    }
    peakKb = Math.max(peakKb, totalKb);
    samples++;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakMb: Math.round(peakKb / 1024), samples, processes: [...seen.values()] };
    },
  };
}
