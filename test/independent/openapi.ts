// The independent implementation's own OpenAPI 3.0.3 document, written by hand in its own style:
// every schema inline (no components), operationIds of its own, one `default` error answer per
// operation. It describes what server.ts serves, shapes of the path-only endpoints included.
type S = Record<string, unknown>;

const str: S = { type: 'string' };
const num: S = { type: 'number' };
const bool: S = { type: 'boolean' };
const strs: S = { type: 'array', items: str };
const obj = (properties: Record<string, S> = {}, required: string[] = []): S =>
  ({ type: 'object', properties, ...(required.length ? { required } : {}) });
const all = (properties: Record<string, S>): S => obj(properties, Object.keys(properties));
const arr = (items: S): S => ({ type: 'array', items });
const map = (values: S): S => ({ type: 'object', additionalProperties: values });
const unit: S = { type: 'number', minimum: -1, maximum: 1 };

const vad = all({ V: unit, A: unit, D: unit });
const vadPart = obj({ V: unit, A: unit, D: unit });
const appraisal = obj({ goal_relevance: num, goal_congruence: num, expectedness: num, controllability: num, agency: num, norm_compatibility: num });
const discrete = all({ primary: str, secondary: str, intensity: num });
const needs = obj({ autonomy: num, competence: num, relatedness: num });
const stimulus = obj({ bodyBudgetDelta: num, vadOverride: vadPart, vadDelta: obj({ V: num, A: num, D: num }), needsDelta: needs, soulStageForce: num, catastropheAlphaDelta: num, dampingOverride: num });
const event = all({ type: str, spaceId: str, timestamp: num, sourceEntity: str, targetEntity: str, payload: obj(), appraisal, stimulus });
const eventIn = obj({ type: { type: 'string', minLength: 1, maxLength: 200 }, spaceId: str, timestamp: num, sourceEntity: str, targetEntity: str, payload: obj(), appraisal: map(num), stimulus }, ['type']);
const entityResponse = all({
  emotion: vad, discrete,
  socialUpdates: arr(all({ entityId: str, field: str, oldValue: num, newValue: num })),
  memoryEpisode: all({ id: str, timestamp: num, sourceEntity: str, context: str, appraisal, emotionSnapshot: vad, intensity: num, importance: num }),
  reflectionPrompt: all({ system: str, user: str }), stageTransition: str,
  maskExposure: all({ integrity: num, exposed: bool, triggers: strs }),
  goalChanges: all({ achieved: strs, abandoned: strs, activated: strs }), text: str,
});
const affected = arr(all({ entityName: str, response: entityResponse }));
const trigger = obj({ id: str, condition: obj({ type: str, eventType: str, threshold: num }, ['type']), targetPhase: str, oneShot: bool }, ['id', 'condition', 'targetPhase']);
const phase = obj({ description: str, normMapOverride: map(num) });
const fact = obj({ id: str, content: str, visibility: str, knownBy: strs });
const definition = obj({
  identity: obj({ name: str, description: str }),
  rules: obj({ physics: map(bool), social: obj({ norms: strs, taboos: strs, hierarchies: strs }), narrative: obj() }),
  culture: obj({ coreValues: strs, normMap: map(num), socialProtocol: obj({ greetingStyle: str, addressSystem: str, tabooTopics: strs }) }),
  topology: obj({ connections: arr(obj({ from: str, to: str, distance: num, traversalTime: num, accessibility: str, bidirectional: bool }, ['from', 'to'])) }),
  time: obj({ type: str, ratio: num }),
  knowledge: obj({ facts: arr(fact), defaultVisibility: str }),
  progression: obj({ initialPhase: str, phases: map(phase), triggers: arr(trigger) }),
});
const world = all({ id: str, tenantId: str, definition, engineVersion: str, createdAt: { type: 'number', description: 'seconds since 1970 (an imported snapshot may set another)' } });
const profile = all({ displayName: str, role: str, description: str, personalityHints: str });
const entity = all({ id: str, name: str, type: str, profile, spaceId: str });
const space = all({ id: str, name: str, type: str, capacity: num });
const progression = obj({
  currentPhase: str, elapsedTime: num, eventCounts: map(num),
  phaseHistory: arr(obj({ phase: str, enteredAt: num, exitedAt: num, triggerId: str })),
  firedTriggerIds: strs, triggers: arr(trigger), phases: map(phase),
}, ['currentPhase', 'elapsedTime', 'eventCounts', 'phaseHistory', 'firedTriggerIds', 'triggers', 'phases']);
const knowledge = all({ facts: arr(fact), defaultVisibility: str });
const personaConfig = obj({ personality: map(num), identity: obj({ name: str, role: str, speakingStyle: str, culturalIdentity: str, coreValues: strs }), goals: arr(obj()), type: str, reflection: map(num) });
const personaSnapshot = obj({
  state: obj({ emotion: vad, velocity: vad, body_budget: num }), relationships: obj(), goals: arr(obj()), selfConcept: str, mood: vad,
  moodHistory: arr(all({ emotion: vad, intensity: num })), somatic: obj(), narrative: obj(), tmt: obj(),
  selfEsteem: all({ global: num, contingencies: map(num) }), motivationContexts: obj(), maskIntegrity: num, maskState: str,
}, ['state', 'relationships', 'goals', 'selfConcept', 'mood', 'moodHistory', 'somatic', 'narrative', 'tmt', 'selfEsteem', 'motivationContexts', 'maskIntegrity', 'maskState']);
const worldPersona = all({ entityId: str, name: str, spaceId: str, config: personaConfig });
const action = all({ id: str, name: str, description: str, effect: vad, custom: bool });
const relationshipRow = all({ id: str, actor: str, persona: str, type: str, strength: num, trust: num });
const persona = all({ id: str, tenantId: str, createdAt: { type: 'integer', description: 'seconds since 1970' }, updatedAt: { type: 'integer' }, config: obj() });
const cursorNote = 'an opaque cursor from nextCursor';

