// The requirement catalogue: one entry per normative statement of SPEC.md that can be checked over
// HTTP, with its level and the clause it comes from. MUST = what SPEC.md states (a failure fails the
// run); SHOULD = a reasonable reading where SPEC.md is silent (a warning; --strict makes it fail).
// An id is a typed key (RequirementId): a check names the ids it covers with `check('PROG-2', …)`
// (suite/scenario/check.ts), checked against this table at compile time; a test keeps every entry covered.
export type Level = 'MUST' | 'SHOULD';

/** The areas a run can select (`--only`), in the order the run goes through them. Each area is one
 *  scenario file, scenarios/<area>.test.ts, holding exactly the checks of its requirements. */
export const AREAS = ['openapi', 'auth', 'isolation', 'errors', 'worlds', 'world-parts', 'simulation', 'progression', 'states', 'personas', 'generated', 'model', 'rate-limit'] as const;
export type SelectableArea = (typeof AREAS)[number];
/** Requirements checked on every response of every area (suite/checks/response.ts), not by a scenario. */
export type Area = SelectableArea | 'envelope' | 'contract';

export interface Requirement<I extends string = string> {
  id: I;
  level: Level;
  area: Area;
  /** What is checked, in one sentence. */
  title: string;
  /** The words of SPEC.md it rests on (section: quote). */
  clause: string;
}

const r = <const I extends string>(id: I, level: Level, area: Area, title: string, clause: string): Requirement<I> => ({ id, level, area, title, clause });

