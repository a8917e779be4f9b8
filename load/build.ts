// npm run build:load — bundles one k6 entry script per tier into dist/load/<tier>.js, files that a
// plain `k6 run` executes. LOAD_SEED=N picks the seeded data baked into them.
import { build, type Plugin } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { PLANS } from '../contract/plans.ts';
import { DEFAULT_SEED, seedData } from './data.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The entry of a tier, generated rather than kept as four files that differ only in the tier name:
 * k6 reads these exports (options, the scenario functions named by options.scenarios[*].exec,
 * setup, teardown, handleSummary) from the entry module itself.
 */
const tierEntries: Plugin = {
  name: 'k6-tier-entries',
  setup(b) {
    b.onResolve({ filter: /^k6-tier:/ }, (args) => ({ path: args.path.slice('k6-tier:'.length), namespace: 'k6-tier' }));
    b.onLoad({ filter: /.*/, namespace: 'k6-tier' }, (args) => ({
      loader: 'ts',
      resolveDir: join(root, 'load', 'k6'),
      contents: [
        `import { createScript } from './script.ts';`,
        `const script = createScript(${JSON.stringify(args.path)});`,
        ...['options', 'setup', 'steady', 'ramp', 'teardown', 'handleSummary'].map((name) => `export const ${name} = script.${name};`),
      ].join('\n'),
    }));
  },
};

export interface BuildOptions { outdir?: string; seed?: number }

export async function buildLoadBundles(o: BuildOptions = {}): Promise<string[]> {
  const outdir = o.outdir ?? join(root, 'dist', 'load');
  const result = await build({
    entryPoints: PLANS.map((tier) => ({ in: `k6-tier:${tier}`, out: tier })),
    plugins: [tierEntries],
    outdir,
    // One self-contained file per tier: k6 resolves nothing but its own modules.
    bundle: true,
    // k6 loads ES modules natively (import/export), no CommonJS wrapper needed.
    format: 'esm',
    // k6's runtime is neither Node nor a browser: 'neutral' assumes no built-ins, so an accidental
    // `node:` import fails the build instead of failing inside k6.
    platform: 'neutral',
    // k6's JavaScript runtime (goja, now Sobek) runs ES2017 everywhere; newer syntax (object
    // spread, ?., ??, class fields) is lowered so that older k6 releases run the bundle too.
    target: 'es2017',
    // k6 provides these at run time; they are not files to bundle.
    external: ['k6', 'k6/*'],
    // The seeded data is generated here, in Node, with faker; VUs get the result as a literal.
    define: { __LOAD_DATA__: JSON.stringify(seedData(o.seed ?? DEFAULT_SEED)) },
    // Readable output: the bundle is what a user debugs when k6 reports a line number.
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  // Metafile paths are relative to esbuild's working directory, the current one.
  return Object.keys(result.metafile.outputs).map((f) => resolve(f));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seed = process.env.LOAD_SEED ? Number(process.env.LOAD_SEED) : undefined;
  const outputs = await buildLoadBundles({ seed });
  for (const f of outputs) process.stdout.write(`built ${relative(process.cwd(), f)}\n`);
}
