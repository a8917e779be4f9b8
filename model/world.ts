// What SPEC.md determines of one world, as the model keeps it: the definition it was given, its
// entities, the events it accepted by exact type, the seconds its ticks sent, and its triggers. Pure:
// no request is made here. What SPEC.md leaves open is kept as a set of possibilities (the phase while a
// trigger may fire at its event or at the next tick) or a bound (eventCounts when a deployment reports
// generated events of the same type), never as one guessed value.

export type Tenant = 'main' | 'second';

export interface TriggerSpec { id: string; eventType: string; threshold: number; targetPhase: string }

export interface WorldModel {
  /** The world's place in the run (commands name worlds by slot: ids are known only once made). */
  slot: number;
  id: string;
  tenant: Tenant;
  createdAt: number;
  name: string;
  physics: Record<string, boolean>;
  entities: Array<{ name: string; type: string }>;
  initialPhase: string;
  triggers: TriggerSpec[];
  deleted: boolean;
  /** Accepted dispatched events by exact type. */
  dispatched: Record<string, number>;
  /** Events of a type reported by results beyond the dispatched one (a deployment may generate events): the upper bound's slack. */
  generated: Record<string, number>;
  /** Seconds of every accepted tick, in order. */
  seconds: number[];
  /** elapsedTime per second sent (time.ratio and the unit, neither shown), learned from the first tick that moved it. */
  rate?: number;
  /**
   * Moments a trigger may fire: at the event that made its count reach the threshold (`must`: it fires
   * there or at the next tick), or at a later event of its type (a oneShot re-firing, not shown: `may`).
   * `window` = ticks accepted before the event.
   */
  firings: Array<{ triggerId: string; window: number; must: boolean }>;
  /** Spaces the deployment showed (SPEC.md shows no way to make one but an import): ids, kept while nothing changes them. */
  spaces?: string[];
  /** Spaces came from an import (MODEL-3), not only from what the deployment showed. */
  importedSpaces?: boolean;
  /** Relationships an import gave: "sourceId|sourceName" → "targetId|targetName" → trust. */
  relationships?: Record<string, Record<string, number>>;
  /** Renamed by a PATCH (its name is then WORLD-11's). */
  patched?: boolean;
  /** rules.physics set by a PATCH (what it shows is then WORLD-11's). */
  physicsPatched?: boolean;
  /** Restored after a soft delete (what it shows then is STATE-1's: the record was kept). */
  restored?: boolean;
  /** PATCHes made (for a new name each time). */
  renames?: number;
  /** Time jumps accepted (POST /worlds/{id}/time-jump), each in the unit of the served body's member (model/world-parts.ts). */
  jumps?: number[];
  /** elapsedTime per unit jumped (a jump's unit and its relation to a tick's seconds: not shown), learned from the first jump. */
  jumpRate?: number;
  /** What the model keeps of the world's personas, actions and relationships (model/world-parts.ts). */
  parts?: import('./world-parts.ts').WorldParts;
}

export function newWorld(init: Pick<WorldModel, 'slot' | 'id' | 'tenant' | 'createdAt' | 'name' | 'physics' | 'entities' | 'initialPhase' | 'triggers'>): WorldModel {
  return { ...init, deleted: false, dispatched: {}, generated: {}, seconds: [], firings: [] };
}

export const ticks = (w: WorldModel) => w.seconds.length;
export const sentSeconds = (w: WorldModel) => w.seconds.reduce((a, b) => a + b, 0);

/** An accepted event of exactly `type`; `reported` is how many events of that type its result lists. */
export function dispatch(w: WorldModel, type: string, reported: number): void {
  const before = w.dispatched[type] ?? 0;
  w.dispatched[type] = before + 1;
  if (reported > 1) w.generated[type] = (w.generated[type] ?? 0) + reported - 1;
  for (const t of w.triggers.filter((t) => t.eventType === type)) {
    const reached = before + 1 >= t.threshold;
    if (!reached) continue;
    const first = before + 1 === t.threshold;
    w.firings.push({ triggerId: t.id, window: ticks(w), must: first });
  }
}

/** An accepted tick; `reported` counts the events of each type its result lists (possibly counted too). */
export function tick(w: WorldModel, seconds: number, reported: Record<string, number>): void {
  w.seconds.push(seconds);
  for (const [type, n] of Object.entries(reported)) w.generated[type] = (w.generated[type] ?? 0) + n;
}

/** Whether the model predicts the triggers on a type: no generated event of that type was ever reported. */
const certain = (w: WorldModel, type: string) => !(w.generated[type] > 0);

