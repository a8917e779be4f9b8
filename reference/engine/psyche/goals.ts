// Goals: which active goals a percept concerns (overlap of the text's concepts with the goal's:
// stems through synonym groups, see language.ts),
// how far it moves them (goal congruence, Carver & Scheier's progress feedback), and their status
// changes: progress +1 achieves a goal, −1 abandons a mutable one (immutable goals persist), and a
// dormant goal becomes active when a percept favours it or when an active goal is closed.
import type { Appraisal, EntityResponse, Goal } from '../../../contract/resources.ts';
import { GOAL_STATUS } from './defaults.ts';
import { getOwn, setOwn } from '../keyed.ts';
import { concepts } from './language.ts';
import { clamp01, clamp11, fin, memoize, round } from './util.ts';

export const GOALS = {
  /** Shared concepts that make a full match. */
  FULL_MATCH_WORDS: 2,
  /** Progress per percept = GAIN · match · goal_congruence. */
  PROGRESS_GAIN: 0.45,
  /** An explicitly given relevance with no matching text applies to the top goal at this weight. */
  UNMATCHED_WEIGHT: 0.6,
  /** Match and congruence a percept needs to activate a dormant goal. */
  ACTIVATE_MATCH: 0.5,
  ACTIVATE_CONGRUENCE: 0.2,
} as const;

/** A goal's concepts, read once per content. */
const goalConcepts = memoize((content: string): ReadonlySet<string> => concepts(content));

export function match(goal: Goal, t: ReadonlySet<string>): number {
  const g = goalConcepts(typeof goal.content === 'string' ? goal.content : '');
  if (!g.size) return 0;
  let shared = 0;
  for (const w of g) if (t.has(w)) shared++;
  return clamp01(shared / Math.min(GOALS.FULL_MATCH_WORDS, g.size));
}

const active = (goals: Goal[]) => goals.filter((g) => g.status === GOAL_STATUS.active);

/** Relevance of a text to the persona's active goals, in [0, 1] (match weighted by priority). */
export function goalRelevance(goals: Goal[], text: ReadonlySet<string>): number {
  let best = 0;
  for (const g of active(goals)) best = Math.max(best, match(g, text) * clamp01(fin(g.priority, 0.5)));
  return best;
}

/** The names in a goal ("see my daughter Lucia finish medical school": Lucia): capitalised words after its first. */
const goalNames = memoize((content: string): readonly string[] =>
  Object.freeze(content.split(/[^\p{L}'-]+/u).slice(1).filter((w) => /^\p{Lu}\p{Ll}/u.test(w))));

/** `name` written as a word of `text`, capitalised as a name ("Lucia", not "blue" for "Blue Anchor"). */
function names(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
    const before = text.charAt(at - 1), after = text.charAt(at + name.length);
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/**
 * How far a text concerns the persona's goals or the people named in them, [0, 1]: the best goal
 * match (unweighted), or 1 when the text names, capitalised, a name of an active goal.
 */
export function goalShare(goals: Goal[], concepts: ReadonlySet<string>, text: string): number {
  let best = 0;
  for (const g of goals) {
    if (g.status !== GOAL_STATUS.active) continue;
    const content = typeof g.content === 'string' ? g.content : '';
    for (const n of goalNames(content)) if (names(text, n)) return 1;
    best = Math.max(best, match(g, concepts));
  }
  return best;
}

type Changes = EntityResponse['goalChanges'];

/** A goal in the list is never written to (the store shares array elements between versions): a status change puts a changed copy in its place. */
function setStatus(goals: Goal[], g: Goal, status: string): void {
  goals[goals.indexOf(g)] = { ...g, status };
}

export function updateGoals(
  goals: Goal[], progress: Record<string, number>, text: ReadonlySet<string>, a: Appraisal, relevanceGiven: boolean,
): Changes {
  const out: Changes = { achieved: [], abandoned: [], activated: [] };
  const current = active(goals);
  const matches = current.map((g) => match(g, text));
  if (relevanceGiven && !matches.some((m) => m > 0) && current.length) {
    // The caller said the percept matters but the text names no goal: it concerns the top goal.
    const top = current.reduce((b, g) => (fin(g.priority, 0) > fin(b.priority, 0) ? g : b));
    matches[current.indexOf(top)] = GOALS.UNMATCHED_WEIGHT * clamp01(a.goal_relevance);
  }
  current.forEach((g, i) => {
    if (!matches[i]) return;
    const p = clamp11(fin(getOwn(progress, g.id), 0) + GOALS.PROGRESS_GAIN * matches[i] * a.goal_congruence);
    setOwn(progress, g.id, round(p));
    if (p >= 1) { setStatus(goals, g, GOAL_STATUS.achieved); out.achieved.push(g.id); }
    else if (p <= -1 && g.mutable) { setStatus(goals, g, GOAL_STATUS.abandoned); out.abandoned.push(g.id); }
  });
  const dormant = goals.filter((g) => g.status === GOAL_STATUS.dormant);
  const woken = new Set<Goal>();
  for (const g of dormant) {
    if (match(g, text) >= GOALS.ACTIVATE_MATCH && a.goal_congruence >= GOALS.ACTIVATE_CONGRUENCE) {
      setStatus(goals, g, GOAL_STATUS.active); woken.add(g); out.activated.push(g.id);
    }
  }
  // A closed goal leaves room: the highest-priority dormant goal takes its place.
  const closed = out.achieved.length + out.abandoned.length;
  const waiting = dormant.filter((g) => !woken.has(g)).sort((x, y) => fin(y.priority, 0) - fin(x.priority, 0));
  for (let i = 0; i < closed && i < waiting.length; i++) {
    setStatus(goals, waiting[i], GOAL_STATUS.active); out.activated.push(waiting[i].id);
  }
  return out;
}
