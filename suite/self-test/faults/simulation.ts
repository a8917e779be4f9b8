// Faults of the simulation (SIM-1..15): events, ticks, queries, the world context, batch mutations and
// snapshots.
import type { Fault } from '../faults.ts';
import { type Json, forwardTo, is, isObject, json, keepOnly, noop, okResult, onResult, responses, resultOf, unrequire } from './helpers.ts';

const ENVIRONMENT = ['atmosphere', 'lighting', 'soundscape', 'weather', 'timeOfDay'];
/** Every event list of a result: dispatch and tick `events`, the snapshot's recentEvents, the context's whatHappened, the event log. */
const eventListsOf = (r: Json): Json[][] => [r.events, r.recentEvents, r.whatHappened].filter(Array.isArray);


export const FAULTS: Fault[] = [
  {
    id: 'chat-without-groupAwareness', areas: ['simulation'], expected: ['SIM-1', 'CONTRACT-1'],
    description: 'chat results lose groupAwareness',
    response: onResult(['chat'], (r) => { delete r.groupAwareness; }),
  },
  {
    id: 'event-type-not-echoed', areas: ['simulation'], expected: ['SIM-2'],
    description: 'POST /worlds/{id}/events answers type "event" whatever was dispatched (schema-valid)',
    response: onResult(['dispatchEvent'], (r) => { r.type = 'event'; }),
  },
  {
    id: 'tick-without-events', areas: ['simulation'], expected: ['SIM-3', 'CONTRACT-1'],
    description: 'POST /worlds/{id}/tick results lose events',
    response: onResult(['tickWorld'], (r) => { delete r.events; }),
  },
  {
    id: 'query-loses-an-entity', areas: ['simulation'], expected: ['SIM-4'],
    description: 'query leaves out the last entity of the world (schema-valid)',
    response: onResult(['queryWorld'], (r) => { if (Array.isArray(r.entities)) r.entities = r.entities.slice(0, -1); }),
  },
  {
    id: 'context-ignores-entityName', areas: ['simulation', 'errors'], expected: ['SIM-5', 'ERR-2'],
    description: "POST /worlds/{id}/context answers the context of the world's first entity whatever entityName says",
    async request(req, ctx) {
      if (!is(req, 'worldContext') || !req.body || typeof req.body !== 'object') return;
      const q = await forwardTo(ctx, req, 'POST', `/worlds/${encodeURIComponent(req.params.id)}/query`, {});
      const first = (resultOf(q)?.entities ?? [])[0]?.name;
      if (typeof first === 'string') (req.body as Json).entityName = first;
    },
  },
  {
    id: 'context-members-missing', areas: ['simulation'], expected: ['SIM-5', 'CONTRACT-1'],
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
    id: 'mutate-results-truncated', areas: ['simulation'], expected: ['SIM-6'],
    description: 'mutate answers only the first result of a batch',
    response: onResult(['mutateWorld'], (r) => { if (Array.isArray(r.results)) r.results = r.results.slice(0, 1); }),
  },
  {
    id: 'mutate-failure-hidden', areas: ['simulation'], expected: ['SIM-7'],
    description: 'a failed mutate operation is reported ok: true without error',
    response: onResult(['mutateWorld'], (r) => { for (const x of Array.isArray(r.results) ? r.results : []) if (x?.ok === false) { x.ok = true; delete x.error; } }),
  },
  {
    id: 'mutate-stops-at-failure', areas: ['simulation'], expected: ['SIM-8'],
    description: 'mutate stops at the first failing operation: the ones after it are reported ok but not applied',
    async answer(req, ctx) {
      const ops = is(req, 'mutateWorld') && Array.isArray((req.body as Json | undefined)?.operations) ? (req.body as Json).operations as Json[] : undefined;
      if (!ops || ops.length < 2) return undefined;
      // Applied one at a time, as a deployment without transactions over the batch would.
      const results: Json[] = [];
      let failed = false;
      for (const op of ops) {
        if (failed) { results.push({ op: op?.op, ok: true }); continue; }
        const one = await forwardTo(ctx, req, 'POST', req.path, { operations: [op] });
        const r = resultOf(one)?.results?.[0];
        if (!r) return one;
        results.push(r);
        failed = r.ok === false;
      }
      return okResult({ results });
    },
  },
  {
    id: 'snapshot-without-recentEvents', areas: ['simulation'], expected: ['SIM-9', 'CONTRACT-1'],
    description: 'GET /worlds/{id}/snapshot loses recentEvents',
    response: onResult(['getWorldSnapshot'], (r) => { delete r.recentEvents; }),
  },
  {
    id: 'world-snapshot-import-ignored', areas: ['simulation'], expected: ['SIM-10'],
    description: 'PUT /worlds/{id}/snapshot answers ok and imports nothing',
    answer: noop(['putWorldSnapshot']),
  },
  {
    id: 'chat-valence-below-bound', areas: ['simulation'], expected: ['SIM-11'],
    description: 'chat response.emotion.V is -1.5 (below the bound -1)',
    response: onResult(['chat'], (r) => { if (r.response?.emotion) r.response.emotion.V = -1.5; }),
  },
  {
    id: 'recent-events-not-updated', areas: ['simulation'], only: ['SIM-12'], expected: ['SIM-12'],
    description: 'Events 5: the world snapshot answers recentEvents empty whatever was dispatched',
    response: onResult(['getWorldSnapshot'], (r) => { if (Array.isArray(r.recentEvents)) r.recentEvents = []; }),
  },
  {
    id: 'what-happened-stale', areas: ['simulation'], only: ['SIM-12'], expected: ['SIM-12'],
    description: 'Events 5: the context of an entity answers whatHappened empty whatever was dispatched to it',
    response: onResult(['worldContext'], (r) => { if (Array.isArray(r.whatHappened)) r.whatHappened = []; }),
  },
  {
    id: 'world-tick-noop', areas: ['simulation'], expected: ['SIM-13'],
    description: 'POST /worlds/{id}/tick answers {affected: [], events: []} and advances nothing (its served document requires no more)',
    answer: (req) => (is(req, 'tickWorld') ? json(200, { result: { affected: [], events: [] } }) : undefined),
    response: unrequire({ AdvanceResult: ['elapsedTime'] }),
  },
  {
    id: 'progression-without-elapsedTime', areas: ['simulation'], expected: ['SIM-13', 'CONTRACT-1'],
    description: 'the progression state of query and snapshot lacks elapsedTime (its served document does not mark it required)',
    response: responses(
      onResult(['queryWorld', 'getWorldSnapshot'], (r) => { if (isObject(r.progression)) delete r.progression.elapsedTime; }),
      unrequire({ ProgressionState: ['elapsedTime'] }),
    ),
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