const errorBody = all({ error: all({ code: str, message: str }) });
const json = (schema: S) => ({ 'application/json': { schema } });
const ok = (result: S) => ({ content: json(all({ result })) });

interface Op { id: string; summary: string; status?: string; result: S; body?: S; example?: unknown; bodyOptional?: boolean; query?: Array<[string, string, S]> }
function op(o: Op): S {
  return {
    operationId: o.id, summary: o.summary,
    ...(o.query ? { parameters: o.query.map(([name, description, schema]) => ({ name, in: 'query', required: false, description, schema })) } : {}),
    ...(o.body ? { requestBody: { required: !o.bodyOptional, content: { 'application/json': { schema: o.body, ...(o.example !== undefined ? { example: o.example } : {}) } } } } : {}),
    responses: {
      [o.status ?? '200']: { description: 'done', ...ok(o.result) },
      default: { description: 'an error: 400 VALIDATION_ERROR, 401 UNAUTHORIZED, 403 ORIGIN_NOT_ALLOWED, 404 *_NOT_FOUND, 405, 409, 410 (soft-deleted), 413, 415, 429 RATE_LIMITED', content: json(errorBody) },
    },
  };
}

const idParam = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const withParams = (names: Array<[string, string]>, ops: Record<string, S>) => ({ parameters: names.map(([n, d]) => idParam(n, d)), ...ops });
const W: [string, string] = ['id', 'world id (a UUID)'];
const PID: [string, string] = ['id', 'persona id (a UUID)'];

