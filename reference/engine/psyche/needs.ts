// Basic psychological needs of self-determination theory (Deci & Ryan 2000): autonomy, competence,
// relatedness, each in [0, 1]. Percepts satisfy or frustrate them (controllability → autonomy,
// good outcomes one caused → competence, friendly or hostile contact → relatedness); with time
// they drift back to a set point. Motivation contexts (one per source) record perceived locus of
// causality (Ryan & Connell 1989) and freedom threat, the trigger of reactance (Brehm 1966).
import type { Appraisal, NeedState, PersonaSnapshot } from '../../../contract/resources.ts';
import { clamp01, fin, relax, round } from './util.ts';
import { deleteOwn, getOwn, setOwn } from '../keyed.ts';

export const NEEDS = {
  SET_POINT: 0.6,
  /** Time constant (seconds) of the drift back to the set point. */
  TAU: 12 * 3600,
  AUTONOMY: 0.06,
  COMPETENCE: 0.06,
  RELATEDNESS: 0.06,
  /** Freedom threat moves this share toward the percept's threat. */
  THREAT_RATE: 0.5,
  /** Contexts kept (oldest dropped). */
  CONTEXTS: 20,
} as const;

export const initialNeeds = (): NeedState => ({ autonomy: NEEDS.SET_POINT, competence: NEEDS.SET_POINT, relatedness: NEEDS.SET_POINT });

const bounded = (n: NeedState): NeedState => ({
  autonomy: round(clamp01(fin(n.autonomy, NEEDS.SET_POINT))),
  competence: round(clamp01(fin(n.competence, NEEDS.SET_POINT))),
  relatedness: round(clamp01(fin(n.relatedness, NEEDS.SET_POINT))),
});

export function addNeeds(n: NeedState, d: Partial<NeedState> | undefined): NeedState {
  return bounded({
    autonomy: fin(n.autonomy, NEEDS.SET_POINT) + fin(d?.autonomy, 0),
    competence: fin(n.competence, NEEDS.SET_POINT) + fin(d?.competence, 0),
    relatedness: fin(n.relatedness, NEEDS.SET_POINT) + fin(d?.relatedness, 0),
  });
}

/** The needs change a percept implies. */
export function needsFromAppraisal(a: Appraisal, social: boolean): NeedState {
  const r = a.goal_relevance;
  return {
    autonomy: NEEDS.AUTONOMY * r * (2 * a.controllability - 1),
    competence: NEEDS.COMPETENCE * r * a.goal_congruence * (0.5 + 0.5 * Math.max(0, a.agency)),
    relatedness: social ? NEEDS.RELATEDNESS * r * a.goal_congruence : 0,
  };
}

export function driftNeeds(n: NeedState, dt: number): NeedState {
  const k = relax(dt, NEEDS.TAU);
  const f = (x: number) => NEEDS.SET_POINT + (fin(x, NEEDS.SET_POINT) - NEEDS.SET_POINT) * k;
  return bounded({ autonomy: f(n.autonomy), competence: f(n.competence), relatedness: f(n.relatedness) });
}

/** Updates the motivation context of the percept's source (or the event type when no source). */
export function updateMotivation(s: PersonaSnapshot, key: string, a: Appraisal, controlSource: string): void {
  const ctxs = s.motivationContexts;
  const prev = getOwn(ctxs, key);
  // Threat to freedom: a relevant, uncontrollable percept, more so when it harms.
  const threat = clamp01(a.goal_relevance * (1 - a.controllability) * (a.goal_congruence < 0 ? 1 : 0.3));
  const freedomThreat = prev ? fin(prev.freedomThreat, 0) + NEEDS.THREAT_RATE * (threat - fin(prev.freedomThreat, 0)) : threat;
  deleteOwn(ctxs, key); // re-insert so insertion order is recency order
  setOwn(ctxs, key, {
    autonomy: s.state.need_state.autonomy,
    locus: a.controllability >= 0.5 ? 'internal' : 'external',
    freedomThreat: round(clamp01(freedomThreat)),
    controlSource,
  });
  const keys = Object.keys(ctxs);
  for (let i = 0; i < keys.length - NEEDS.CONTEXTS; i++) delete ctxs[keys[i]];
}
