// Faults in the members SPEC.md lists and the values it defines for them. Each that drops a member also
// takes it out of the served document's `required` (legal: SPEC.md does not say what a document marks
// required), so that only what SPEC.md states can catch it: CONTRACT-1 on the SPEC contract, or a check
// that compares the value with what SPEC.md says it equals.
import type { Fault } from '../faults.ts';
import { errorAnswer, is, isObject, onDocument, onResult, responses, type Json } from '../hooks.ts';
import { json, type FaultHooks } from '../proxy.ts';

/** The served document no longer marks these members of these components required. */
const unrequire = (members: Record<string, string[]>): FaultHooks['response'] => onDocument((doc) => {
  for (const [name, drop] of Object.entries(members)) {
    const schema = doc.components?.schemas?.[name];
    if (Array.isArray(schema?.required)) schema.required = schema.required.filter((m: string) => !drop.includes(m));
  }
});

/** The worlds of a result of GET /worlds/{id} or GET /worlds. */
const worldsOf = (r: Json): Json[] => [r.world, ...(Array.isArray(r.worlds) ? r.worlds : [])].filter(isObject);

/** An object with only the members SPEC.md lists for it: what a deployment closing an open object returns. */
const keepOnly = (o: unknown, listed: readonly string[]) => {
  if (isObject(o)) for (const k of Object.keys(o)) if (!listed.includes(k)) delete o[k];
};
const DEFINITION = ['identity', 'rules', 'culture', 'topology', 'time', 'knowledge', 'progression'];
const IDENTITY = ['name', 'description'];
const PERSONA_CONFIG = ['personality', 'identity', 'goals', 'type', 'reflection'];
const ENVIRONMENT = ['atmosphere', 'lighting', 'soundscape', 'weather', 'timeOfDay'];
const closeDefinition = (definition: unknown) => {
  keepOnly(definition, DEFINITION);
  if (isObject(definition)) keepOnly(definition.identity, IDENTITY);
};

/** Every event list of a result: dispatch and tick `events`, the snapshot's recentEvents, the context's whatHappened, the event log. */
const eventListsOf = (r: Json): Json[][] => [r.events, r.recentEvents, r.whatHappened].filter(Array.isArray);

