// A module loader hook (module.register, registered by cli/common/command.ts after tsx's): the
// JavaScript of installed packages is loaded as Node loads it without tsx. tsx's own load hook
// exists for the project's TypeScript; on the packages' JavaScript it only rewrites `import()` calls
// with an inline source map each and keeps every module's text in its thread, which cost the command
// about 150 MB (vite, vitest, rolldown, ajv… loaded for a run: docs/benchmarks.md, "Memory").
// Plain JavaScript because it runs in the loader thread, before and beside tsx.
import { readFile } from 'node:fs/promises';

const PACKAGE_JS = /\/node_modules\/[^?#]*\.(?:js|mjs|cjs)$/;

export async function load(url, context, nextLoad) {
  if (url.startsWith('file:') && PACKAGE_JS.test(url)) {
    if (context.format === 'module') return { format: 'module', source: await readFile(new URL(url)), shortCircuit: true };
    // No source: Node's CommonJS loader reads the file (and the package's own require() calls) itself.
    if (context.format === 'commonjs') return { format: 'commonjs', shortCircuit: true };
  }
  return nextLoad(url, context);
}
