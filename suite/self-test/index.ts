// npm run conformance -- --self-test: the suite's own proof, four families. Faulty deployments (one
// fault each, injected by a proxy in front of the embedded reference) must each make the suite fail
// on a requirement that names the fault, and the correct deployment must pass, twice alike. Legal
// variants (one different legal choice each, made by a rewriting proxy) must each pass. Document
// dialects (the served document rewritten into another legal style, answers unchanged) must each
// pass, and their controls fail. Stacks (the reference behind a real nginx, behind the refusals of
// common HTTP servers, under several seeds) must each pass, and their controls fail. Prints a line per
// run while it goes, then the four matrices; exit 0 when every fault was caught, the correct runs were
// clean and stable, every variant, dialect and stack passed and every control failed, else 1.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from './faults.ts';
import { VARIANTS } from './variants.ts';
import { renderMatrix, renderVariants, runMatrix, runVariants } from './matrix.ts';
import { DIALECTS } from './dialects.ts';
import { renderDialects, runDialects } from './dialect-matrix.ts';
import { STACKS } from './stacks.ts';
import type { SelectableArea } from '../../contract/requirements.ts';

/** `areas` (--only): only the faults and variants that concern them, and the correct runs over them. */
export async function selfTest({ print, reportDir, areas }: { print: (line: string) => void; reportDir: string; areas?: readonly SelectableArea[] }): Promise<number> {
  const concerns = (x: { areas: readonly string[] }) => !areas || x.areas.some((a) => (areas as readonly string[]).includes(a));
  const FAULTS_RUN = FAULTS.filter(concerns);
  const VARIANTS_RUN = VARIANTS.filter(concerns);
  if (areas) print(`self-test over ${areas.join(', ')} (--only): the faults and variants that concern these areas`);
  print(`self-test: ${FAULTS_RUN.length} faulty deployments (one fault each, injected by a proxy in front of the embedded reference), and the correct one twice`);
  print('  a fault is caught when the run fails (--strict, only the areas it concerns) on at least one requirement expected of it, at the level a run without --strict charges it (a MUST fails it; a fault that expects SHOULDs only is caught by their warning)');
  const workDir = join(reportDir, 'self-test');
  mkdirSync(workDir, { recursive: true });
  // Everything lives in this process (the reference is in memory): stopping is enough.
  const interrupted = () => { print('\ninterrupted'); process.exit(2); };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const m = await runMatrix({ workDir, print, faults: FAULTS_RUN, cleanAreas: areas });
  print('');
  print(`then ${VARIANTS_RUN.length} legal variants (one different choice where SPEC.md is silent, made by a rewriting proxy)`);
  print('  a variant passes when the run (--strict, the areas its choice concerns) fails and warns on nothing but the SHOULDs it names');
  const v = await runVariants({ workDir, print, variants: VARIANTS_RUN });
  print('');
  const DIALECTS_RUN = DIALECTS.filter(concerns);
  const controls = DIALECTS_RUN.filter((x) => x.control).length;
  print(`then ${DIALECTS_RUN.length - controls} document dialects (the served document rewritten into another legal style by a proxy, answers unchanged) and ${controls} controls`);
  print('  a dialect passes when the run (--strict, the areas that read what it changes) fails and warns on nothing, and no request reaches a local file or another host; a control must fail');
  const d = await runDialects({ workDir, print, dialects: DIALECTS_RUN });
  print('');
  const STACKS_RUN = STACKS.filter(concerns);
  const stackControls = STACKS_RUN.filter((x) => x.control).length;
  print(`then ${STACKS_RUN.length - stackControls} stacks (the reference behind a real nginx, behind the refusals of common HTTP servers, under several seeds, its document as frameworks generate theirs) and ${stackControls} controls`);
  print('  a stack passes when the run (--strict) fails and warns on nothing and its stack refused what it is about at least once; a control (the service\'s own error page behind the stack) must fail');
  const st = await runDialects({ workDir, print, dialects: STACKS_RUN });
  print('');
  print(renderMatrix(m));
  print('');
  print(renderVariants(v));
  print('');
  print(renderDialects(d));
  print('');
  print(renderDialects(st, { entry: 'stack', plural: 'stacks', by: 'what it stands for' }));
  const ok = m.ok && v.ok && d.ok && st.ok;
  const caught = m.faults.filter((f) => f.caught).length;
  const passed = v.variants.filter((x) => x.passed).length;
  const dialects = d.dialects.filter((x) => !x.mustFail);
  print('');
  const stacks = st.dialects.filter((x) => !x.mustFail && !x.missing);
  const stackControlsRun = st.dialects.filter((x) => x.mustFail && !x.missing);
  const missing = st.dialects.filter((x) => x.missing);
  print(`${ok ? '✓' : '✗'} faults caught ${caught}/${m.faults.length}, variants passed ${passed}/${v.variants.length}, dialects passed ${dialects.filter((x) => x.ok).length}/${dialects.length} (controls failed ${d.dialects.filter((x) => x.mustFail && x.ok).length}/${d.dialects.length - dialects.length}), stacks passed ${stacks.filter((x) => x.ok).length}/${stacks.length} (controls failed ${stackControlsRun.filter((x) => x.ok).length}/${stackControlsRun.length})${missing.length ? `; not run here: ${missing.map((x) => x.id).join(', ')}: ${missing[0].missing}` : ''}`);
  const file = join(reportDir, 'self-test.json');
  writeFileSync(file, JSON.stringify({
    ok,
    faults: { ok: m.ok, durationMs: m.durationMs, unstable: m.unstable, clean: m.clean.map(({ outcomes: _outcomes, ...rest }) => rest), faults: m.faults },
    variants: { ok: v.ok, durationMs: v.durationMs, variants: v.variants },
    dialects: { ok: d.ok, durationMs: d.durationMs, dialects: d.dialects },
    stacks: { ok: st.ok, durationMs: st.durationMs, stacks: st.dialects },
  }, null, 2));
  print(`  the four matrices as JSON: ${file}`);
  return ok ? 0 : 1;
}
