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
import { clamp, clamp11, fin, mean, relax, round } from './util.ts';
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

function indices(xs: number[]): [number, number, number] {
  if (xs.length < 2) return [0, 0, 0];
  const m = mean(xs);
  const variance = mean(xs.map((x) => (x - m) ** 2));
  const mssd = mean(xs.slice(1).map((x, i) => (x - xs[i]) ** 2));
  let num = 0;
  for (let i = 1; i < xs.length; i++) num += (xs[i] - m) * (xs[i - 1] - m);
  const inertia = variance > 1e-12 ? num / (variance * xs.length) : 0;
  return [Math.sqrt(variance), Math.sqrt(mssd), clamp11(inertia)];
}

export function observe(s: PersonaState): void {
  const h = s.emotion_history.slice(-AFFECT.WINDOW);
  const per = (['V', 'A', 'D'] as const).map((k) => indices(h.map((x) => fin(x[k], 0))));
  s.affect_dynamics = {
    variability: round(clamp(mean(per.map((p) => p[0])), 0, 1)),
    instability: round(clamp(mean(per.map((p) => p[1])), 0, 2)),
    inertia_observed: round(clamp11(mean(per.map((p) => p[2])))),
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
