// Every operation of SPEC.md, once: method, path, operationId, request and `result` schemas, the
// success status and the error codes it can answer. The reference registers its routes from this
// table and the OpenAPI document is generated from it; checks, reports and load tags use operationId.
// `shape` says whether SPEC.md documents the shapes ('spec') or the reference defined them for a gap
// ('reference'; see docs/interface-choices.md).
import { Type, type TSchema, type TObject } from 'typebox';
import { closed, open, map, ref, Str, Num, Bool, Opt, Arr } from './kit.ts';
import { inputRef, requireAt } from './input.ts';
import type { ErrorCode } from './errors.ts';
import * as R from './resources.ts';

// ---- Shared request pieces ----
const Id = Str({ minLength: 1, maxLength: 200 });
const WorldParams = closed({ id: Id });
const PersonaParams = closed({ id: Id });
/** SPEC.md types `limit` as a string (a query value); default 20, maximum 100 (larger values are clamped). */
const Limit = Str({ pattern: '^[1-9][0-9]{0,5}$', description: 'Page size, default 20, maximum 100 (larger values are clamped).' });
const Cursor = Str({ minLength: 1, maxLength: 500, description: 'Opaque cursor from a previous page (nextCursor).' });
const PageQuery = closed({ limit: Opt(Limit), cursor: Opt(Cursor) });
const Seconds = Num({ exclusiveMinimum: 0, maximum: 31_536_000, description: 'Simulated seconds to advance (at most one year).' });
const Text = Str({ minLength: 1, maxLength: 10_000 });
const EntityName = Str({ minLength: 1, maxLength: 200 });

// ---- Shared result pieces (named, reused) ----
export const Ok = closed({ ok: Type.Literal(true) }, { $id: 'Ok' });
export const AdvanceResult = open(
  {
    affected: Arr(ref(R.AffectedItem)), events: Arr(ref(R.Event)),
    phaseChanged: Opt(Str({ description: 'The phase entered, only when a progression trigger fired.' })),
    elapsedTime: Num({ description: 'Simulated seconds elapsed in the world after the advance.' }),
  },
  { $id: 'AdvanceResult' },
);
export const WorldPersona = closed(
  { name: Str(), entityId: Str(), spaceId: Str(), config: ref(R.PersonaConfig) },
  { $id: 'WorldPersona', description: 'A persona entity of a world with its configuration.' },
);
export const Action = closed(
  {
    id: Str(), name: Str(), description: Str(), custom: Bool(),
    appraisal: ref(R.Appraisal), stimulus: ref(R.Stimulus),
  },
  { $id: 'Action', description: 'An action that an entity can perform on a persona (interact).' },
);
export const RelationshipRecord = closed(
  { id: Str(), source: Str(), target: Str(), relationship: ref(R.WorldRelationship) },
  { $id: 'RelationshipRecord', description: 'A world-level relationship from a source entity to a target persona.' },
);
export const Persona = closed(
  { id: Str(), tenantId: Str(), config: ref(R.PersonaConfig), engineVersion: Str(), createdAt: Num() },
  { $id: 'Persona', description: 'A standalone persona.' },
);
export const MutationOperation = open(
  { op: Str({ minLength: 1 }) },
  {
    $id: 'MutationOperation',
    description: 'One operation of a batch. Known ops: add_entity {name, type, spaceId?}, remove_entity {name}, '
      + 'move_entity {name, spaceId}, add_space {id, name?, capacity?}, set_environment {environment}, '
      + 'add_fact {fact}, set_relationship {source, target, relationship}. An op that fails is reported in its own result.',
  },
);
export const MutationResult = closed(
  { op: Str(), ok: Bool(), data: Opt(Str()), error: Opt(Str()) },
  { $id: 'MutationResult' },
);

