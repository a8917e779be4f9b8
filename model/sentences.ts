// The sentences of SPEC.md the model predicts from, each with the requirement a broken prediction is
// charged to. A prediction names its sentence; a failure quotes it. The requirement is the one of the
// catalogue (contract/requirements.ts) the sentence already has, or a MODEL-n id where none fits.
import type { RequirementId } from '../contract/requirements.ts';

export interface Sentence { requirementId: RequirementId; quote: string }

const s = (requirementId: RequirementId, quote: string): Sentence => ({ requirementId, quote });

export const SENTENCES = {
  created: s('WORLD-1', 'Endpoints: POST /worlds → {`worldId` string, `createdAt` number}; GET /worlds/{id} → {`world`: World, `personaConfigs`}'),
  sameRecord: s('MODEL-1', 'Resources: a World is {`id`, `tenantId`, `definition`, `engineVersion`, `createdAt`}; GET /worlds/{id} and GET /worlds ({`worlds`: World[]}) show the same World'),
  definitionKept: s('WORLD-6', 'Resources: World.definition (WorldDefinition: `identity.name` string, `rules.physics` map<string,boolean>)'),
  patched: s('WORLD-11', 'Endpoints: PATCH /worlds/{id} "Update world configuration / definition"'),
  engineVersion: s('WORLD-5', 'Versioning: "Each world reports an `engineVersion` (string)."'),
  pageLimit: s('WORLD-2', 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100"'),
  pageMax: s('WORLD-3', 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100"'),
  cursorWalk: s('WORLD-4', 'Endpoints: GET /worlds query `cursor`; result {`worlds`, `nextCursor`}'),
  otherTenantNotListed: s('ISO-2', 'Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist or is not accessible"; a world belongs to a tenant (`tenantId`)'),
  unknownWorld: s('ERR-1', 'Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist"'),
  otherTenantWorld: s('ISO-1', 'Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist or is not accessible"'),
  unknownEntity: s('ERR-2', 'Errors: "`ENTITY_NOT_FOUND` 404: the named entity does not exist in the world"'),
  invalidBody: s('ERR-3', 'Errors: "`VALIDATION_ERROR` 400: request body failed schema validation"; Conventions: `number` is a JSON number, `map<string,T>` an object'),
  unknownPersona: s('ERR-4', 'Errors: "`PERSONA_NOT_FOUND` … persona does not exist"'),
  otherTenantPersona: s('ISO-3', 'Authentication 2: "The World API and the Persona API share one key system"; Errors: `PERSONA_NOT_FOUND`'),
  invalidKey: s('AUTH-2', 'Authentication 1: "A missing or invalid key yields error code `UNAUTHORIZED` with status 401."'),
  softDeleteWorld: s('STATE-1', 'States and transitions: world active → DELETE → soft-deleted ("record is soft-deleted (kept)") → POST restore → active'),
  softDeletedHidden: s('STATE-2', 'States, notes: "what a soft-deleted record returns on read is not shown" (a SHOULD: not readable, not listed)'),
  softDeletePersona: s('STATE-3', 'States and transitions: persona active → DELETE → soft-deleted (kept) → POST restore → active'),
  softDeletedPersonaHidden: s('STATE-4', 'States, notes: "what a soft-deleted record returns on read is not shown" (a SHOULD: not readable)'),
  personaCreated: s('PERS-1', 'Endpoints: POST /personas → {`personaId`, `createdAt`}; GET /personas/{id} "persona info and config"'),
  eventCounts: s('PROG-1', 'States and transitions: "world events accumulated in `eventCounts`"; Events 6: "Progression triggers count events by `eventType` in `eventCounts`"'),
  triggerPhase: s('PROG-2', 'States and transitions: a Trigger of type `event_count` whose `eventType` count reaches `threshold` moves `currentPhase` to its `targetPhase`'),
  triggerRecord: s('PROG-3', 'States and transitions: "`phaseHistory` gains an entry with `triggerId`; the id is added to `firedTriggerIds`"'),
  elapsedTime: s('MODEL-2', 'Endpoints: POST /worlds/{id}/tick body `seconds` (number); Progression state `elapsedTime` (number): simulated time advances by what the ticks send, fractions included'),
  context: s('SIM-5', 'Endpoints: POST /worlds/{id}/context body `entityName` → World context for an entity (`whoAmI` Entity)'),
  entities: s('SIM-4', 'Endpoints: POST /worlds/{id}/query → {`entities` Entity[], …}; POST /worlds body `entities` (array of {`name`, `type`})'),
  snapshotShape: s('SIM-9', 'Endpoints: PUT /worlds/{id}/snapshot → {`ok`: true}'),
  roundTrip: s('SIM-10', 'What the service does: "Export and import snapshots of a world or a persona."'),
  personaList: s('PERS-3', 'Endpoints: GET /personas "cursor-based pagination" → "list of personas" (its parameters are the served document\'s)'),
  personaPatched: s('PERS-2', 'Endpoints: PATCH /personas/{id} body: object ("empty object is a valid sample") → {`ok`: true}'),
  restoredPersona: s('STATE-5', 'States and transitions: persona active → DELETE → soft-deleted ("record is soft-deleted (kept)") → POST restore → active'),
  annotated: s('PERS-7', 'Endpoints: POST /personas/{id}/annotate "appends text to the next LLM prompt"; POST /personas/{id}/prompt-context "the assembled system prompt"'),
  forced: s('PERS-8', 'Endpoints: POST /personas/{id}/next-response "forces the next response text"'),
  perceived: s('PERS-11', 'Endpoints: POST /personas/{id}/perceive "processes the event through the emotion pipeline"'),
  chat: s('SIM-1', 'Endpoints: POST /worlds/{id}/chat body `from`, `to`, `message` → {`entityName` string, `response` EntityResponse, `affected` affected items[], `groupAwareness` affected items[]}'),
  vadBound: s('SIM-11', 'Resources, Vectors: "Lower bound -1 is shown for the emotion and mood vectors of responses."'),
  anyOrigin: s('AUTH-6', 'Authentication 6: "when a key has no configured origins, it works from any origin"'),
  originAllowed: s('AUTH-5', 'Authentication 6: "only the configured origins may use the key"'),
  originBlocked: s('AUTH-4', 'Authentication 6: "only the configured origins may use the key and all other origins are blocked"'),
  imported: s('MODEL-3', 'Endpoints: PUT /worlds/{id}/snapshot body `snapshot` {`entities` (… `relationships` array of {`targetId`, `relationship`}), `spaces` array of {`id`, `name`}}; Resources: query relationships "a two-level map: source entity key, then target entity key"'),
  // The parts of a world known only by path (model/world-parts.ts): what their purpose and the resources fix.
  worldPersonas: s('PART-1', 'Endpoints: POST /worlds/{id}/personas "Add a persona to the world", GET /worlds/{id}/personas "List personas of the world", GET /worlds/{id}/personas/{pid} "Persona details and current emotional state"; What the service does: a persona exists "as an entity of a world" (entities of kinds `user` and `persona`)'),
  worldPersonaConfig: s('PART-1', 'What the service does: a persona of a world has "its configuration … held under `personaConfigs` of the world, keyed by a name"; GET /worlds/{id} → {`personaConfigs`: map<string, PersonaConfig>}'),
  worldPersonaRemoved: s('PART-1', 'Endpoints: DELETE /worlds/{id}/personas/{pid} "Remove a persona from the world": no longer listed, readable, an entity; Errors: "`ENTITY_NOT_FOUND` 404: the named entity does not exist in the world"'),
  unknownWorldPersona: s('ERR-4', 'Errors: "`PERSONA_NOT_FOUND` … persona does not exist" (status not shown), or "`ENTITY_NOT_FOUND` 404: the named entity does not exist in the world"'),
  actions: s('PART-2', 'Endpoints: GET /worlds/{id}/actions "List available actions (defaults and custom)", POST "Create a custom action", DELETE /worlds/{id}/actions/{aid} "Delete a custom action"'),
  relationships: s('PART-3', 'Endpoints: PUT /worlds/{id}/relationships "Upsert a relationship between an actor and a persona", GET "List all relationships", DELETE …/{rid}; Resources: Relationship "a two-level map: source entity key, then target entity key" in query, "an array of {`targetId`, `relationship`}" in a snapshot entity'),
  timeJump: s('PART-6', 'Endpoints: POST /worlds/{id}/time-jump "Jump forward in time"; Progression state `elapsedTime` (number)'),
  mutateResults: s('SIM-6', 'Endpoints: POST /worlds/{id}/mutate body `operations` (sample `add_entity` with `name`, `type`) → {`results`: array of {`op`, `ok`, `data`, `error`}}; "one result per operation"'),
  mutateFailed: s('SIM-7', 'Errors: "Inside a batch mutation, a failed operation is reported in its own result entry with `ok` false and an `error` string; the batch response itself remains a `result` envelope"'),
  mutateOthers: s('SIM-8', 'Errors: "a failed operation is reported in its own result entry" (the other operations of the batch are not failed by it)'),
  mutateApplied: s('SIM-4', 'What the service does: "Apply batch mutations to a world"; POST /worlds/{id}/query → {`entities` Entity[]}: an entity added by `add_entity` with its `type`'),
} as const satisfies Record<string, Sentence>;

export type SentenceKey = keyof typeof SENTENCES;
