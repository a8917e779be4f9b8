// Observed affect dynamics from the emotion history (Kuppens & Verduyn 2017's indices), computed
// over the last WINDOW samples and averaged over V, A, D:
//   variability      = standard deviation                              ∈ [0, 1]
//   instability      = √MSSD, root mean squared successive difference    ∈ [0, 2]   (Jahng et al. 2008)
//   inertia_observed = lag-1 autocorrelation                              ∈ [−1, 1]  (Kuppens et al. 2010)
// Interpersonal style on the interpersonal circumplex (Wiggins 1979; Kiesler 1983): dominance and
// affiliation ∈ [−1, 1] track the felt dominance and valence, anchored in extraversion,
// agreeableness and the trust the persona holds toward others.
import type { PersonaSnapshot, PersonaState } from '../../../contract/resources.ts';
import type { Traits } from './personality.ts';
import { centred } from './personality.ts';
import { clamp, clamp11, fin, relax, round } from './util.ts';
import { meanTrust } from './relationships.ts';

export const AFFECT = { WINDOW: 20 } as const;

export const INTERPERSONAL = {
  /** Share of the gap to the current target closed per percept. */
  RATE: 0.2,
  /** Time constant (seconds) toward the trait anchor when alone. */
  TAU: 2 * 3600,
  DOM_EMOTION: 0.6, DOM_E: 0.4,
  AFF_EMOTION: 0.4, AFF_A: 0.3, AFF_TRUST: 0.3,
} as const;

// Scratch for one member of the window (values are finite: fin() of the history).
const WINDOW_VALUES = new Float64Array(AFFECT.WINDOW);
const INDICES = new Float64Array(3);

/**
 * The three indices of the first `n` values of WINDOW_VALUES (whose sum is `sum`), into INDICES.
 * Each sum runs over the values in index order, as the means of the lists did.
 */
function indices(n: number, sum: number): void {
  const xs = WINDOW_VALUES;
  if (n < 2) { INDICES[0] = 0; INDICES[1] = 0; INDICES[2] = 0; return; }
  const m = sum / n;
  let sq = (xs[0] - m) ** 2, ssd = 0, num = 0;
  for (let i = 1; i < n; i++) {
    sq += (xs[i] - m) ** 2;
    ssd += (xs[i] - xs[i - 1]) ** 2;
    num += (xs[i] - m) * (xs[i - 1] - m);
  }
  const variance = sq / n;
  const mssd = ssd / (n - 1);
  const inertia = variance > 1e-12 ? num / (variance * n) : 0;
  INDICES[0] = Math.sqrt(variance);
  INDICES[1] = Math.sqrt(mssd);
  INDICES[2] = clamp11(inertia);
}

export function observe(s: PersonaState): void {
  const h = s.emotion_history;
  const from = Math.max(0, h.length - AFFECT.WINDOW);
  const n = h.length - from;
  // V, A, D in turn; the sums of the three members keep that order.
  let sum = 0;
  for (let i = 0; i < n; i++) sum += (WINDOW_VALUES[i] = fin(h[from + i].V, 0));
  indices(n, sum);
  let variability = 0 + INDICES[0], instability = 0 + INDICES[1], inertia = 0 + INDICES[2];
  sum = 0;
  for (let i = 0; i < n; i++) sum += (WINDOW_VALUES[i] = fin(h[from + i].A, 0));
  indices(n, sum);
  variability += INDICES[0]; instability += INDICES[1]; inertia += INDICES[2];
  sum = 0;
  for (let i = 0; i < n; i++) sum += (WINDOW_VALUES[i] = fin(h[from + i].D, 0));
  indices(n, sum);
  variability += INDICES[0]; instability += INDICES[1]; inertia += INDICES[2];
  s.affect_dynamics = {
    variability: round(clamp(variability / 3, 0, 1)),
    instability: round(clamp(instability / 3, 0, 2)),
    inertia_observed: round(clamp11(inertia / 3)),
  };
}

function targets(snap: PersonaSnapshot, t: Traits) {
  const e = snap.state.emotion;
  return {
    dominance: clamp11(INTERPERSONAL.DOM_EMOTION * e.D + INTERPERSONAL.DOM_E * centred(t.E)),
    affiliation: clamp11(INTERPERSONAL.AFF_EMOTION * e.V + INTERPERSONAL.AFF_A * centred(t.A) + INTERPERSONAL.AFF_TRUST * (2 * meanTrust(snap) - 1)),
  };
}

function toward(snap: PersonaSnapshot, t: Traits, k: number): void {
  const ip = snap.state.interpersonal;
  const g = targets(snap, t);
  ip.dominance = round(clamp11(fin(ip.dominance, 0) + k * (g.dominance - fin(ip.dominance, 0))));
  ip.affiliation = round(clamp11(fin(ip.affiliation, 0) + k * (g.affiliation - fin(ip.affiliation, 0))));
}

export const interact = (snap: PersonaSnapshot, t: Traits) => toward(snap, t, INTERPERSONAL.RATE);
export const settleInterpersonal = (snap: PersonaSnapshot, t: Traits, dt: number) => toward(snap, t, 1 - relax(dt, INTERPERSONAL.TAU));
export const initialInterpersonal = (t: Traits) => ({
  dominance: round(clamp11(INTERPERSONAL.DOM_E * centred(t.E))),
  affiliation: round(clamp11(INTERPERSONAL.AFF_A * centred(t.A))),
});
