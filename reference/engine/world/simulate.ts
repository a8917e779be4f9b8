// The simulation operations of a world: chat, events, tick and time-jump, interact. Each returns its
// result and the events it wrote to the log; counting and triggers go through progression.ts.
import type { AffectedItem, EntityResponse, Event } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { psyche } from '../psyche/index.ts';
import type { Percept } from '../psyche/model.ts';
import { bystanders, entityOrFail, personaEntityOrFail, spaceOrFail } from './entities.ts';
import { countEvent, currentNormMap, worldTime } from './progression.ts';
import { describe, respond } from './respond.ts';
import { RECENT_EVENTS, type ActionRecord, type EntityRecord, type Outcome, type WorldDoc } from './model.ts';
import { getOwn, hasOwn } from '../keyed.ts';
import { elapsedAfter, pendingRoomOrFail, timestampOrFail } from './limits.ts';

/** Share of the recipient's emotion that bystanders catch when emotionalContagion is on. */
export const CONTAGION_SHARE = 0.2;
/** Weight of an overheard exchange for bystanders when groupAwareness is on. */
export const OVERHEARD_SHARE = 0.1;
/** Longest step of a tick (a minute, or 1/100 of a long tick): pending events land at their own time. */
const TICK_STEP_SECONDS = 60;
const MAX_TICK_STEPS = 100;
/**
 * A tick longer than this moves in one step, like a time-jump (pending events still land at their
 * time). The psyche's elapse integrates any span in at most 240 sub-steps of at least a minute, so
 * beyond 4 hours each world step costs it its maximum; 100 of them made a one-year tick cost 100
 * times a time-jump (about 50 ms per persona), blocking every tenant behind a large world.
 */
export const SINGLE_STEP_TICK_SECONDS = 240 * 60;

function record(world: WorldDoc, event: Event, logged: Event[]): string | undefined {
  world.recentEvents.push(event);
  if (world.recentEvents.length > RECENT_EVENTS) world.recentEvents.splice(0, world.recentEvents.length - RECENT_EVENTS);
  logged.push(event);
  return countEvent(world, event.type, event.timestamp ?? worldTime(world));
}

function trustToward(world: WorldDoc, source: string | undefined, target: string): number | undefined {
  return world.relationships.find((r) => r.source === source && r.target === target)?.relationship.trust;
}

function perceiveAs(world: WorldDoc, entity: EntityRecord, percept: Omit<Percept, 'worldTrust' | 'normMap'>): EntityResponse {
  return respond(getOwn(world.personas, entity.name)!, getOwn(world.personaConfigs, entity.name)!, {
    ...percept, worldTrust: trustToward(world, percept.source, entity.name), normMap: currentNormMap(world),
  });
}

/** Bystanders' reactions to an exchange: overheard (groupAwareness) and caught emotion (contagion). */
function ripple(world: WorldDoc, speaker: EntityRecord, recipient: EntityRecord, text: string, felt: EntityResponse) {
  const groupAwareness: AffectedItem[] = [];
  const affected: AffectedItem[] = [];
  const at = worldTime(world);
  for (const other of bystanders(world, recipient, [speaker.name])) {
    const runtime = getOwn(world.personas, other.name)!;
    const config = getOwn(world.personaConfigs, other.name)!;
    if (world.interaction.groupAwareness) {
      const response = psyche.witness(runtime.snapshot, config, felt.emotion, OVERHEARD_SHARE, at);
      groupAwareness.push({ entityName: other.name, response: { ...response, text: `(${other.name} overhears ${speaker.name}: "${text.slice(0, 80)}")` } });
    }
    if (world.interaction.emotionalContagion) {
      affected.push({ entityName: other.name, response: psyche.witness(runtime.snapshot, config, felt.emotion, CONTAGION_SHARE, at) });
    }
  }
  return { groupAwareness, affected };
}

export function chat(world: WorldDoc, body: { from: string; to: string; message: string }) {
  const from = entityOrFail(world, body.from, 'from');
  const to = personaEntityOrFail(world, body.to, 'to');
  const at = worldTime(world);
  const response = perceiveAs(world, to, {
    kind: 'chat', type: 'chat', source: from.name, sourceId: from.id, text: body.message, timestamp: at,
  });
  const { groupAwareness, affected } = ripple(world, from, to, body.message, response);
  const logged: Event[] = [];
  const phaseChanged = record(world, {
    type: 'chat', spaceId: to.spaceId, timestamp: at, sourceEntity: from.name, targetEntity: to.name,
    payload: { message: body.message, reply: response.text },
  }, logged);
  return {
    result: { entityName: to.name, response, affected, groupAwareness, ...(phaseChanged ? { phaseChanged } : {}) },
    logged,
  };
}

/** Who an event reaches: its target, else the personas of its space, else every persona. */
function recipients(world: WorldDoc, event: Event): EntityRecord[] {
  if (event.targetEntity !== undefined) return [personaEntityOrFail(world, event.targetEntity, 'targetEntity')];
  const personas = world.entities.filter((e) => hasOwn(world.personas, e.name));
  return event.spaceId !== undefined ? personas.filter((e) => e.spaceId === event.spaceId) : personas;
}

function deliver(world: WorldDoc, event: Event, logged: Event[]) {
  const source = event.sourceEntity !== undefined ? findSource(world, event.sourceEntity) : undefined;
  const affected: AffectedItem[] = recipients(world, event).map((entity) => ({
    entityName: entity.name,
    response: perceiveAs(world, entity, {
      kind: 'event', type: event.type, source: source?.name, sourceId: source?.id,
      text: describe(event),
      appraisal: event.appraisal, stimulus: event.stimulus, timestamp: event.timestamp ?? worldTime(world),
    }),
  }));
  const phaseChanged = record(world, event, logged);
  return { affected, phaseChanged };
}

