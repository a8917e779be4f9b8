// Standalone personas (/personas/{id}/…): the runtime operations around one persona's psyche.
// A persona has its own clock: perceive without a timestamp happens now; a percept stamped later
// is kept pending until a tick reaches its time, and the tick returns it in pendingEvents.
import type { EntityResponse, PendingEvent, PersonaConfig, VAD } from '../../../contract/resources.ts';
import type { DeepPartial } from '../../../contract/input.ts';
import { psyche } from '../psyche/index.ts';
import { mergePatch } from './defaults.ts';
import { describe, newRuntime, respond } from './respond.ts';
import type { PersonaDoc } from './model.ts';
import { pendingRoomOrFail, timestampOrFail } from './limits.ts';

export function newPersona(config: DeepPartial<PersonaConfig>, personaId: string, now: number): PersonaDoc {
  const normalized = psyche.normalizeConfig(config, config?.identity?.name ?? personaId);
  return { engineVersion: psyche.version, config: normalized, runtime: newRuntime(normalized, personaId, now), clock: now };
}

export function updatePersonaConfig(persona: PersonaDoc, patch: DeepPartial<PersonaConfig> | undefined): void {
  if (!patch) return;
  persona.config = psyche.normalizeConfig(mergePatch(persona.config, patch) as DeepPartial<PersonaConfig>, persona.config.identity.name);
}

type Perceivable = DeepPartial<PendingEvent> & { type: string };

function percept(persona: PersonaDoc, event: Perceivable) {
  return {
    kind: 'event' as const, type: event.type, source: event.sourceEntity, sourceId: event.sourceEntity,
    text: describe(event),
    appraisal: event.appraisal, stimulus: event.stimulus, timestamp: event.timestamp ?? persona.clock,
  };
}

export function perceive(persona: PersonaDoc, event: Perceivable): { response: EntityResponse; scheduled?: true } {
  timestampOrFail(event.timestamp);
  if (event.timestamp !== undefined && event.timestamp > persona.clock) {
    pendingRoomOrFail(persona.runtime.pending, 'the persona');
    persona.runtime.pending.push(structuredClone(event) as PendingEvent);
    persona.runtime.pending.sort((a, b) => (a.timestamp ?? 0) - (b.timestamp ?? 0));
    // Nothing has happened yet: the response describes the persona as it is now.
    return { response: idleResponse(persona), scheduled: true };
  }
  return { response: respond(persona.runtime, persona.config, percept(persona, event)) };
}

function idleResponse(persona: PersonaDoc): EntityResponse {
  const s = persona.runtime.snapshot;
  return {
    emotion: s.state.emotion, discrete: psyche.discrete(s), socialUpdates: [],
    goalChanges: { achieved: [], abandoned: [], activated: [] }, text: '',
  };
}

/** Time passes: decay and recovery (psyche.elapse), and pending percepts come due in order. */
export function tickPersona(persona: PersonaDoc, seconds: number) {
  const end = persona.clock + seconds * 1000;
  timestampOrFail(end, 'the persona\'s clock after this tick');
  const pendingEvents: Array<PendingEvent & { deliveredAt: number; response: EntityResponse }> = [];
  const moveTo = (t: number) => {
    if (t > persona.clock) psyche.elapse(persona.runtime.snapshot, persona.config, (t - persona.clock) / 1000, t);
    persona.clock = Math.max(persona.clock, t);
  };
  while (persona.runtime.pending.length && (persona.runtime.pending[0].timestamp ?? 0) <= end) {
    const event = persona.runtime.pending.shift()!;
    moveTo(event.timestamp ?? persona.clock);
    pendingEvents.push({ ...event, deliveredAt: persona.clock, response: respond(persona.runtime, persona.config, percept(persona, event)) });
  }
  moveTo(end);
  return { pendingEvents, clock: persona.clock };
}

export function overrideEmotion(persona: PersonaDoc, vad: Partial<VAD>): void {
  psyche.override(persona.runtime.snapshot, vad, persona.clock);
}

export function annotate(persona: PersonaDoc, text: string): void {
  persona.runtime.annotations.push(text);
}

export function forceNextResponse(persona: PersonaDoc, text: string): void {
  persona.runtime.forcedResponse = text;
}

/** The system prompt: who the persona is and how it feels, then the annotations for the next reply. */
export function promptContext(persona: PersonaDoc): string {
  const lines = psyche.promptLines(persona.runtime.snapshot, persona.config);
  const notes = persona.runtime.annotations;
  return [...lines, ...(notes.length ? ['', 'Notes for your next reply:', ...notes.map((n) => `- ${n}`)] : [])].join('\n');
}
