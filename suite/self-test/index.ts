// npm run conformance -- --self-test: the suite's own proof, four families, one runner (runner.ts). Faulty deployments (one
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
import { DIALECTS } from './dialects.ts';
import { STACKS } from './stacks.ts';
import { runMatrix } from './matrix.ts';
import { runVariants } from './variant-matrix.ts';
import { runDialects, runStacks } from './dialect-matrix.ts';
import { renderFamily, type FamilyResult, type Verdict } from './runner.ts';
import type { SelectableArea } from '../../contract/requirements.ts';

/** `areas` (--only): only the entries that concern them, and the correct runs over them. */
export async function selfTest({ print, reportDir, areas }: { print: (line: string) => void; reportDir: string; areas?: readonly SelectableArea[] }): Promise<number> {
  const concerns = (x: { areas: readonly string[] }) => !areas || x.areas.some((a) => (areas as readonly string[]).includes(a));
  const controls = (xs: Array<{ control?: unknown }>) => `${xs.length - xs.filter((x) => x.control).length} and ${xs.filter((x) => x.control).length} controls`;
  if (areas) print(`self-test over ${areas.join(', ')} (--only): the entries that concern these areas`);
  const workDir = join(reportDir, 'self-test');
  mkdirSync(workDir, { recursive: true });
  // Everything lives in this process (the reference is in memory): stopping is enough.
  const interrupted = () => { print('\ninterrupted'); process.exit(2); };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const [faults, variants, dialects, stacks] = [FAULTS.filter(concerns), VARIANTS.filter(concerns), DIALECTS.filter(concerns), STACKS.filter(concerns)];
  // Each family: what it is, how an entry is judged, and its run. Every run is --strict, and judged again as a user's run (without --strict).
  const families: Array<[string, string, () => Promise<FamilyResult<Verdict>>]> = [
    [`${faults.length} faulty deployments (one fault each, injected by a proxy in front of the embedded reference), and the correct one twice`,
      'a fault is caught when the run fails (the areas it concerns) on each requirement expected of it, at the level a run without --strict charges it (a MUST fails it; a fault that expects SHOULDs only is caught by their warning)',
      () => runMatrix({ workDir, print, faults, cleanAreas: areas })],
    [`${variants.length} legal variants (one different choice where SPEC.md is silent, made by a rewriting proxy)`,
      'a variant passes when the run (the areas its choice concerns) fails and warns on nothing but the SHOULDs it names, and exits 0 without --strict',
      () => runVariants({ workDir, print, variants })],
    [`${controls(dialects)} document dialects (the served document rewritten into another legal style by a proxy, answers unchanged)`,
      'a dialect passes when the run (the areas that read what it changes) fails and warns on nothing, and no request reaches a local file or another host; a control must fail',
      () => runDialects({ workDir, print, dialects })],
    [`${controls(stacks)} stacks (the reference behind a real nginx, Apache httpd, lighttpd, HAProxy, Caddy, behind the refusals of common HTTP servers, under several seeds, its document as frameworks generate theirs)`,
      'a stack passes when the run fails and warns on nothing (but the SHOULDs that name its own pages, which must warn: ERR-12 behind Apache httpd and lighttpd) and its stack refused what it is about at least once; a control (the service\'s own error page behind the stack) must fail',
      () => runStacks({ workDir, print, stacks })],
  ];
  const results: Array<FamilyResult<Verdict>> = [];
  for (const [what, rule, run] of families) {
    print(`${results.length ? '\nthen ' : 'self-test: '}${what}`);
    print(`  ${rule}`);
    results.push(await run());
  }
  for (const m of results) print(`\n${renderFamily(m)}`);
  const ok = results.every((m) => m.ok);
  const count = (m: FamilyResult<Verdict>) => `${m.family.name} ${m.verdicts.filter((v) => v.ok && !v.missing).length}/${m.verdicts.filter((v) => !v.missing).length}`;
  const missing = results.flatMap((m) => m.verdicts.filter((v) => v.missing));
  print(`\n${ok ? '✓' : '✗'} as they must (faults caught, the others passed, their controls failed): ${results.map(count).join(', ')}${missing.length ? `; not run here: ${missing.map((x) => x.id).join(', ')}: ${missing[0].missing}` : ''}`);
  const file = join(reportDir, 'self-test.json');
  writeFileSync(file, JSON.stringify({
    ok, ...Object.fromEntries(results.map((m) => [m.family.name, { ...m, family: undefined, ...('clean' in m ? { clean: (m.clean as Array<{ outcomes: unknown }>).map(({ outcomes: _outcomes, ...rest }) => rest) } : {}) }])),
  }, null, 2));
  print(`  the four matrices as JSON: ${file}`);
  return ok ? 0 : 1;
}