const findSource = (world: WorldDoc, key: string) => entityOrFail(world, key, 'sourceEntity');

export function dispatchEvent(world: WorldDoc, input: DeepPartial<Event> & { type: string }): Outcome<{
  type: string; affected: AffectedItem[]; events: Event[]; phaseChanged?: string; scheduled?: boolean; recipients?: string[];
}> {
  const now = worldTime(world);
  timestampOrFail(input.timestamp);
  const event = { ...input, timestamp: input.timestamp ?? now } as Event;
  // Validate every reference before anything moves: a rejected event changes nothing.
  if (event.spaceId !== undefined) spaceOrFail(world, event.spaceId);
  if (event.sourceEntity !== undefined) findSource(world, event.sourceEntity);
  const reach = recipients(world, event);
  const logged: Event[] = [];
  if (event.timestamp! > now) {
    pendingRoomOrFail(world.pendingEvents, 'the world');
    world.pendingEvents.push(event);
    world.pendingEvents.sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
    return { result: { type: event.type, affected: [], events: [event], scheduled: true, recipients: reach.map((e) => e.name) }, logged };
  }
  const { affected, phaseChanged } = deliver(world, event, logged);
  return { result: { type: event.type, affected, events: logged, ...(phaseChanged ? { phaseChanged } : {}) }, logged };
}

/**
 * tick: time passes in steps of at most a minute (or 1/100 of the advance), pending events are
 * delivered at their time. time-jump: one step to each due event, then to the end.
 * Simulated seconds = seconds × time.ratio.
 */
export type AdvanceOutcome = Outcome<{ affected: AffectedItem[]; events: Event[]; phaseChanged?: string; elapsedTime: number }>;

export function advance(world: WorldDoc, seconds: number, mode: 'tick' | 'jump'): AdvanceOutcome {
  const run = advancing(world, seconds, mode);
  for (;;) {
    const next = run.next();
    if (next.done) return next.value;
  }
}

/**
 * The advance as a generator that yields after each persona's elapse and each delivered event, so a
 * caller may pause between them (the server does, for large worlds). Run to its end, it is advance.
 */
export function* advancing(world: WorldDoc, seconds: number, mode: 'tick' | 'jump'): Generator<void, AdvanceOutcome> {
  const simulated = seconds * (world.definition.time.ratio > 0 ? world.definition.time.ratio : 1);
  const start = world.progression.elapsedTime;
  const end = elapsedAfter(start, simulated);
  const logged: Event[] = [];
  const affected: AffectedItem[] = [];
  let phaseChanged: string | undefined;
  function* step(to: number) {
    const dt = to - world.progression.elapsedTime;
    if (dt <= 0) return;
    world.progression.elapsedTime = to;
    for (const [name, runtime] of Object.entries(world.personas)) {
      psyche.elapse(runtime.snapshot, getOwn(world.personaConfigs, name)!, dt, worldTime(world));
      yield;
    }
  }
  // Due time in simulated seconds, compared in the same unit as elapsedTime (no rounding loop).
  const dueAt = (event: Event | undefined) => event ? ((event.timestamp ?? 0) - world.createdAt) / 1000 : Infinity;
  function* deliverDue() {
    while (world.pendingEvents.length && dueAt(world.pendingEvents[0]) <= world.progression.elapsedTime) {
      const event = world.pendingEvents.shift()!;
      const r = deliver(world, event, logged);
      affected.push(...r.affected);
      phaseChanged = r.phaseChanged ?? phaseChanged;
      yield;
    }
  }
  // A jump (or a long tick) crosses the whole advance at once, stopping only where an event comes
  // due, so events are still felt in time order.
  const single = mode === 'jump' || simulated > SINGLE_STEP_TICK_SECONDS;
  const stride = single ? Infinity : Math.max(TICK_STEP_SECONDS, simulated / MAX_TICK_STEPS);
  // Steps restart from each due event: k steps after a stop at `from` end at from + k·stride
  // (computed, not accumulated). There are at most MAX_TICK_STEPS plus two per pending event, and a
  // step that rounding would leave empty ends the advance instead, so the loop always moves on.
  let from = start, k = 1;
  yield* deliverDue();
  while (world.progression.elapsedTime < end) {
    const grid = from + k * stride;
    let to = Math.min(end, grid, dueAt(world.pendingEvents[0]));
    if (to >= grid) k++;
    else { from = to; k = 1; }
    if (!(to > world.progression.elapsedTime)) to = end;
    yield* step(to);
    world.progression.elapsedTime = to;
    yield* deliverDue();
  }
  return { result: { affected, events: logged, ...(phaseChanged ? { phaseChanged } : {}), elapsedTime: world.progression.elapsedTime }, logged };
}

export function interact(world: WorldDoc, action: ActionRecord, body: { actor: string; target: string }) {
  const actor = entityOrFail(world, body.actor, 'actor');
  const target = personaEntityOrFail(world, body.target, 'target');
  const at = worldTime(world);
  const response = perceiveAs(world, target, {
    kind: 'action', type: action.name, source: actor.name, sourceId: actor.id, text: action.description,
    appraisal: action.appraisal, stimulus: action.stimulus, timestamp: at,
  });
  const logged: Event[] = [];
  const phaseChanged = record(world, {
    type: action.name, spaceId: target.spaceId, timestamp: at, sourceEntity: actor.name, targetEntity: target.name,
    payload: { actionId: action.id }, appraisal: action.appraisal, stimulus: action.stimulus as Event['stimulus'],
  }, logged);
  return {
    result: { actionId: action.id, entityName: target.name, response, affected: [], ...(phaseChanged ? { phaseChanged } : {}) },
    logged,
  };
}
