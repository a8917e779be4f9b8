// A test writes only into temporary folders: reports/ (the user's last run) is the same after
// `npm test` as before it, and no new file appears at the root. A test that runs a command without
// --report-dir, or leaves a database at the root, fails the run here, naming the files.
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Folders a test run may change: its own caches and build output. */
const OWN = new Set(['node_modules', '.git', 'dist', '.tmp']);

/** Every file of the root and of reports/ (hidden ones too: the cleanup ledgers), with its size and time. */
function listing(): Map<string, string> {
  const out = new Map<string, string>();
  const add = (dir: string, deep: boolean) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (deep && !OWN.has(entry.name)) add(path, false);
        continue;
      }
      const s = statSync(join(ROOT, path), { throwIfNoEntry: false });
      if (s) out.set(path, `${s.size} ${s.mtimeMs}`);
    }
  };
  add('', false);
  add('reports', true);
  return out;
}

export default function setup(): () => void {
  const before = listing();
  return () => {
    const after = listing();
    // In reports/ any change counts; at the root only a new file (a user may edit a file as tests run).
    const changed = [...new Set([...before.keys(), ...after.keys()])]
      .filter((path) => (path.startsWith(`reports${sep}`) ? before.get(path) !== after.get(path) : !before.has(path)));
    if (!changed.length) return;
    // vitest reports an error thrown here but still exits 0: the exit status is set as well.
    process.exitCode = 1;
    throw new Error(`the tests wrote into the clone (reports/ or its root), not a temporary folder: ${changed.join(', ')}`);
  };
}