/** The range eventCounts[type] may take. */
export function countRange(w: WorldModel, type: string): [number, number] {
  const n = w.dispatched[type] ?? 0;
  return [n, n + (w.generated[type] ?? 0)];
}

/** Triggers that must have fired (their threshold reached and a tick since) and those that may have. */
export function fired(w: WorldModel): { must: string[]; may: string[] } {
  const known = w.firings.filter((f) => certain(w, typeOf(w, f.triggerId)));
  const may = [...new Set(w.firings.map((f) => f.triggerId))];
  const must = [...new Set(known.filter((f) => f.must && ticks(w) > f.window).map((f) => f.triggerId))];
  return { must, may };
}

const typeOf = (w: WorldModel, triggerId: string) => w.triggers.find((t) => t.id === triggerId)?.eventType ?? '';
const targetOf = (w: WorldModel, triggerId: string) => w.triggers.find((t) => t.id === triggerId)?.targetPhase ?? '';

/**
 * The phases the world may be in, or undefined when the model cannot say (a trigger's type had
 * generated events). The last window with a possible firing decides: any of its triggers may have
 * fired last (at their events, or in any order at the tick). When none of them must have fired by now
 * (the window is still open, or its firings are only re-firings), the phases before it stay possible.
 */
export function phases(w: WorldModel): Set<string> | undefined {
  if (w.firings.some((f) => !certain(w, typeOf(w, f.triggerId)))) return undefined;
  const before = (limit: number): Set<string> => {
    const candidates = w.firings.filter((f) => f.window <= limit);
    if (!candidates.length) return new Set([w.initialPhase]);
    const last = Math.max(...candidates.map((f) => f.window));
    const group = candidates.filter((f) => f.window === last);
    const out = new Set(group.map((f) => targetOf(w, f.triggerId)));
    const settled = ticks(w) > last && group.some((f) => f.must);
    if (!settled) for (const p of before(last - 1)) out.add(p);
    return out;
  };
  return before(Number.POSITIVE_INFINITY);
}

const jumped = (w: WorldModel) => (w.jumps ?? []).reduce((a, b) => a + b, 0);

/** Whether elapsedTime fits the seconds sent and the time jumped: each at the rate learned from its first reading, within rounding. */
export function elapsedFits(w: WorldModel, elapsed: number): boolean {
  const sent = sentSeconds(w);
  const jump = jumped(w);
  if (sent === 0 && jump === 0) return elapsed === 0;
  if ((sent > 0 && w.rate === undefined) || (jump > 0 && w.jumpRate === undefined)) return elapsed > 0;
  const expected = (w.rate ?? 0) * sent + (w.jumpRate ?? 0) * jump;
  return Math.abs(elapsed - expected) <= 1e-9 * Math.max(1, Math.abs(expected)) + 1e-9;
}

/** Whether a reading would teach the model a rate it lacks (ticks or jumps accepted, their rate not yet known). */
export const rateUnknown = (w: WorldModel) => (sentSeconds(w) > 0 && w.rate === undefined) || (jumped(w) > 0 && w.jumpRate === undefined);

/** Learns the rate of ticks, or of jumps, from a reading where it is the only one unknown (elapsedTime less the known part, over the amount). */
export function learnRate(w: WorldModel, elapsed: number): void {
  const sent = sentSeconds(w);
  const jump = jumped(w);
  const needTicks = sent > 0 && w.rate === undefined;
  const needJumps = jump > 0 && w.jumpRate === undefined;
  if (needTicks === needJumps || typeof elapsed !== 'number') return;
  const rest = elapsed - (needTicks ? (w.jumpRate ?? 0) * jump : (w.rate ?? 0) * sent);
  if (!(rest > 0)) return;
  if (needTicks) w.rate = rest / sent;
  else w.jumpRate = rest / jump;
}

/** The elapsedTime the model expects, as a failure shows it. */
export function expectedElapsed(w: WorldModel): string {
  const sent = sentSeconds(w);
  const jumps = w.jumps?.length ? `; time jumped ${w.jumps!.join(' + ')}${w.jumpRate === undefined ? '' : ` at the ${w.jumpRate} per unit the first jump showed`}` : '';
  if (sent === 0 && !jumps) return '0 (no tick accepted)';
  if (rateUnknown(w)) return `above 0 (ticks sent ${w.seconds.join(' + ') || 'none'} s${jumps})`;
  const expected = (w.rate ?? 0) * sent + (w.jumpRate ?? 0) * jumped(w);
  return `${expected} (ticks sent ${w.seconds.join(' + ') || 'none'} = ${sent} s${w.rate === undefined ? '' : `, at the ${w.rate} per second the first tick showed`}${jumps})`;
}