export const MEMBER_FAULTS: Fault[] = [
  // ---- The world context ----
  {
    id: 'context-members-missing', areas: ['simulation'], expected: ['CONTRACT-1', 'SIM-5'],
    description: 'the world context lacks personaState, knownFacts, worldCulture and adjacentSpaces (its served document marks none of them required)',
    response: responses(
      onResult(['worldContext'], (r) => { for (const k of ['personaState', 'knownFacts', 'worldCulture', 'adjacentSpaces']) delete r[k]; }),
      unrequire({ WorldContext: ['personaState', 'knownFacts', 'worldCulture', 'adjacentSpaces'] }),
    ),
  },
  {
    id: 'context-nobody-here', areas: ['simulation'], expected: ['SIM-5'],
    description: 'the world context answers whoIsHere empty, whoever shares the space (schema-valid)',
    response: onResult(['worldContext'], (r) => { if (Array.isArray(r.whoIsHere)) r.whoIsHere = []; }),
  },
  {
    id: 'context-culture-default', areas: ['simulation'], expected: ['SIM-5'],
    description: "the world context answers a default worldCulture, not the definition's (schema-valid)",
    response: onResult(['worldContext'], (r) => {
      if (isObject(r.worldCulture)) r.worldCulture = { coreValues: [], normMap: {}, socialProtocol: { greetingStyle: 'neutral', addressSystem: 'first-name', tabooTopics: [] } };
    }),
  },
  {
    id: 'context-facts-invented', areas: ['simulation'], expected: ['SIM-5'],
    description: 'the world context adds to knownFacts a fact the world does not hold (schema-valid)',
    response: onResult(['worldContext'], (r) => {
      if (Array.isArray(r.knownFacts)) r.knownFacts.push({ id: 'rumour-1', content: 'The mayor is a wolf.', visibility: 'public', knownBy: [] });
    }),
  },
  {
    id: 'query-entities-without-spaceId', areas: ['simulation'], expected: ['CONTRACT-1'],
    description: 'query answers entities without spaceId (its served document does not mark it required)',
    response: responses(
      onResult(['queryWorld'], (r) => { for (const e of Array.isArray(r.entities) ? r.entities : []) if (isObject(e)) delete e.spaceId; }),
      unrequire({ Entity: ['spaceId'] }),
    ),
  },

  // ---- Worlds: tenant, persona configurations, open objects, PATCH ----
  {
    id: 'world-without-tenantId', areas: ['worlds'], expected: ['CONTRACT-1', 'WORLD-8'],
    description: 'worlds (GET /worlds/{id}, GET /worlds) lose tenantId (the served document does not mark it required)',
    response: responses(
      onResult(['getWorld', 'listWorlds'], (r) => { for (const w of worldsOf(r)) delete w.tenantId; }),
      unrequire({ World: ['tenantId'] }),
    ),
  },
  {
    id: 'world-tenantId-per-world', areas: ['worlds'], expected: ['WORLD-9'],
    description: 'every world reports a tenantId of its own (its id), the same in every view (schema-valid)',
    response: onResult(['getWorld', 'listWorlds'], (r) => { for (const w of worldsOf(r)) if (typeof w.id === 'string') w.tenantId = `tenant-${w.id}`; }),
  },
  {
    id: 'world-persona-configs-empty', areas: ['worlds'], expected: ['WORLD-10'],
    description: 'GET /worlds/{id} answers personaConfigs {} whatever was given (schema-valid)',
    response: onResult(['getWorld'], (r) => { if (isObject(r.personaConfigs)) r.personaConfigs = {}; }),
  },
  {
    id: 'open-members-stripped', areas: ['worlds'], expected: ['WORLD-10'],
    description: 'the open definition, identity and persona configurations come back without the members SPEC.md does not list (GET /worlds/{id}, GET /worlds, the snapshot)',
    response: responses(
      onResult(['getWorld', 'listWorlds'], (r) => {
        for (const w of worldsOf(r)) closeDefinition(w.definition);
        for (const c of Object.values(isObject(r.personaConfigs) ? r.personaConfigs : {})) keepOnly(c, PERSONA_CONFIG);
      }),
      onResult(['getWorldSnapshot'], (r) => closeDefinition(r.definition)),
    ),
  },
  {
    id: 'added-persona-config-dropped', areas: ['world-parts'], only: ['PART-1'], expected: ['PART-1'],
    description: 'POST /worlds/{id}/personas adds the persona with a default configuration, whatever config it was given',
    request: (req) => {
      const body = req.body as Json | undefined;
      if (is(req, 'addWorldPersona') && isObject(body)) { delete body.config; delete body.personaConfig; }
    },
  },
  {
    id: 'world-patch-refused', areas: ['worlds'], expected: ['WORLD-7'],
    description: 'PATCH /worlds/{id} is answered 400 VALIDATION_ERROR whatever it holds',
    answer: (req) => (is(req, 'updateWorld') ? errorAnswer(400, 'VALIDATION_ERROR', 'fault: nothing can be changed') : undefined),
  },

  // ---- Simulated time ----
  {
    id: 'world-tick-noop', areas: ['simulation'], expected: ['SIM-13'],
    description: 'POST /worlds/{id}/tick answers {affected: [], events: []} and advances nothing (its served document requires no more)',
    answer: (req) => (is(req, 'tickWorld') ? json(200, { result: { affected: [], events: [] } }) : undefined),
    response: unrequire({ AdvanceResult: ['elapsedTime'] }),
  },
  {
    id: 'world-tick-whole-seconds', areas: ['simulation'], expected: ['SIM-14'],
    description: 'POST /worlds/{id}/tick drops the fraction of seconds (1.5 s advances 1 s, 0.25 s nothing)',
    request: (req) => {
      const body = req.body as Json | undefined;
      if (is(req, 'tickWorld') && isObject(body) && typeof body.seconds === 'number') body.seconds = Math.floor(body.seconds);
    },
  },
  {
    id: 'progression-without-elapsedTime', areas: ['simulation'], expected: ['CONTRACT-1', 'SIM-13'],
    description: 'the progression state of query and snapshot lacks elapsedTime (its served document does not mark it required)',
    response: responses(
      onResult(['queryWorld', 'getWorldSnapshot'], (r) => { if (isObject(r.progression)) delete r.progression.elapsedTime; }),
      unrequire({ ProgressionState: ['elapsedTime'] }),
    ),
  },

  // ---- Open objects of events and snapshots ----
  {
    id: 'event-payload-stripped', areas: ['simulation'], expected: ['SIM-15'],
    description: 'events come back with an empty payload (dispatch and tick results, the snapshot\'s recentEvents, the context\'s whatHappened)',
    response: onResult(['dispatchEvent', 'tickWorld', 'getWorldSnapshot', 'worldContext'], (r) => {
      for (const list of eventListsOf(r)) for (const e of list) if (isObject(e) && isObject(e.payload)) e.payload = {};
    }),
  },
  {
    id: 'environment-extras-stripped', areas: ['simulation'], expected: ['SIM-15'],
    description: 'the snapshot\'s environment comes back without the members SPEC.md does not list',
    response: onResult(['getWorldSnapshot'], (r) => keepOnly(r.environment, ENVIRONMENT)),
  },
];