export const REQUIREMENTS = [
  // ---- Envelope and contract (checked on every response the run receives) ----
  r('ENV-1', 'MUST', 'envelope', 'Every 2xx response is a JSON object with a `result` member.', 'What the service does: "Every successful response is wrapped in an object with a `result` member."'),
  r('ENV-2', 'MUST', 'envelope', 'Every error response is `{error: {code: string, message: string}}`.', 'Errors: "Error response body: an object with `error` = {`code` (string), `message` (string)}."'),
  r('ENV-3', 'MUST', 'envelope', 'Bodies are JSON (`application/json`).', 'Introduction: "All bodies are JSON (`application/json`)."'),
  r('ENV-4', 'SHOULD', 'generated', 'A client mistake is never answered with a 5xx, nor left without an answer: generated requests for every operation, valid and broken in every way, get a 2xx or a 4xx error envelope in time.', 'Errors: "Documented endpoints list an error response for invalid requests" (a 5xx is a fault of the server).'),
  r('CONTRACT-1', 'MUST', 'contract', 'Responses of operations whose shapes SPEC.md documents match those shapes (the bundled contract).', 'Resources and their fields; Endpoints (documented request/response shapes).'),
  r('CONTRACT-2', 'MUST', 'contract', 'Every response matches the OpenAPI document the deployment serves (status declared, body schema).', 'Machine-readable description: "returns the full OpenAPI description, generated from the service\'s schemas."'),

  // ---- Authentication ----
  r('AUTH-1', 'MUST', 'auth', 'Every operation answers 401 UNAUTHORIZED without X-API-Key.', 'Authentication 1: "A missing or invalid key yields error code `UNAUTHORIZED` with status 401."'),
  r('AUTH-2', 'MUST', 'auth', 'Every operation answers 401 UNAUTHORIZED with an invalid key.', 'Authentication 1: "A missing or invalid key yields error code `UNAUTHORIZED` with status 401."'),
  r('AUTH-3', 'MUST', 'auth', 'One key works for both the World API and the Persona API.', 'Authentication 2: "The World API and the Persona API share one key system."'),
  r('AUTH-4', 'MUST', 'auth', 'A key with configured origins is refused from another origin.', 'Authentication 6: "only the configured origins may use the key and all other origins are blocked."'),
  r('AUTH-5', 'MUST', 'auth', 'A key with configured origins works from a configured origin.', 'Authentication 6: "only the configured origins may use the key".'),
  r('AUTH-6', 'MUST', 'auth', 'A key without configured origins works from any origin.', 'Authentication 6: "when a key has no configured origins, it works from any origin".'),
  r('AUTH-7', 'SHOULD', 'auth', 'A blocked origin is answered 403 with the error envelope.', 'Errors: "Error code and status returned when an origin is blocked by the allowlist: not shown."'),

  // ---- Tenant isolation ----
  r('ISO-1', 'MUST', 'isolation', "Another tenant's world is answered 404 WORLD_NOT_FOUND on every world operation, and is left unchanged.", 'Resources: "A world belongs to a tenant"; Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist or is not accessible".'),
  r('ISO-2', 'MUST', 'isolation', "Another tenant's worlds are never listed.", 'Errors: "WORLD_NOT_FOUND … is not accessible"; a listed world is accessible.'),
  r('ISO-3', 'SHOULD', 'isolation', "Another tenant's persona is answered as a missing one (PERSONA_NOT_FOUND) on every persona operation, and never listed.", 'SPEC.md states tenancy for worlds; the same key system serves personas (Authentication 2).'),

  // ---- Rate limits ----
  r('RATE-1', 'MUST', 'rate-limit', 'Past the per-key limit the answer is 429 RATE_LIMITED, on every refusal.', 'Limits: "When a rate limit is exceeded, the response is 429 with code `RATE_LIMITED`".'),
  r('RATE-2', 'MUST', 'rate-limit', 'A 429 carries Retry-After with a whole number of seconds.', 'Errors: "the response carries header `Retry-After` with the seconds to wait".'),
  r('RATE-3', 'MUST', 'rate-limit', 'Waiting Retry-After seconds suffices: the next request is accepted; and Retry-After is never longer than the window of a per-minute limit.', 'Errors: "Retry-After with the seconds to wait"; Limits: the plans count requests per minute.'),
  r('RATE-4', 'MUST', 'rate-limit', "The key's named plan holds: measured over a window, about the plan's number of requests is accepted (0.9× to 1.1× after a wait, at most 2.2× over any window), not a number per second.", 'Limits: Free 100, Starter 500, Pro 2,000 requests per minute per API key (the plan named with --rate-limit-plan).'),
  r('RATE-5', 'MUST', 'rate-limit', "While one key is refused 429, another key (of the same tenant, and of another tenant when given) is served.", 'Authentication 5: "Rate limits are applied per key"; Limits: "per API key".'),
  r('RATE-6', 'SHOULD', 'rate-limit', "The main key, paced under its plan's limit, is never refused 429 (each refusal the client waited out is counted).", 'Limits: the plan\'s requests per minute per API key; a key sent below that pace is not over its limit.'),
  r('RATE-7', 'MUST', 'rate-limit', 'Retry-After is the seconds to wait: the key is not accepted again more than a second (its rounding) before Retry-After said.', 'Errors: "the response carries header `Retry-After` with the seconds to wait".'),

  // ---- Errors ----
  r('ERR-1', 'MUST', 'errors', 'An unknown world id is answered 404 WORLD_NOT_FOUND.', 'Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist".'),
  r('ERR-2', 'MUST', 'errors', 'An unknown entity name is answered 404 ENTITY_NOT_FOUND.', 'Errors: "`ENTITY_NOT_FOUND` 404: the named entity does not exist in the world".'),
  r('ERR-3', 'MUST', 'errors', 'A body member of the wrong type is answered 400 VALIDATION_ERROR.', 'Errors: "`VALIDATION_ERROR` 400: request body failed schema validation".'),
  r('ERR-4', 'MUST', 'errors', 'An unknown persona id is answered with code PERSONA_NOT_FOUND.', 'Errors: "`PERSONA_NOT_FOUND` … persona does not exist".'),
  r('ERR-5', 'SHOULD', 'errors', 'PERSONA_NOT_FOUND comes with status 404.', 'Errors: "Status of `PERSONA_NOT_FOUND`: not shown."'),
  r('ERR-7', 'SHOULD', 'errors', 'A world snapshot import whose nested member (beyond those SPEC.md lists for the import) has the wrong type is refused with 400 VALIDATION_ERROR.', 'Endpoints: PUT /worlds/{id}/snapshot (body `snapshot`, "open"), GET snapshot shapes (Progression state, Persona snapshot); Errors: "`VALIDATION_ERROR` 400: request body failed schema validation". SPEC.md is silent on what an import validates.'),
  r('ERR-6', 'SHOULD', 'errors', 'A body that is not JSON, not an object, or misses a needed member is answered 400 VALIDATION_ERROR.', 'Errors: "`VALIDATION_ERROR` 400: request body failed schema validation"; required members: not shown.'),
  r('ERR-8', 'MUST', 'errors', 'A path no operation has, and a method a path lacks, are answered a non-2xx error with the envelope `{error: {code, message}}` (not a framework\'s default body, not an HTML page).', 'What the service does: "Every error response is an object with an `error` member (see Errors)"; Errors: "Error response body: an object with `error` = {`code` (string), `message` (string)}."'),
  r('ERR-9', 'SHOULD', 'errors', 'A path no operation has is answered 404; a method a path lacks 405 or 404.', 'Errors: the codes and statuses of an unknown route or method are not in the table (full catalogue of error codes: not shown).'),
  r('ERR-10', 'SHOULD', 'errors', 'A batch operation naming an entity the world does not have fails: its own result entry with ok false and an error string (or the batch answered 404 ENTITY_NOT_FOUND).', 'Errors: "`ENTITY_NOT_FOUND` 404: the named entity does not exist in the world"; "Inside a batch mutation, a failed operation is reported in its own result entry with `ok` false and an `error` string". Operations other than add_entity: not shown (taken from the served document).'),
  r('ERR-11', 'MUST', 'errors', 'A world or persona id holding an encoded slash, a dot segment or an encoded control character is answered by the service a non-2xx error with the envelope `{error: {code, message}}`: WORLD_NOT_FOUND (404) or PERSONA_NOT_FOUND, or, where an HTTP stack may have made another route of the path (a decoded %2F, a resolved dot segment), the code the deployment answers that route.', 'What the service does: "Every error response is an object with an `error` member"; Endpoints: "Path parameters are strings"; Errors: "`WORLD_NOT_FOUND` 404: the world id does not exist", "`PERSONA_NOT_FOUND` … persona does not exist".'),
  r('ERR-12', 'SHOULD', 'errors', 'Such a URL is answered by the service, not refused by the HTTP stack in front of it with a page of its own (Apache httpd\'s 404 to %2F, lighttpd\'s 400 to a control character).', 'What the service does: "Every error response is an object with an `error` member"; what the HTTP stack in front of the service answers is not shown (Limits: "Request size limits … not shown").'),

  // ---- Worlds ----
  r('WORLD-1', 'MUST', 'worlds', 'POST /worlds answers {worldId, createdAt} and the world is then readable with GET /worlds/{id}.', 'Endpoints: POST /worlds → {`worldId`, `createdAt`}; GET /worlds/{id} → {`world`, `personaConfigs`}.'),
  r('WORLD-2', 'MUST', 'worlds', 'GET /worlds returns at most `limit` worlds, 20 when no limit is given.', 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100".'),
  r('WORLD-3', 'MUST', 'worlds', 'GET /worlds never returns more than 100 worlds.', 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100".'),
  r('WORLD-4', 'MUST', 'worlds', 'Following nextCursor walks every world once: no repeats, no gaps.', 'Endpoints: GET /worlds query `cursor`; result {`worlds`, `nextCursor`}.'),
  r('WORLD-5', 'MUST', 'worlds', 'Every world reports an engineVersion string.', 'Versioning: "Each world reports an `engineVersion` (string)."'),
  r('WORLD-6', 'SHOULD', 'worlds', 'GET /worlds/{id} returns the definition given at creation.', 'Resources: World.definition.'),
  r('WORLD-7', 'SHOULD', 'worlds', 'PATCH /worlds/{id} accepts a change of the definition (the body its served document describes).', 'Endpoints: PATCH /worlds/{id} "Update world configuration / definition"; its request shape is not shown.'),
  r('WORLD-8', 'MUST', 'worlds', 'Every world reports a tenantId string, the same in GET /worlds/{id} and GET /worlds.', 'Resources: "A world belongs to a tenant (`tenantId`)"; World: `tenantId` string "Owning tenant".'),
  r('WORLD-9', 'SHOULD', 'worlds', 'Every world of one key reports the same tenantId.', 'Resources: "A world belongs to a tenant (`tenantId`)"; that a key belongs to one tenant is not shown.'),
  r('WORLD-10', 'MUST', 'worlds', 'GET /worlds/{id} returns what creation gave its open objects: each persona configuration under personaConfigs by the name given, with every member given (additional ones included), and the additional members of the definition and its identity.', 'Resources: a persona "configuration is then held under `personaConfigs` of the world, keyed by a name"; "Objects marked "open" accept and return additional members beyond those listed" (WorldDefinition, identity, PersonaConfig).'),
  r('WORLD-11', 'MUST', 'worlds', 'A PATCH /worlds/{id} the deployment accepted is read back: GET /worlds/{id}, the context\'s worldIdentity and the snapshot\'s definition show the change.', 'Endpoints: PATCH /worlds/{id} "Update world configuration / definition"; World context: `worldIdentity` "identity object of the definition".'),

  // ---- World parts (shapes not shown) ----
  r('PART-1', 'SHOULD', 'world-parts', 'World personas can be listed, added, read and removed.', 'Endpoints: GET/POST /worlds/{id}/personas, GET/DELETE /worlds/{id}/personas/{pid}.'),
  r('PART-2', 'SHOULD', 'world-parts', 'Actions: defaults and custom are listed; a custom action can be created and deleted.', 'Endpoints: POST/GET /worlds/{id}/actions, DELETE /worlds/{id}/actions/{aid}.'),
  r('PART-3', 'SHOULD', 'world-parts', 'Relationships can be upserted, listed and deleted.', 'Endpoints: PUT/GET /worlds/{id}/relationships, DELETE /worlds/{id}/relationships/{rid}.'),
  r('PART-4', 'SHOULD', 'world-parts', 'The event log lists the events dispatched to the world.', 'Endpoints: GET /worlds/{id}/events "Read the world event log".'),
  r('PART-5', 'SHOULD', 'world-parts', 'POST /worlds/{id}/interact executes an action against a persona (only with --allow-billable).', 'Endpoints: POST /worlds/{id}/interact "Execute an action against a persona; billable".'),
  r('PART-6', 'SHOULD', 'world-parts', 'POST /worlds/{id}/time-jump advances simulated time.', 'Endpoints: POST /worlds/{id}/time-jump "Jump forward in time".'),

  // ---- Simulation ----
  r('SIM-1', 'MUST', 'simulation', 'Chat answers {entityName, response, affected, groupAwareness} for the recipient.', 'Endpoints: POST /worlds/{id}/chat.'),
  r('SIM-2', 'MUST', 'simulation', 'Dispatching an event answers {type, affected, events}.', 'Events 2: "its result lists the `affected` entities with their EntityResponse and the resulting `events`."'),
  r('SIM-3', 'MUST', 'simulation', 'A world tick answers {affected, events}.', 'Events 3: "POST /worlds/{id}/tick returns the `events` generated during the advance and the `affected` entities".'),
  r('SIM-4', 'MUST', 'simulation', 'Query answers the entities, spaces, knowledge, progression and relationships of the world, including the created entities.', 'Endpoints: POST /worlds/{id}/query.'),
  r('SIM-5', 'MUST', 'simulation', "Context answers the world context of the named entity (whoAmI is that entity), with the values SPEC.md defines: whoIsHere the entities of its space (per query), worldIdentity and worldCulture the definition's, knownFacts among the world's facts, currentPhase the progression's, a persona's personaState.", 'Endpoints: POST /worlds/{id}/context → World context for an entity; World context: `worldIdentity` "identity object of the definition", `worldCulture` "culture object of the definition", `knownFacts` Fact[].'),
  r('SIM-6', 'MUST', 'simulation', 'Mutate answers one result per operation.', 'Endpoints: POST /worlds/{id}/mutate "one result per operation".'),
  r('SIM-7', 'MUST', 'simulation', 'A failed mutate operation is reported in its own result with ok false and an error string; the batch is still a result envelope.', 'Errors: "Inside a batch mutation, a failed operation is reported in its own result entry with `ok` false and an `error` string".'),
  r('SIM-8', 'SHOULD', 'simulation', 'The other operations of a batch apply when one fails.', 'Errors: "a failed operation is reported in its own result entry" (the others are not).'),
  r('SIM-9', 'MUST', 'simulation', 'GET /worlds/{id}/snapshot answers the world snapshot; PUT answers {ok: true}.', 'Endpoints: GET and PUT /worlds/{id}/snapshot.'),
  r('SIM-10', 'SHOULD', 'simulation', 'World snapshot export → import → export gives the same document.', 'What the service does: "Export and import snapshots of a world or a persona."'),
  r('SIM-11', 'MUST', 'simulation', 'Emotion and mood vectors of responses stay at or above -1.', 'Resources, Vectors: "Lower bound -1 is shown for the emotion and mood vectors of responses."'),
  r('SIM-12', 'MUST', 'simulation', "Dispatched events are among the recent events: in the world snapshot's recentEvents and in whatHappened of the context of the entity they target.", 'Events 5: "World context (`whatHappened`) and world snapshot (`recentEvents`) carry recent events."'),
  r('SIM-13', 'MUST', 'simulation', 'A world tick advances simulated time: progression.elapsedTime grows.', 'What the service does: "Advance simulated time (tick)"; Progression state: `elapsedTime` (number).'),
  r('SIM-14', 'SHOULD', 'simulation', 'progression.elapsedTime grows by the seconds each tick sends, fractions included (the sum of the ticks).', 'Endpoints: POST /worlds/{id}/tick body `seconds` (number); the unit of `elapsedTime` and the effect of `time.ratio` are not shown.'),
  r('SIM-15', 'MUST', 'simulation', "Open objects of events and snapshots return their additional members: a dispatched event's payload in the snapshot's recentEvents and the context's whatHappened, an imported environment in the next export.", 'Resources: "Objects marked "open" accept and return additional members beyond those listed"; Event `payload`: "open object (map<string, any>)"; Environment (open).'),

  // ---- Progression ----
  r('PROG-1', 'MUST', 'progression', 'eventCounts counts dispatched events by type.', 'States: "world events accumulated in `eventCounts`"; Events 6.'),
  r('PROG-2', 'MUST', 'progression', 'An event_count trigger moves currentPhase to its targetPhase when the count of its eventType reaches its threshold, not before.', 'States and transitions: progression row.'),
  r('PROG-3', 'MUST', 'progression', 'When a trigger fires, phaseHistory gains an entry with its triggerId and firedTriggerIds gains its id.', 'States and transitions: "`phaseHistory` gains an entry with `triggerId`; the id is added to `firedTriggerIds`".'),
  r('PROG-4', 'MUST', 'progression', 'The phase change is reported in phaseChanged.', 'States and transitions: "the tick result reports `phaseChanged`"; Events 3.'),
  r('PROG-5', 'SHOULD', 'progression', 'A oneShot trigger does not fire a second time.', 'States, notes: "the exact firing and re-arming semantics of `oneShot` are not shown beyond the field."'),

  // ---- States: soft-delete and restore ----
  r('STATE-1', 'MUST', 'states', 'DELETE /worlds/{id} succeeds on an existing world and changes what its views show (a read refused, the world gone from the list, or its answer changed); POST /worlds/{id}/restore then succeeds and the world is readable with its definition kept.', 'States and transitions: world active → soft-deleted (record kept) → active.'),
  r('STATE-2', 'SHOULD', 'states', 'A soft-deleted world is neither readable nor listed until restored.', 'States, notes: "what a soft-deleted record returns on read is not shown."'),
  r('STATE-3', 'MUST', 'states', 'DELETE /personas/{id} succeeds and changes what its reads show (a read refused, the persona gone from the list, or its answer changed); POST /personas/{id}/restore then succeeds and the persona is readable.', 'States and transitions: persona active → soft-deleted (kept) → active.'),
  r('STATE-4', 'SHOULD', 'states', 'A soft-deleted persona is neither readable nor listed until restored.', 'States, notes: "what a soft-deleted record returns on read is not shown."'),
  r('STATE-5', 'MUST', 'states', 'A restored world or persona answers as before its delete: the members SPEC.md gives a world\'s GET (id, tenantId, definition, engineVersion, createdAt, personaConfigs), a persona\'s configuration and snapshot kept.', 'States and transitions: active → soft-deleted, "record is soft-deleted (kept)" → restore → active.'),

  // ---- Personas ----
  r('PERS-1', 'MUST', 'personas', 'POST /personas answers {personaId, createdAt}; the persona is then readable.', 'Endpoints: POST /personas → {`personaId`, `createdAt`}; GET /personas/{id}.'),
  r('PERS-2', 'MUST', 'personas', 'PATCH /personas/{id} answers {ok: true}.', 'Endpoints: PATCH /personas/{id} → {`ok`: true}.'),
  r('PERS-3', 'SHOULD', 'personas', 'GET /personas pages with a cursor without repeats or gaps.', 'Endpoints: GET /personas "cursor-based pagination"; parameters not shown.'),
  r('PERS-4', 'MUST', 'personas', 'An emotion override answers {ok: true} and is read back in the state.', 'Endpoints: POST /personas/{id}/emotion "{`ok`: true}; direct override of VAD".'),
  r('PERS-5', 'MUST', 'personas', 'A persona tick answers {pendingEvents}, decays mood and does not lower the body budget.', 'Endpoints: POST /personas/{id}/tick "time advance decays mood and recovers the body".'),
  r('PERS-6', 'MUST', 'personas', 'GET /personas/{id}/state answers the standalone persona state.', 'Endpoints: GET /personas/{id}/state.'),
  r('PERS-7', 'SHOULD', 'personas', 'Annotated text appears in the next prompt-context.', 'Endpoints: POST /personas/{id}/annotate "appends text to the next LLM prompt".'),
  r('PERS-8', 'SHOULD', 'personas', 'The next response after next-response has exactly the forced text.', 'Endpoints: POST /personas/{id}/next-response "forces the next response text".'),
  r('PERS-9', 'MUST', 'personas', 'GET /personas/{id}/snapshot answers the persona snapshot; PUT answers {ok: true}.', 'Endpoints: GET and PUT /personas/{id}/snapshot.'),
  r('PERS-10', 'SHOULD', 'personas', 'Persona snapshot export → import → export gives the same document.', 'What the service does: "Export and import snapshots of a world or a persona."'),
  r('PERS-11', 'SHOULD', 'personas', 'perceive processes an event (2xx).', 'Endpoints: POST /personas/{id}/perceive "processes the event through the emotion pipeline".'),
  r('PERS-12', 'MUST', 'personas', 'The emotion and mood vectors of standalone persona responses (state, snapshot) stay at or above -1, also after strongly negative input.', 'Resources, Vectors: "Lower bound -1 is shown for the emotion and mood vectors of responses."'),
  r('PERS-13', 'SHOULD', 'personas', 'PATCH /personas/{id} accepts a change of the configuration (the body its served document describes).', 'What the service does: "Create, list, get, update … standalone personas"; Endpoints: PATCH /personas/{id} "body: object (empty object is a valid sample)": its members are not shown.'),
  r('PERS-14', 'MUST', 'personas', 'A PATCH /personas/{id} of the configuration that the deployment accepted is read back: GET /personas/{id} shows the new value, and GET /personas does not list the persona as it was before.', 'What the service does: "update … standalone personas"; Resources: a persona has "a configuration"; Endpoints: GET /personas/{id} "persona info and config", GET /personas "list of personas".'),

  // ---- Generated inputs and stateful sequences ----
  r('GEN-1', 'MUST', 'generated', 'No request breaks a later valid request: after an accepted write (a changed snapshot or definition imported, a generated write), the valid uses of the written world and persona answer in time without a 5xx, and after any request a valid request on a resource it did not touch still gets the answer it got before.', 'Endpoints: the documented result of each valid request (e.g. POST /worlds/{id}/query "body: an object (empty object is a valid sample)" → {`entities`, `spaces`, …}); Errors: `VALIDATION_ERROR` 400 only when "request body failed schema validation".'),
  r('GEN-2', 'MUST', 'generated', "One tenant's requests never change another tenant's answers nor block them: after each generated request of one key, a valid request of the second key on its own world answers the same, within the timeout.", 'Resources: "A world belongs to a tenant (`tenantId`)"; Errors: `WORLD_NOT_FOUND` "the world id does not exist or is not accessible"; Authentication 5: "Rate limits are applied per key".'),

  // ---- The model of SPEC (model/): random sequences of operations, every answer compared ----
  r('MODEL-1', 'MUST', 'model', 'A world shows the same record in every view: GET /worlds/{id}, GET /worlds and the snapshot give the createdAt that POST /worlds answered.', 'Resources: a World is {`id`, `tenantId`, `definition`, `engineVersion`, `createdAt`}; GET /worlds/{id} → {`world`: World}, GET /worlds → {`worlds`: World[]}.'),
  r('MODEL-2', 'MUST', 'model', 'progression.elapsedTime advances in proportion to the seconds the accepted ticks sent, fractions included (0 before any tick), in query and snapshot.', 'Endpoints: POST /worlds/{id}/tick body `seconds` (number); Progression state: `elapsedTime` (number); States and transitions: progression moved by "tick".'),
  r('MODEL-3', 'SHOULD', 'model', 'A world snapshot import sets what it carries: a space added to the exported snapshot is then among the query spaces, two relationships of one source both in the query relationship map, and every space stays.', 'Endpoints: PUT /worlds/{id}/snapshot body `snapshot` {`entities` (… `relationships` array of {`targetId`, `relationship`}), `spaces` array of {`id`, `name`}}; Resources: query relationships "a two-level map: source entity key, then target entity key".'),

  // ---- OpenAPI and versioning ----
  r('OAS-1', 'MUST', 'openapi', 'GET /openapi.json answers a valid OpenAPI description.', 'Machine-readable description: "GET `{base_url}/openapi.json` returns the full OpenAPI description".'),
  r('OAS-2', 'SHOULD', 'openapi', 'The served description has every operation of SPEC.md (method and path).', 'Machine-readable description: "the full OpenAPI description".'),
  r('OAS-3', 'MUST', 'openapi', 'Paths carry no version segment.', 'Versioning: "The paths carry no version segment."'),
];

export type RequirementId = (typeof REQUIREMENTS)[number]['id'];


/** What SPEC.md states but cannot be checked over HTTP, and why. */
export const OUT_OF_SCOPE: Array<{ clause: string; reason: string }> = [
  { clause: 'Authentication 3: keys are created in the management dashboard; the value is shown once.', reason: 'The dashboard is not part of the HTTP interface.' },
  { clause: 'Authentication 4: key format (prefix then secret).', reason: 'Keys are inputs of the run; the suite only refuses mk_live_ keys without --allow-live.' },
  { clause: 'Authentication 7: rotation by creating a new key then revoking the old one.', reason: 'Creating and revoking keys happens in the dashboard.' },
  { clause: 'Authentication table: mk_live_ usage is billed.', reason: 'Billing is not observable over HTTP; the suite avoids billable calls unless --allow-billable.' },
  { clause: 'Limits: Enterprise rate is custom.', reason: 'No number to compare with: with --rate-limit-plan enterprise (or none named) RATE-4 is not run.' },
  { clause: 'What the service does: emotion computation rules.', reason: 'Not shown by SPEC.md; only bounds and observable transitions are checked.' },
];

export const requirementById: ReadonlyMap<string, Requirement<RequirementId>> = new Map(REQUIREMENTS.map((q) => [q.id, q]));

/** The requirement of a known id (the type guarantees it exists). */
export const requirement = (id: RequirementId): Requirement<RequirementId> => requirementById.get(id)!;

export const isRequirementId = (id: string): id is RequirementId => requirementById.has(id);

/** Requirements judged on every response rather than by a scenario check. */
export const PER_RESPONSE: readonly RequirementId[] = REQUIREMENTS.filter((q) => q.area === 'envelope' || q.area === 'contract').map((q) => q.id);
