// A report folder is checked before a run starts: a run of minutes whose reports cannot be written
// would end with its verdict lost (load) or a stack trace (conformance).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from './errors.ts';

const WHY: Record<string, string> = {
  ENOTDIR: 'a file is in the way', EEXIST: 'a file is in the way', EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system',
};

/** Makes the folder (and its parents) and writes and removes a probe file in it; a UsageError says why not. */
export function ensureWritableDir(dir: string, flag: string): void {
  const root = resolve(dir);
  try {
    mkdirSync(root, { recursive: true });
    const probe = join(root, `.write-probe-${process.pid}`);
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`${flag} ${dir}: cannot write reports there (${WHY[code] ?? (err as Error).message}${code && WHY[code] ? `, ${code}` : ''})`);
  }
}
