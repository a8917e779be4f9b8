// The held-out gate (issue 27): the labelled set of heldout/, split once into a tuning half and a
// held-out half, felt by a fresh persona of three temperaments. The held-out half must reach the
// level per temperament, no class but sarcasm may fall under 70% on it, and it may not trail the
// tuning half by more than 10 points (that would be a model of the tuning half, not of language).
import { describe, expect, it } from 'vitest';
import { HELDOUT } from './heldout/heldout.ts';
import { TUNING } from './heldout/tuning.ts';
import { APART, CLASSES, TEMPERAMENTS, type Temperament } from './heldout/labels.ts';
import { score, table } from './heldout/score.ts';
import { GENERATED } from './heldout/generated.ts';
import { generate } from './heldout/generate.ts';

/** The level the held-out half reaches per temperament (the issue aims at 85%; psyche-2.2.0 reaches
 *  93.0% steady, 94.3% balanced, 94.3% volatile; 2.1.0 91.1 / 92.4 / 93.6%; 51–54% before 2.1). */
const LEVEL = 0.9;
const CLASS_FLOOR = 0.7;
const MAX_GAP = 0.1;

const tuning = score(TUNING);
const heldout = score(HELDOUT);
// The generated set (issue 36) is printed beside the halves, not gated here.
console.log(table(tuning, heldout, score(GENERATED)));

describe('the labelled set of issue 27', () => {
  it('has at least 300 messages over the 17 classes, split once into two halves of no shared message', () => {
    expect(TUNING.length + HELDOUT.length).toBeGreaterThanOrEqual(300);
    for (const c of CLASSES) {
      expect(TUNING.filter((l) => l.cls === c).length, c).toBeGreaterThanOrEqual(8);
      expect(HELDOUT.filter((l) => l.cls === c).length, c).toBeGreaterThanOrEqual(8);
    }
    const seen = new Set(TUNING.map((l) => l.message));
    expect(HELDOUT.filter((l) => seen.has(l.message))).toEqual([]);
  });

  for (const t of Object.keys(TEMPERAMENTS) as Temperament[]) {
    it(`a ${t} persona feels the expected family for at least ${LEVEL * 100}% of the held-out half`, () => {
      expect(heldout.byTemperament[t]).toBeGreaterThanOrEqual(LEVEL);
    });
  }

  it(`no class but sarcasm falls under ${CLASS_FLOOR * 100}% on either half`, () => {
    const low = [tuning, heldout].flatMap((h, i) => Object.entries(h.byClass)
      .filter(([c, x]) => !APART.has(c) && x < CLASS_FLOOR).map(([c, x]) => `${i ? 'held-out' : 'tuning'} ${c} ${(100 * x).toFixed(1)}%`));
    expect(low).toEqual([]);
  });

  it(`the held-out half trails the tuning half by at most ${MAX_GAP * 100} points`, () => {
    expect(tuning.overall - heldout.overall).toBeLessThanOrEqual(MAX_GAP);
    for (const t of Object.keys(TEMPERAMENTS) as Temperament[]) expect(tuning.byTemperament[t] - heldout.byTemperament[t], t).toBeLessThanOrEqual(MAX_GAP);
  });

  it('has a second held-out set generated from templates, frozen as committed, sharing no message with the halves', () => {
    expect(GENERATED).toEqual(generate());
    for (const c of CLASSES) expect(GENERATED.filter((l) => l.cls === c).length, c).toBeGreaterThanOrEqual(8);
    const seen = new Set([...TUNING, ...HELDOUT].map((l) => l.message));
    expect(GENERATED.filter((l) => seen.has(l.message))).toEqual([]);
  });
});
