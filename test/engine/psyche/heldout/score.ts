// The scorer of the labelled set: every message is sent, as a chat from a stranger, to a fresh Rosa
// (labels.ts) of each temperament; the felt family of the label is compared with the expected one.
// It reports hits per temperament and per class for a half, the messages missed, and how much the
// temperament changes the answer (labels that differ across temperaments, mean intensity).
import { psyche } from '../../../../reference/engine/psyche/index.ts';
import { FAMILY } from '../../../../reference/engine/psyche/text.ts';
import type { PersonaConfig } from '../../../../contract/resources.ts';
import { APART, ROSA, TEMPERAMENTS, type Family, type Labelled, type Temperament } from './labels.ts';

export const familyOf = (primary: string): Family => {
  const f = FAMILY[primary] ?? 'neutral';
  return (f === 'glad' || f === 'warm' ? 'positive' : f) as Family;
};

const configs = new Map<Temperament, PersonaConfig>();
function configOf(t: Temperament): PersonaConfig {
  let c = configs.get(t);
  if (!c) configs.set(t, c = psyche.normalizeConfig({ ...ROSA, personality: { ...TEMPERAMENTS[t] } } as Partial<PersonaConfig>, 'Rosa'));
  return c;
}

export interface Felt { primary: string; family: Family; intensity: number; text: string }

export function feel(t: Temperament, message: string): Felt {
  const config = configOf(t);
  const snap = psyche.create(config, 'heldout', 0);
  const out = psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source: 'guest', sourceId: 'g1', text: message, timestamp: 0 });
  return { primary: out.discrete.primary, family: familyOf(out.discrete.primary), intensity: out.discrete.intensity, text: out.text };
}

export const accepts = (l: Labelled, f: Family) => (Array.isArray(l.expect) ? l.expect.includes(f) : l.expect === f);

export interface HalfScore {
  /** Share of hits per temperament, sarcasm left out. */
  byTemperament: Record<Temperament, number>;
  /** Share of hits per class over the three temperaments. */
  byClass: Record<string, number>;
  /** Hits over every temperament and message, sarcasm left out. */
  overall: number;
  misses: string[];
  /** Messages whose family differs between at least two temperaments. */
  temperamentChanges: number;
  /** Mean label intensity per temperament. */
  meanIntensity: Record<Temperament, number>;
  /** Mean intensity per temperament on messages expected to hurt (hostile, afraid, sad) and to please (positive). */
  hurt: Record<Temperament, number>;
  please: Record<Temperament, number>;
  /** Primary labels felt per class (over the temperaments), e.g. how often the persona's fault is shame. */
  labels: Record<string, Record<string, number>>;
}

export function score(set: Labelled[]): HalfScore {
  const temps = Object.keys(TEMPERAMENTS) as Temperament[];
  const hits: Record<string, number> = {}, counts: Record<string, number> = {};
  const byT = {} as Record<Temperament, number>, intensity = {} as Record<Temperament, number>;
  const misses: string[] = [];
  const labels: Record<string, Record<string, number>> = {};
  let changes = 0, all = 0, allHits = 0;
  const scored = set.filter((l) => !APART.has(l.cls)).length;
  const hurt = {} as Record<Temperament, number>, please = {} as Record<Temperament, number>;
  const nHurt = set.filter((l) => !APART.has(l.cls) && [l.expect].flat().every((f) => f === 'hostile' || f === 'afraid' || f === 'sad')).length;
  const nPlease = set.filter((l) => [l.expect].flat().every((f) => f === 'positive')).length;
  for (const t of temps) { byT[t] = 0; intensity[t] = 0; hurt[t] = 0; please[t] = 0; }
  for (const l of set) {
    const families = new Set<Family>();
    for (const t of temps) {
      const f = feel(t, l.message);
      families.add(f.family);
      const seen = (labels[l.cls] ??= {});
      seen[f.primary] = (seen[f.primary] ?? 0) + 1;
      const ok = accepts(l, f.family);
      hits[l.cls] = (hits[l.cls] ?? 0) + (ok ? 1 : 0);
      counts[l.cls] = (counts[l.cls] ?? 0) + 1;
      intensity[t] += f.intensity / set.length;
      const want = [l.expect].flat();
      if (!APART.has(l.cls) && want.every((x) => x === 'hostile' || x === 'afraid' || x === 'sad')) hurt[t] += f.intensity / nHurt;
      if (want.every((x) => x === 'positive')) please[t] += f.intensity / nPlease;
      if (!APART.has(l.cls)) { byT[t] += ok ? 1 / scored : 0; all++; allHits += ok ? 1 : 0; }
      if (!ok) misses.push(`[${l.cls}/${t}] ${l.message.slice(0, 70)} → ${f.primary} (expected ${[l.expect].flat().join('|')})`);
    }
    if (families.size > 1) changes++;
  }
  const byClass: Record<string, number> = {};
  for (const c of Object.keys(counts)) byClass[c] = hits[c] / counts[c];
  return { byTemperament: byT, byClass, overall: allHits / all, misses, temperamentChanges: changes, meanIntensity: intensity, labels, hurt, please };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The report's table: one row per class, then per temperament, for the tuning half, the held-out
 *  half and, when given, the generated set (the second held-out set, issue 36). */
export function table(tuning: HalfScore, heldout: HalfScore, generated?: HalfScore): string {
  const sets = generated ? [tuning, heldout, generated] : [tuning, heldout];
  const cols = (f: (h: HalfScore) => string) => sets.map((h, i) => f(h).padStart(i ? 11 : 9)).join('');
  const lines = [`${'class'.padEnd(18)}${'tuning'.padStart(9)}${'held-out'.padStart(11)}${generated ? 'generated'.padStart(11) : ''}`];
  for (const c of Object.keys(tuning.byClass)) lines.push(`${c.padEnd(18)}${cols((h) => pct(h.byClass[c] ?? 0))}${APART.has(c) ? '  (apart)' : ''}`);
  for (const t of Object.keys(tuning.byTemperament) as Temperament[]) {
    lines.push(`${`[${t}]`.padEnd(18)}${cols((h) => pct(h.byTemperament[t]))}  mean intensity ${sets.map((h) => h.meanIntensity[t].toFixed(2)).join(' / ')}`);
  }
  lines.push(`${'overall'.padEnd(18)}${cols((h) => pct(h.overall))}`);
  lines.push(`messages whose family changes with temperament: ${sets.map((h) => h.temperamentChanges).join(' / ')}`);
  const r = (h: HalfScore, k: 'hurt' | 'please') => `${h[k].steady.toFixed(3)} → ${h[k].volatile.toFixed(3)} (×${(h[k].volatile / h[k].steady).toFixed(2)})`;
  lines.push(`mean intensity steady → volatile: hurtful messages ${sets.map((h) => r(h, 'hurt')).join(' / ')}; pleasing ${sets.map((h) => r(h, 'please')).join(' / ')}`);
  const fault = (h: HalfScore) => JSON.stringify(h.labels['own-fault'] ?? {});
  lines.push(`the persona's own fault felt as: ${sets.map(fault).join(' / ')}`);
  return lines.join('\n');
}
