// A command answers --help and a mistyped option at once: before its options are known good it loads
// nothing of a run (the reference, vitest, undici, esbuild…), which took 2.6–14 s to load. The static
// imports of each command's module are followed here, so a heavy one added at the top fails the test
// (what a run needs is imported with import() once the options are parsed). And what must be refused
// before a run starts is: an unwritable report folder, in one line. Colour follows the terminal and NO_COLOR.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { wantsColor } from '../../cli/common/color.ts';
import { budget } from '../budget.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files and packages a module loads before its own code runs: its static imports, followed. */
function staticClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    // `import … from '…'` and `import '…'`, not `import type` (erased) nor `import()` (deferred).
    for (const m of text.matchAll(/^import\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm)) {
      const spec = m[1];
      if (spec.startsWith('.')) visit(normalize(join(dirname(file), spec)));
      else if (!spec.startsWith('node:')) packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  };
  visit(entry);
  return { files, packages };
}

const HEAVY = ['vitest', 'fastify', 'undici', 'esbuild', 'better-sqlite3', 'fast-check', 'typebox', 'ajv', 'yaml', '@apidevtools/json-schema-ref-parser', '@faker-js/faker', 'wink-nlp'];

describe('what a command loads before its options are parsed', () => {
  for (const entry of ['cli/main.ts', 'cli/conformance.ts', 'cli/load.ts', 'cli/serve.ts']) {
    it(`${entry}: no heavy package, nothing of the reference or of a run`, () => {
      const { files, packages } = staticClosure(entry);
      expect(files.size).toBeGreaterThan(1);
      expect([...packages].filter((p) => HEAVY.includes(p))).toEqual([]);
      expect([...files].filter((f) => /^(reference|scenarios)\/|^suite\/(run|reports|self-test|http|generate)\//.test(f))).toEqual([]);
    });
  }
});

describe('a run that cannot write its reports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused before it starts, in one line, exit 2 (conformance)', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, ['bin/simulation-conformance.js', 'conformance', '--report-dir', join(file, 'reports')], { cwd: ROOT, timeout: budget(60_000) },
        (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^conformance: --report-dir .*a-file\/reports: cannot write reports there \(a file is in the way, ENOTDIR\)$/)]);
  }, budget(60_000));
});

describe('colour', () => {
  it('only on a terminal, and never with --no-color or NO_COLOR (set to anything but empty)', () => {
    expect(wantsColor({ isTTY: true }, false, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, false, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, true, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, false, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: true }, false, { NO_COLOR: '' })).toBe(true);
  });
});
