// A report folder is checked before a run starts: a run of minutes whose reports cannot be written
// would end with its verdict lost (load) or a stack trace (conformance).
import { lstatSync, mkdirSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from './errors.ts';

const WHY: Record<string, string> = {
  ENOTDIR: 'a file is in the way', EEXIST: 'a file is in the way', EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system',
  ENOENT: 'no folder can be made there',
};

/** A reason already in words (a dangling link), not an error code to translate. */
class Said extends Error {}

/**
 * Makes the folder and its missing parents, one at a time from the nearest one that exists. Node's
 * own recursive mkdir retries forever where a parent exists but refuses new entries (`/proc/x`: 100%
 * CPU until killed); one mkdir per level fails once.
 */
function makeDir(root: string): void {
  const missing: string[] = [];
  for (let here = root; ; here = dirname(here)) {
    const found = statSync(here, { throwIfNoEntry: false });
    if (found) {
      if (!found.isDirectory()) throw Object.assign(new Error(`${here} is not a folder`), { code: 'ENOTDIR' });
      break;
    }
    // A symbolic link to nothing: mkdir would fail with a bare ENOENT that names no cause.
    if (lstatSync(here, { throwIfNoEntry: false })?.isSymbolicLink()) throw new Said(`${here} is a symbolic link to ${readlinkSync(here)}, which does not exist`);
    missing.unshift(here);
    if (dirname(here) === here) break;
  }
  for (const dir of missing) mkdirSync(dir);
}

/** Makes the folder (and its parents) and writes and removes a probe file in it; a UsageError says why not. */
export function ensureWritableDir(dir: string, flag: string): void {
  const root = resolve(dir);
  try {
    makeDir(root);
    const probe = join(root, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    if (err instanceof Said) throw new UsageError(`${flag} ${dir}: cannot write reports there (${err.message})`);
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`${flag} ${dir}: cannot write reports there (${WHY[code] ?? (err as Error).message}${code && WHY[code] ? `, ${code}` : ''})`);
  }
}
