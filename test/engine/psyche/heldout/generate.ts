// The second held-out set drawn from templates.ts: per class, its templates in turn, each slot
// filled by a seeded draw (the engine's mulberry32, seed 36), until PER_CLASS distinct messages.
// `npx tsx test/engine/psyche/heldout/generate.ts --write` wrote generated.ts once, before any tuning;
// heldout.test.ts checks the frozen file is still what the templates give.
import { writeFileSync } from 'node:fs';
import { nextRandom } from '../../../../reference/engine/psyche/util.ts';
import { CLASSES, type Labelled } from './labels.ts';
import { SLOTS, TEMPLATES } from './templates.ts';

export const PER_CLASS = 12;

export function generate(seed = 36): Labelled[] {
  let state = seed;
  const pick = (list: readonly string[]) => {
    const r = nextRandom(state);
    state = r.state;
    return list[Math.floor(r.value * list.length)];
  };
  const out: Labelled[] = [];
  for (const cls of CLASSES) {
    const templates = TEMPLATES.filter((x) => x.cls === cls);
    const seen = new Set<string>();
    // Bounded: a class whose templates give fewer distinct messages stops short.
    for (let i = 0; seen.size < PER_CLASS && i < 50 * PER_CLASS; i++) {
      const tpl = templates[i % templates.length];
      let text = tpl.text.replace(/\{(\w+)\}/g, (_, slot: string) => (slot === slot.toUpperCase() ? pick(SLOTS[slot.toLowerCase()]).toUpperCase() : pick(SLOTS[slot])));
      if (tpl.text.startsWith('{')) text = text.charAt(0).toUpperCase() + text.slice(1);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push({ cls, message: text, expect: tpl.expect });
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}` && process.argv.includes('--write')) {
  const rows = generate().map((l) => `  { cls: ${JSON.stringify(l.cls)}, message: ${JSON.stringify(l.message)}, expect: ${JSON.stringify(l.expect)} },`);
  writeFileSync(new URL('./generated.ts', import.meta.url), `// The second held-out set (issue 36): generated once from templates.ts by generate.ts, then frozen.
// Only scored, never read to tune the engine (test/engine/psyche/heldout/README.md).
import type { Labelled } from './labels.ts';

export const GENERATED: Labelled[] = [
${rows.join('\n')}
];
`);
}
