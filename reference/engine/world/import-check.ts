// What a snapshot import leaves behind is checked against the full schemas of the contract (not the
// Input form the request was validated with, where every member is optional): an import replaces
// the world or the persona, so anything it accepts is what every later operation will read. A
// member that is missing, of the wrong type or out of its bounds is refused with 400 and the path
// of the member, before anything is replaced. Numbers must also stay within ±MAX_IMPORTED_NUMBER, so
// that no later computation on them overflows to Infinity (docs/interface-choices.md, "Snapshots").
import { Ajv, type ValidateFunction } from 'ajv';
import { Type } from 'typebox';
import { COMPONENTS } from '../../../contract/components.ts';
import { requireAt } from '../../../contract/input.ts';
import { COMPLETE_STIMULUS } from '../../../contract/operations.ts';
import { describeValidationIssue } from '../../platform/errors.ts';
import { fail } from './fail.ts';
import { MAX_PENDING } from './limits.ts';

/** Largest magnitude of an imported number: timestamps in ms are about 1.8·10¹². */
export const MAX_IMPORTED_NUMBER = 1e15;

const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
for (const component of COMPONENTS) ajv.addSchema(component as object);

/**
 * The psyche's own member of a snapshot (psyche/internals.ts): each part may be missing (it is
 * recreated), but a part that is given must have its type, since the engine reads it as it is.
 */
const psycheInternals = {
  type: 'object',
  properties: {
    seed: { type: 'string' }, rng: { type: 'number' }, turn: { type: 'number' }, predictionError: { type: 'number' },
    episodes: { type: 'array', items: { $ref: 'MemoryEpisode' } },
    goalProgress: { type: 'object', additionalProperties: { type: 'number' } },
    regulationStart: { type: 'object', required: ['trigger', 'before'], properties: { trigger: { type: 'string' }, before: { $ref: 'VAD' } } },
  },
};
// An event as dispatchEvent takes it (answered later in recentEvents, whatHappened and tick results).
const keptEvent = requireAt(Type.Unsafe({ $ref: 'EventInput' }), { '': ['type'], ...COMPLETE_STIMULUS });

/** The exported world: the snapshot of the contract plus the members the reference adds to it. */
const worldCheck = ajv.compile({
  allOf: [{ $ref: 'WorldSnapshot' }],
  type: 'object',
  required: ['customActions', 'pendingEvents', 'personaConfigs', 'counter'],
  properties: {
    customActions: { type: 'array', items: { $ref: 'Action' } },
    pendingEvents: { type: 'array', maxItems: MAX_PENDING },
    personaConfigs: { type: 'object', additionalProperties: { $ref: 'PersonaConfig' } },
    counter: { type: 'integer', minimum: 0 },
    relationshipIds: { type: 'object', additionalProperties: { type: 'string' } },
    entities: { type: 'array', items: { type: 'object', properties: { personaSnapshot: { type: 'object', properties: { psyche: psycheInternals } } } } },
  },
});
const personaCheck = ajv.compile({ allOf: [{ $ref: 'PersonaSnapshot' }], type: 'object', properties: { psyche: psycheInternals } });

function check(validate: ValidateFunction, value: unknown, at: string): void {
  if (!validate(value)) throw fail('VALIDATION_ERROR', describeValidationIssue(at, validate.errors![0]));
  const far = farNumber(value, at);
  if (far) throw fail('VALIDATION_ERROR', `${far} must be within ±${MAX_IMPORTED_NUMBER}`);
}

/** The path of the first number beyond ±MAX_IMPORTED_NUMBER, if any. */
function farNumber(value: unknown, at: string): string | undefined {
  if (typeof value === 'number') return Math.abs(value) <= MAX_IMPORTED_NUMBER ? undefined : at;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = farNumber(v, `${at}/${k}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * The members the reference adds to a world snapshot, as given: checked before they are used,
 * since a wrong type there would otherwise be silently replaced by a default.
 */
const worldExtrasCheck = ajv.compile({
  type: 'object',
  properties: {
    personaConfigs: { type: 'object', additionalProperties: { $ref: 'PersonaConfigInput' } },
    customActions: { type: 'array' },
    pendingEvents: { type: 'array' },
    counter: { type: 'integer', minimum: 0 },
    relationshipIds: { type: 'object', additionalProperties: { type: 'string' } },
  },
});
export const checkWorldSnapshotExtras = (snapshot: unknown) => check(worldExtrasCheck, snapshot, 'body/snapshot');

// Events are kept as they were dispatched, in the Input form (a partial appraisal or stimulus is
// completed when the event is felt), so they are checked against that form, not against Event.
const eventsCheck = ajv.compile({
  type: 'object',
  properties: { recentEvents: { type: 'array', items: keptEvent }, pendingEvents: { type: 'array', items: keptEvent } },
});

/** `exported` is the world an import would leave, in its exported form. */
export function checkImportedWorld(exported: { recentEvents?: unknown; pendingEvents?: unknown }): void {
  check(eventsCheck, { recentEvents: exported.recentEvents, pendingEvents: exported.pendingEvents }, 'body/snapshot');
  check(worldCheck, { ...exported, recentEvents: [], pendingEvents: [] }, 'body/snapshot');
}
export const checkImportedPersona = (snapshot: unknown) => check(personaCheck, snapshot, 'body/snapshot');