export const SHARED_COMPONENTS = [Ok, AdvanceResult, WorldPersona, Action, RelationshipRecord, Persona, MutationOperation, MutationResult] as const;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Operation {
  operationId: string;
  method: Method;
  path: string;
  tag: 'worlds' | 'world-simulation' | 'world-personas' | 'world-actions' | 'world-relationships' | 'personas' | 'persona-runtime' | 'meta';
  summary: string;
  shape: 'spec' | 'reference';
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  /** The `result` member of the success envelope. */
  result: TSchema;
  status: 200 | 201;
  /** Codes this operation answers besides those every authenticated operation can (401, 403, 429, 400). */
  errors: ErrorCode[];
  /** Calling it is billed on a live key: the suite only calls it with --allow-billable. */
  billable?: boolean;
  /** No API key needed. */
  public?: boolean;
  /** Answered without the `result` envelope (the OpenAPI document is served raw, for tools). */
  raw?: boolean;
}

const W: ErrorCode[] = ['WORLD_NOT_FOUND'];
const P: ErrorCode[] = ['PERSONA_NOT_FOUND'];
type Def = Omit<Operation, 'status' | 'errors' | 'shape'> & Partial<Pick<Operation, 'status' | 'errors' | 'shape'>>;
const op = (d: Def): Operation => ({ status: 200, errors: [], shape: 'reference', ...d });

