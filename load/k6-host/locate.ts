// Is k6 installed? The CLI picks the k6 engine when a `k6` executable is on PATH.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export function findK6(path = process.env.PATH ?? ''): string | undefined {
  const names = process.platform === 'win32' ? ['k6.exe', 'k6.cmd'] : ['k6'];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch { /* not here */ }
    }
  }
  return undefined;
}
