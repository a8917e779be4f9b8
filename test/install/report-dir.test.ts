// A report folder that cannot be made is one clear line, at once: a folder under /proc (where Node's
// own recursive mkdir retries forever at 100% CPU), a symbolic link to nothing (a bare ENOENT
// otherwise), a file in the way. Missing parents are made.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWritableDir } from '../../cli/common/report-dir.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const refusal = (path: string) => {
  try {
    ensureWritableDir(path, '--report-dir');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('a report folder', () => {
  it('under /proc is refused at once, in one line', () => {
    if (!existsSync('/proc/self')) return;
    expect(refusal('/proc/conformance-reports')).toBe('--report-dir /proc/conformance-reports: cannot write reports there (no folder can be made there, ENOENT)');
  });

  it('that is a symbolic link to nothing is named as one, also as a parent', () => {
    const link = join(dir, 'dangling');
    symlinkSync(join(dir, 'nowhere'), link);
    expect(refusal(link)).toMatch(/cannot write reports there \(.*dangling is a symbolic link to .*nowhere, which does not exist\)$/);
    expect(refusal(join(link, 'sub'))).toMatch(/dangling is a symbolic link to .*nowhere, which does not exist\)$/);
  });

  it('behind a file is refused; missing parents are made', () => {
    writeFileSync(join(dir, 'file'), '');
    expect(refusal(join(dir, 'file', 'reports'))).toMatch(/\(a file is in the way, ENOTDIR\)$/);
    expect(refusal(join(dir, 'a', 'b', 'c'))).toBeUndefined();
    expect(existsSync(join(dir, 'a', 'b', 'c'))).toBe(true);
  });
});