export const OPERATIONS: Operation[] = [
  // ---- Worlds: documented shapes ----
  op({
    operationId: 'createWorld', method: 'POST', path: '/worlds', tag: 'worlds', shape: 'spec', status: 201,
    errors: ['ENTITY_EXISTS'], summary: 'Create a world',
    body: closed({
      definition: requireAt(inputRef(R.WorldDefinition), { '': ['identity'], identity: ['name'] }),
      entities: Opt(Arr(closed({ name: EntityName, type: Str({ minLength: 1 }) }), { maxItems: 10_000 })),
      personaConfigs: Opt(map(inputRef(R.PersonaConfig))),
    }),
    result: closed({ worldId: Str(), createdAt: Num() }),
  }),
  op({
    operationId: 'listWorlds', method: 'GET', path: '/worlds', tag: 'worlds', shape: 'spec', query: PageQuery,
    summary: 'List worlds of the tenant (cursor pagination, stable order)',
    result: closed({ worlds: Arr(ref(R.World)), nextCursor: Opt(Str({ description: 'Present only when another page exists.' })) }),
  }),
  op({
    operationId: 'getWorld', method: 'GET', path: '/worlds/{id}', tag: 'worlds', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Get a world and its persona configurations',
    result: closed({ world: ref(R.World), personaConfigs: map(ref(R.PersonaConfig)) }),
  }),
  op({
    operationId: 'tickWorld', method: 'POST', path: '/worlds/{id}/tick', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Advance simulated time of a world',
    body: closed({ seconds: Seconds }), result: ref(AdvanceResult),
  }),
  op({
    operationId: 'chat', method: 'POST', path: '/worlds/{id}/chat', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Send a chat message from one entity to another',
    body: closed({ from: EntityName, to: EntityName, message: Text }),
    result: open({
      entityName: Str(), response: ref(R.EntityResponse), affected: Arr(ref(R.AffectedItem)), groupAwareness: Arr(ref(R.AffectedItem)),
    }),
  }),
  op({
    operationId: 'dispatchEvent', method: 'POST', path: '/worlds/{id}/events', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Dispatch an event to world entities',
    body: requireAt(inputRef(R.Event), { '': ['type'] }),
    result: open({ type: Str(), affected: Arr(ref(R.AffectedItem)), events: Arr(ref(R.Event)) }),
  }),
  op({
    operationId: 'queryWorld', method: 'POST', path: '/worlds/{id}/query', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Query world state (optionally filtered)',
    body: closed({
      spaceId: Opt(Str({ description: 'Only entities in this space.' })),
      entityType: Opt(Str({ description: 'Only entities of this type.' })),
    }),
    result: open({
      entities: Arr(ref(R.Entity)), spaces: Arr(ref(R.Space)),
      knowledge: closed({ facts: Arr(ref(R.Fact)), defaultVisibility: Str() }),
      progression: ref(R.ProgressionState), relationships: map(map(ref(R.WorldRelationship))),
    }),
  }),
  op({
    operationId: 'worldContext', method: 'POST', path: '/worlds/{id}/context', tag: 'world-simulation', shape: 'spec', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'The context an LLM needs for one entity',
    body: closed({ entityName: EntityName }), result: ref(R.WorldContext),
  }),
  op({
    operationId: 'mutateWorld', method: 'POST', path: '/worlds/{id}/mutate', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Apply batch mutations; one result per operation',
    body: closed({ operations: Arr(ref(MutationOperation), { minItems: 1, maxItems: 100 }) }),
    result: closed({ results: Arr(ref(MutationResult)) }),
  }),
  op({
    operationId: 'getWorldSnapshot', method: 'GET', path: '/worlds/{id}/snapshot', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Export a world snapshot', result: ref(R.WorldSnapshot),
  }),
  op({
    operationId: 'putWorldSnapshot', method: 'PUT', path: '/worlds/{id}/snapshot', tag: 'world-simulation', shape: 'spec', params: WorldParams, errors: W,
    summary: 'Import a world snapshot (replaces the world state)',
    body: closed({
      snapshot: requireAt(inputRef(R.WorldSnapshot), {
        '': ['id', 'entities', 'spaces', 'environment', 'createdAt'],
        'entities/[]': ['id', 'type', 'name', 'spaceId', 'relationships'],
        'spaces/[]': ['id', 'name'],
      }),
    }),
    result: ref(Ok),
  }),

  // ---- Worlds: known by method and path only ----
  op({
    operationId: 'updateWorld', method: 'PATCH', path: '/worlds/{id}', tag: 'worlds', params: WorldParams, errors: W,
    summary: 'Update world configuration (JSON merge of the definition, environment, interaction settings)',
    body: closed({
      definition: Opt(inputRef(R.WorldDefinition)), environment: Opt(inputRef(R.Environment)),
      interaction: Opt(inputRef(R.InteractionSettings)),
    }),
    result: closed({ world: ref(R.World) }),
  }),
  op({
    operationId: 'deleteWorld', method: 'DELETE', path: '/worlds/{id}', tag: 'worlds', params: WorldParams, errors: W,
    summary: 'Soft-delete a world (kept in the store, no longer listed or readable)', result: ref(Ok),
  }),
  op({
    operationId: 'restoreWorld', method: 'POST', path: '/worlds/{id}/restore', tag: 'worlds', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'NOT_DELETED'], summary: 'Restore a soft-deleted world', result: closed({ world: ref(R.World) }),
  }),
  op({
    operationId: 'timeJump', method: 'POST', path: '/worlds/{id}/time-jump', tag: 'world-simulation', params: WorldParams, errors: W,
    summary: 'Jump forward in simulated time (one step, no intermediate ticks)',
    body: closed({ seconds: Seconds }), result: ref(AdvanceResult),
  }),
  op({
    operationId: 'listWorldPersonas', method: 'GET', path: '/worlds/{id}/personas', tag: 'world-personas', params: WorldParams, errors: W,
    summary: 'List the personas of a world with their configurations', result: closed({ personas: Arr(ref(WorldPersona)) }),
  }),
  op({
    operationId: 'addWorldPersona', method: 'POST', path: '/worlds/{id}/personas', tag: 'world-personas', params: WorldParams, status: 201,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_EXISTS'], summary: 'Add a persona to a world',
    body: closed({ name: EntityName, config: Opt(inputRef(R.PersonaConfig)), spaceId: Opt(Str()) }),
    result: closed({ persona: ref(WorldPersona) }),
  }),
  op({
    operationId: 'getWorldPersona', method: 'GET', path: '/worlds/{id}/personas/{pid}', tag: 'world-personas',
    params: closed({ id: Id, pid: Id }), errors: ['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'],
    summary: 'A persona of a world with its current emotional state',
    result: closed({ persona: ref(WorldPersona), state: ref(R.StandalonePersonaState) }),
  }),
  op({
    operationId: 'removeWorldPersona', method: 'DELETE', path: '/worlds/{id}/personas/{pid}', tag: 'world-personas',
    params: closed({ id: Id, pid: Id }), errors: ['WORLD_NOT_FOUND', 'PERSONA_NOT_FOUND'],
    summary: 'Remove a persona from a world', result: ref(Ok),
  }),
  op({
    operationId: 'createAction', method: 'POST', path: '/worlds/{id}/actions', tag: 'world-actions', params: WorldParams, status: 201, errors: W,
    summary: 'Create a custom action',
    body: closed({
      name: Str({ minLength: 1, maxLength: 200 }), description: Opt(Str({ maxLength: 2000 })),
      appraisal: Opt(inputRef(R.Appraisal)), stimulus: Opt(inputRef(R.Stimulus)),
    }),
    result: closed({ action: ref(Action) }),
  }),
  op({
    operationId: 'listActions', method: 'GET', path: '/worlds/{id}/actions', tag: 'world-actions', params: WorldParams, errors: W,
    summary: 'List available actions (defaults and custom)', result: closed({ actions: Arr(ref(Action)) }),
  }),
  op({
    operationId: 'deleteAction', method: 'DELETE', path: '/worlds/{id}/actions/{aid}', tag: 'world-actions',
    params: closed({ id: Id, aid: Id }), errors: ['WORLD_NOT_FOUND', 'ACTION_NOT_FOUND', 'ACTION_NOT_DELETABLE'],
    summary: 'Delete a custom action', result: ref(Ok),
  }),
  op({
    operationId: 'interact', method: 'POST', path: '/worlds/{id}/interact', tag: 'world-actions', params: WorldParams, billable: true,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND', 'ACTION_NOT_FOUND'],
    summary: 'Execute an action against a persona (billable)',
    body: closed({ actionId: Id, actor: EntityName, target: EntityName }),
    result: open({ actionId: Str(), entityName: Str(), response: ref(R.EntityResponse), affected: Arr(ref(R.AffectedItem)) }),
  }),
  op({
    operationId: 'listWorldEvents', method: 'GET', path: '/worlds/{id}/events', tag: 'world-simulation', params: WorldParams, errors: W,
    summary: 'Read the world event log, oldest first',
    query: closed({ limit: Opt(Limit), cursor: Opt(Cursor), type: Opt(Str({ minLength: 1, description: 'Only events of this type.' })) }),
    result: closed({ events: Arr(ref(R.Event)), nextCursor: Opt(Str()) }),
  }),
  op({
    operationId: 'upsertRelationship', method: 'PUT', path: '/worlds/{id}/relationships', tag: 'world-relationships', params: WorldParams,
    errors: ['WORLD_NOT_FOUND', 'ENTITY_NOT_FOUND'], summary: 'Upsert the relationship of an actor toward a persona',
    body: closed({ source: EntityName, target: EntityName, relationship: Opt(inputRef(R.WorldRelationship)) }),
    result: closed({ relationship: ref(RelationshipRecord), created: Bool() }),
  }),
  op({
    operationId: 'listRelationships', method: 'GET', path: '/worlds/{id}/relationships', tag: 'world-relationships', params: WorldParams, errors: W,
    summary: 'List all relationships of a world', result: closed({ relationships: Arr(ref(RelationshipRecord)) }),
  }),
  op({
    operationId: 'deleteRelationship', method: 'DELETE', path: '/worlds/{id}/relationships/{rid}', tag: 'world-relationships',
    params: closed({ id: Id, rid: Id }), errors: ['WORLD_NOT_FOUND', 'RELATIONSHIP_NOT_FOUND'],
    summary: 'Delete a relationship', result: ref(Ok),
  }),

  // ---- Standalone personas ----
  op({
    operationId: 'createPersona', method: 'POST', path: '/personas', tag: 'personas', shape: 'spec', status: 201,
    summary: 'Create a standalone persona', body: closed({ config: inputRef(R.PersonaConfig) }),
    result: closed({ personaId: Str(), createdAt: Num() }),
  }),
  op({
    operationId: 'listPersonas', method: 'GET', path: '/personas', tag: 'personas', query: PageQuery,
    summary: 'List standalone personas (cursor pagination, stable order)',
    result: closed({ personas: Arr(ref(Persona)), nextCursor: Opt(Str()) }),
  }),
  op({
    operationId: 'getPersona', method: 'GET', path: '/personas/{id}', tag: 'personas', params: PersonaParams, errors: P,
    summary: 'Persona info and configuration', result: closed({ persona: ref(Persona) }),
  }),
  op({
    operationId: 'updatePersona', method: 'PATCH', path: '/personas/{id}', tag: 'personas', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Update a persona configuration (JSON merge)', body: closed({ config: Opt(inputRef(R.PersonaConfig)) }), result: ref(Ok),
  }),
  op({
    operationId: 'deletePersona', method: 'DELETE', path: '/personas/{id}', tag: 'personas', params: PersonaParams, errors: P,
    summary: 'Soft-delete a persona', result: ref(Ok),
  }),
  op({
    operationId: 'restorePersona', method: 'POST', path: '/personas/{id}/restore', tag: 'personas', params: PersonaParams,
    errors: ['PERSONA_NOT_FOUND', 'NOT_DELETED'], summary: 'Restore a soft-deleted persona', result: closed({ persona: ref(Persona) }),
  }),
  op({
    operationId: 'perceive', method: 'POST', path: '/personas/{id}/perceive', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Process an event through the emotion pipeline',
    body: requireAt(inputRef(R.Event), { '': ['type'] }), result: open({ response: ref(R.EntityResponse) }),
  }),
  op({
    operationId: 'tickPersona', method: 'POST', path: '/personas/{id}/tick', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Advance time: mood decays, the body recovers, pending events come due',
    body: closed({ seconds: Seconds }), result: open({ pendingEvents: Arr(ref(R.PendingEvent)) }),
  }),
  op({
    operationId: 'overrideEmotion', method: 'POST', path: '/personas/{id}/emotion', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Override the emotion (VAD) directly; members not given keep their value',
    body: closed({ vad: inputRef(R.VAD) }), result: ref(Ok),
  }),
  op({
    operationId: 'annotate', method: 'POST', path: '/personas/{id}/annotate', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Append text to the next LLM prompt', body: closed({ text: Text }), result: ref(Ok),
  }),
  op({
    operationId: 'forceNextResponse', method: 'POST', path: '/personas/{id}/next-response', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'Force the text of the next response', body: closed({ text: Text }), result: ref(Ok),
  }),
  op({
    operationId: 'getPersonaState', method: 'GET', path: '/personas/{id}/state', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Current emotional state of a persona', result: ref(R.StandalonePersonaState),
  }),
  op({
    operationId: 'promptContext', method: 'POST', path: '/personas/{id}/prompt-context', tag: 'persona-runtime', params: PersonaParams, errors: P,
    summary: 'The assembled system prompt, with the pending annotations (reading it consumes nothing)', result: closed({ prompt: Str() }),
  }),
  op({
    operationId: 'getPersonaSnapshot', method: 'GET', path: '/personas/{id}/snapshot', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Export a persona snapshot', result: ref(R.StandalonePersonaSnapshot),
  }),
  op({
    operationId: 'putPersonaSnapshot', method: 'PUT', path: '/personas/{id}/snapshot', tag: 'persona-runtime', shape: 'spec', params: PersonaParams, errors: P,
    summary: 'Import a persona snapshot (replaces the state; members not given start as in a new persona)',
    body: closed({ snapshot: inputRef(R.PersonaSnapshot) }), result: ref(Ok),
  }),

  // ---- Meta ----
  op({
    operationId: 'getOpenApi', method: 'GET', path: '/openapi.json', tag: 'meta', shape: 'spec', public: true, raw: true,
    summary: 'This OpenAPI description (no key needed)', result: open({}),
  }),
];

export const operationById = new Map(OPERATIONS.map((o) => [o.operationId, o]));