const paths: Record<string, S> = {
  '/worlds': {
    post: op({ id: 'makeWorld', summary: 'Create a world', status: '201', body: obj({ definition, entities: arr(obj({ name: { type: 'string', minLength: 1, maxLength: 200 }, type: { type: 'string', minLength: 1, maxLength: 200 }, spaceId: str }, ['name', 'type'])), personaConfigs: map(personaConfig) }), bodyOptional: true, result: all({ worldId: str, createdAt: { type: 'integer' } }) }),
    get: op({ id: 'pageWorlds', summary: 'List worlds, newest first', result: obj({ worlds: arr(world), nextCursor: str }, ['worlds']), query: [['limit', 'page size: 1 to 100 (default 20; larger is read as 100)', { type: 'string', pattern: '^[0-9]+$' }], ['cursor', cursorNote, str]] }),
  },
  '/worlds/{id}': withParams([W], {
    get: op({ id: 'readWorld', summary: 'A world and its persona configs', result: all({ world, personaConfigs: map(personaConfig) }) }),
    patch: op({ id: 'editWorld', summary: 'Update a world: definition members replace those of the same name', body: obj({ definition, environment: obj(), interaction: obj({ groupAwareness: bool, emotionalContagion: bool, propagation: str }) }), example: { environment: { weather: 'rain' } }, result: all({ world }) }),
    delete: op({ id: 'dropWorld', summary: 'Soft-delete a world (reads then answer 410)', result: all({ deleted: bool, id: str }) }),
  }),
  '/worlds/{id}/restore': withParams([W], { post: op({ id: 'undropWorld', summary: 'Restore a soft-deleted world (409 when it is not deleted)', result: all({ restored: bool, world }) }) }),
  '/worlds/{id}/tick': withParams([W], { post: op({ id: 'advanceWorld', summary: 'Advance time; due triggers fire', body: obj({ seconds: { type: 'number', minimum: 0, maximum: 31536000 } }, ['seconds']), result: obj({ affected, events: arr(event), phaseChanged: str, elapsedTime: num }, ['affected', 'events', 'elapsedTime']) }) }),
  '/worlds/{id}/time-jump': withParams([W], { post: op({ id: 'jumpWorld', summary: 'Jump forward by minutes; due triggers fire', body: obj({ minutes: { type: 'number', minimum: 0, maximum: 525600 } }, ['minutes']), example: { minutes: 30 }, result: obj({ jumpedSeconds: num, elapsedTime: num, currentPhase: str, phaseChanged: str }, ['jumpedSeconds', 'elapsedTime', 'currentPhase']) }) }),
  '/worlds/{id}/chat': withParams([W], { post: op({ id: 'say', summary: 'A message from one entity to another', body: obj({ from: { type: 'string', minLength: 1 }, to: { type: 'string', minLength: 1 }, message: { type: 'string', maxLength: 10000 } }, ['from', 'to', 'message']), result: all({ entityName: str, response: entityResponse, affected, groupAwareness: affected }) }) }),
  '/worlds/{id}/events': withParams([W], {
    post: op({ id: 'emit', summary: 'Dispatch an event', body: eventIn, result: all({ type: str, affected, events: arr(event) }) }),
    get: op({ id: 'eventLog', summary: 'The most recent events, oldest first', result: all({ events: arr(event), total: { type: 'integer' } }), query: [['type', 'only events of this type', str], ['limit', 'at most this many (default 50; over 200 read as 200)', { type: 'string', pattern: '^[0-9]+$' }]] }),
  }),
  '/worlds/{id}/query': withParams([W], { post: op({ id: 'inspect', summary: 'World state', body: obj({ entityNames: strs }), example: {}, result: obj({ entities: arr(entity), spaces: arr(space), knowledge, progression, relationships: map(map(all({ type: str, strength: num, trust: num }))), environment: obj() }, ['entities', 'spaces', 'knowledge', 'progression', 'relationships']) }) }),
  '/worlds/{id}/context': withParams([W], { post: op({ id: 'contextFor', summary: 'What an LLM needs for one entity', body: obj({ entityName: { type: 'string', minLength: 1 } }, ['entityName']), result: obj({ whoAmI: entity, whereAmI: space, whoIsHere: arr(entity), whatHappened: arr(event), adjacentSpaces: strs, worldIdentity: obj(), worldCulture: obj(), knownFacts: arr(fact), currentPhase: str, personaState: obj() }, ['whoAmI', 'whereAmI', 'whoIsHere', 'whatHappened', 'adjacentSpaces', 'worldIdentity', 'worldCulture', 'knownFacts', 'currentPhase']) }) }),
  '/worlds/{id}/mutate': withParams([W], { post: op({ id: 'batch', summary: 'Batch operations: add_entity {name,type,spaceId?}, remove_entity {name}, move_entity {name,spaceId}, set_environment {environment}, add_fact {fact}', body: obj({ operations: { type: 'array', maxItems: 100, items: obj({ op: { type: 'string', enum: ['add_entity', 'remove_entity', 'move_entity', 'set_environment', 'add_fact'] }, name: str, type: str, spaceId: str }, ['op']) } }, ['operations']), result: all({ results: arr(obj({ op: str, ok: bool, data: str, error: str }, ['op', 'ok'])) }) }) }),
  '/worlds/{id}/snapshot': withParams([W], {
    get: op({ id: 'exportWorld', summary: 'World snapshot', result: obj({ id: str, definition, entities: arr(obj({ id: str, type: str, name: str, spaceId: str, profile, personaSnapshot, relationships: arr(all({ targetId: str, relationship: all({ type: str, strength: num, trust: num }) })) }, ['id', 'type', 'name', 'spaceId', 'profile', 'personaSnapshot', 'relationships'])), spaces: arr(space), environment: obj(), createdAt: num, knowledge, progression, recentEvents: arr(event), interaction: all({ groupAwareness: bool, emotionalContagion: bool, propagation: str }) }, ['id', 'definition', 'entities', 'spaces', 'environment', 'createdAt', 'knowledge', 'progression', 'recentEvents', 'interaction']) }),
    put: op({ id: 'importWorld', summary: 'Replace the world with a snapshot (its id is kept)', body: obj({ snapshot: obj({ id: str, definition, entities: arr(obj({ id: str, type: str, name: str, spaceId: str, relationships: arr(obj({ targetId: str, relationship: obj() }, ['targetId', 'relationship'])) }, ['id', 'type', 'name'])), spaces: arr(obj({ id: str, name: str, type: str, capacity: num }, ['id', 'name'])), environment: obj(), createdAt: num, knowledge, progression, recentEvents: arr(obj({ type: str }, ['type'])), interaction: obj({ groupAwareness: bool, emotionalContagion: bool, propagation: str }), personaConfigs: map(personaConfig) }) }, ['snapshot']), result: all({ ok: { type: 'boolean', enum: [true] } }) }),
  }),
  '/worlds/{id}/personas': withParams([W], {
    get: op({ id: 'worldPersonas', summary: 'Personas of the world with their configs', result: all({ personas: arr(worldPersona) }) }),
    post: op({ id: 'addWorldPersona', summary: 'Add a persona entity (409 when the name is taken)', status: '201', body: obj({ name: { type: 'string', minLength: 1, maxLength: 200 }, config: personaConfig, spaceId: str }, ['name']), example: { name: 'Mira', config: { personality: { O: 0.7 } } }, result: all({ persona: worldPersona }) }),
  }),
  '/worlds/{id}/personas/{pid}': withParams([W, ['pid', 'entity id or name of a persona of the world']], {
    get: op({ id: 'worldPersona', summary: 'A persona of the world and its emotional state', result: all({ persona: all({ entityId: str, name: str, spaceId: str, config: personaConfig, emotion: all({ vad, discrete }), mood: vad }) }) }),
    delete: op({ id: 'dropWorldPersona', summary: 'Remove a persona from the world (for good)', result: all({ removed: all({ entityId: str, name: str }) }) }),
  }),
  '/worlds/{id}/actions': withParams([W], {
    get: op({ id: 'worldActions', summary: 'Default and custom actions', result: all({ actions: arr(action) }) }),
    post: op({ id: 'addAction', summary: 'A custom action (409 when the name is taken)', status: '201', body: obj({ name: { type: 'string', minLength: 1, maxLength: 200 }, description: str, effect: vadPart }, ['name']), example: { name: 'wave', effect: { V: 0.1 } }, result: all({ action }) }),
  }),
  '/worlds/{id}/actions/{aid}': withParams([W, ['aid', 'custom action id']], { delete: op({ id: 'dropAction', summary: 'Delete a custom action', result: all({ deleted: str }) }) }),
  '/worlds/{id}/interact': withParams([W], { post: op({ id: 'act', summary: 'Perform an action on a persona (billable)', body: obj({ action: { type: 'string', minLength: 1, description: 'action id or name' }, persona: { type: 'string', minLength: 1, description: 'entity id or name' }, actor: { type: 'string', minLength: 1 } }, ['action', 'persona']), example: { action: 'greet', persona: 'Mira' }, result: all({ action: str, persona: str, response: entityResponse, billed: bool }) }) }),
  '/worlds/{id}/relationships': withParams([W], {
    put: op({ id: 'setRelationship', summary: 'Upsert the relationship of an actor (any entity) toward a persona', body: obj({ actor: { type: 'string', minLength: 1 }, persona: { type: 'string', minLength: 1 }, type: { type: 'string', minLength: 1 }, strength: unit, trust: unit }, ['actor', 'persona']), example: { actor: 'Sam', persona: 'Mira', type: 'friend', trust: 0.4 }, result: all({ relationship: relationshipRow }) }),
    get: op({ id: 'relationshipRows', summary: 'Every relationship of the world', result: all({ relationships: arr(relationshipRow) }) }),
  }),
  '/worlds/{id}/relationships/{rid}': withParams([W, ['rid', 'relationship id']], { delete: op({ id: 'dropRelationship', summary: 'Delete a relationship', result: all({ deleted: str }) }) }),
  '/personas': {
    post: op({ id: 'makePersona', summary: 'Create a standalone persona', status: '201', body: obj({ config: obj() }), bodyOptional: true, example: { config: { identity: { name: 'Ada' } } }, result: all({ personaId: str, createdAt: { type: 'integer' } }) }),
    get: op({ id: 'pagePersonas', summary: 'Standalone personas, oldest first', result: all({ personas: arr(persona), nextCursor: { type: 'string', nullable: true } }), query: [['limit', 'page size: 1 to 50 (default 10; larger is read as 50)', { type: 'string', pattern: '^[0-9]+$' }], ['cursor', cursorNote, str]] }),
  },
  '/personas/{id}': withParams([PID], {
    get: op({ id: 'readPersona', summary: 'A persona and its config', result: all({ persona }) }),
    patch: op({ id: 'editPersona', summary: 'Members of `config` replace those of the same name', body: obj({ config: obj() }), example: {}, result: all({ ok: { type: 'boolean', enum: [true] } }) }),
    delete: op({ id: 'dropPersona', summary: 'Soft-delete a persona (reads then answer 410)', result: all({ deleted: bool, id: str }) }),
  }),
  '/personas/{id}/restore': withParams([PID], { post: op({ id: 'undropPersona', summary: 'Restore a soft-deleted persona (409 when it is not deleted)', result: all({ restored: bool, persona }) }) }),
  '/personas/{id}/perceive': withParams([PID], { post: op({ id: 'perceive', summary: 'An event through the emotion pipeline', body: eventIn, example: { type: 'praise', appraisal: { goal_congruence: 0.6 } }, result: all({ response: entityResponse }) }) }),
  '/personas/{id}/tick': withParams([PID], { post: op({ id: 'advancePersona', summary: 'Advance time: mood decays, the body recovers; perceived events are handed over once', body: obj({ seconds: { type: 'number', minimum: 0, maximum: 31536000 } }, ['seconds']), result: all({ pendingEvents: arr(obj({ type: str, receivedAt: num })), mood: vad, bodyBudget: num }) }) }),
  '/personas/{id}/emotion': withParams([PID], { post: op({ id: 'overrideEmotion', summary: 'Set V, A and/or D directly', body: obj({ vad: vadPart }), example: { vad: {} }, result: all({ ok: { type: 'boolean', enum: [true] } }) }) }),
  '/personas/{id}/annotate': withParams([PID], { post: op({ id: 'annotate', summary: 'Queue a note for the next system prompt', status: '202', body: obj({ text: { type: 'string', maxLength: 4000 } }, ['text']), example: { text: 'Remember the storm.' }, result: all({ queued: { type: 'integer' } }) }) }),
  '/personas/{id}/next-response': withParams([PID], { post: op({ id: 'forceReply', summary: 'The next perceive answers with this text, once', status: '202', body: obj({ text: { type: 'string', maxLength: 4000 } }, ['text']), example: { text: 'Not now.' }, result: all({ forced: bool }) }) }),
  '/personas/{id}/state': withParams([PID], { get: op({ id: 'personaState', summary: 'Current state', result: obj({ emotion: all({ vad, discrete }), mood: all({ vad }), somatic: strs, narrative: all({ tone: num, agency: num, coherence: num }), bodyBudget: num }, ['emotion', 'mood', 'somatic', 'narrative']) }) }),
  '/personas/{id}/prompt-context': withParams([PID], { post: op({ id: 'systemPrompt', summary: 'The system prompt (queued annotations appended, then cleared)', result: all({ systemPrompt: str, annotations: strs }) }) }),
  '/personas/{id}/snapshot': withParams([PID], {
    get: op({ id: 'exportPersona', summary: 'Persona snapshot', result: personaSnapshot }),
    put: op({ id: 'importPersona', summary: 'Replace the persona state with a snapshot (mood required)', body: obj({ snapshot: obj({ mood: vad, state: obj(), relationships: obj(), goals: arr(obj()), selfConcept: str, moodHistory: arr(obj()), somatic: obj(), narrative: obj(), tmt: obj(), selfEsteem: obj(), motivationContexts: obj(), maskIntegrity: num, maskState: str }, ['mood']) }, ['snapshot']), result: all({ ok: { type: 'boolean', enum: [true] } }) }),
  }),
};

export const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Simulation Service (independent implementation)', version: '0.3.0', description: 'In-memory, written from SPEC alone. Timestamps are seconds; ids are UUIDs.' },
  servers: [{ url: '/' }],
  security: [{ key: [] }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  paths,
};
