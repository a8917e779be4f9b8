// Progression of a world (SPEC.md, States and transitions): events are counted by type; an
// event_count trigger fires when its count reaches its threshold. A oneShot trigger fires once.
// A trigger that is not oneShot re-arms: it fires again each time its count reaches another
// multiple of its threshold (N, 2N, …); firing toward the phase already current changes nothing.
import type { ProgressionState, WorldDefinition } from '../../../contract/resources.ts';
import type { WorldDoc } from './model.ts';
import { getOwn, setOwn } from '../keyed.ts';

export function initialProgression(definition: WorldDefinition, at: number): ProgressionState {
  return {
    currentPhase: definition.progression.initialPhase,
    elapsedTime: 0,
    eventCounts: {},
    phaseHistory: [{ phase: definition.progression.initialPhase, enteredAt: at }],
    firedTriggerIds: [],
    triggers: structuredClone(definition.progression.triggers),
    phases: structuredClone(definition.progression.phases),
  };
}

/** Keeps triggers and phases in step with a changed definition; counts and history stay. */
export function syncProgression(world: WorldDoc): void {
  world.progression.triggers = structuredClone(world.definition.progression.triggers);
  world.progression.phases = structuredClone(world.definition.progression.phases);
}

/** Counts one event and fires the triggers it completes; returns the phase entered, if any. */
export function countEvent(world: WorldDoc, type: string, at: number): string | undefined {
  const p = world.progression;
  const count = (getOwn(p.eventCounts, type) ?? 0) + 1;
  setOwn(p.eventCounts, type, count);
  let entered: string | undefined;
  for (const trigger of p.triggers) {
    const c = trigger.condition;
    if (c.type !== 'event_count' || c.eventType !== type || c.threshold <= 0) continue;
    const fired = p.firedTriggerIds.includes(trigger.id);
    const due = trigger.oneShot ? !fired && count >= c.threshold : count % c.threshold === 0 && count >= c.threshold;
    if (!due) continue;
    if (!fired) p.firedTriggerIds.push(trigger.id);
    if (trigger.targetPhase === p.currentPhase) continue;
    const lastIndex = p.phaseHistory.length - 1;
    const last = p.phaseHistory[lastIndex];
    // Replaced, not modified: stored array items are shared between versions (Store.edit).
    if (last && last.exitedAt === undefined) p.phaseHistory[lastIndex] = { ...last, exitedAt: at };
    p.phaseHistory.push({ phase: trigger.targetPhase, enteredAt: at, triggerId: trigger.id });
    p.currentPhase = trigger.targetPhase;
    entered = trigger.targetPhase;
  }
  return entered;
}

/** The world's norm map with the current phase's override applied. */
export function currentNormMap(world: WorldDoc): Record<string, number> {
  const override = getOwn(world.progression.phases, world.progression.currentPhase)?.normMapOverride ?? {};
  return { ...world.definition.culture.normMap, ...override };
}

/** World time in milliseconds since the epoch: creation plus simulated elapsed seconds. */
export function worldTime(world: WorldDoc): number {
  return world.createdAt + Math.round(world.progression.elapsedTime * 1000);
}
