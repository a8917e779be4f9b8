// The SPEC contract: the shapes SPEC.md states and nothing more, derived from the reference's
// document (contract/openapi.json) by taking away every choice the reference made for a gap:
// - members SPEC.md never names (a member stays only if SPEC.md writes its name in backquotes);
// - bounds SPEC.md does not show (the one it shows, -1 for emotion and mood, is SIM-11's check);
// - `required`, except where SPEC.md says a member is always there: the `result` and `error`
//   envelopes, error.code and error.message, the members of a result SPEC.md writes out
//   (SPEC_RESULT_MEMBERS), and the members its tables list for what a response returns (ALWAYS),
//   whatever a served document marks required;
// - request bodies: only the members SPEC.md lists for the operation (from every part of an `allOf`
//   body, such as dispatchEvent's Event reference and its required `type`), none required, others allowed;
// - operations whose shapes SPEC.md does not show: any request body, any result.
// Objects stay open or closed as SPEC.md marks them ("open" objects accept additional members).
// MUST checks of shapes (CONTRACT-1, ERR-3) use this document; the reference's own document is its
// promise, checked by CONTRACT-2 like any deployment's. test/reference/spec-contract.test.ts ties it
// to SPEC.md.
import { readFileSync } from 'node:fs';

type Json = Record<string, any>;

/** Keywords of a bound or a format: SPEC.md shows none that a shape check should enforce. */
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'format', 'uniqueItems', 'default']);

/** The members of each result SPEC.md writes out in its Endpoints tables ("Response `result`"), always
 *  there but for `phaseChanged` (only when a trigger fired) and `nextCursor` (only while another page
 *  exists). Results SPEC.md describes as a resource table (context, snapshots, persona state) have no
 *  member it says is always there. */
const SOMETIMES: Record<string, string[]> = { tickWorld: ['phaseChanged'], listWorlds: ['nextCursor'] };
export const SPEC_RESULT_MEMBERS: Record<string, string[]> = {
  createWorld: ['worldId', 'createdAt'],
  listWorlds: ['worlds'],
  getWorld: ['world', 'personaConfigs'],
  tickWorld: ['affected', 'events'],
  chat: ['entityName', 'response', 'affected', 'groupAwareness'],
  dispatchEvent: ['type', 'affected', 'events'],
  queryWorld: ['entities', 'spaces', 'knowledge', 'progression', 'relationships'],
  mutateWorld: ['results'],
  putWorldSnapshot: ['ok'],
  createPersona: ['personaId', 'createdAt'],
  updatePersona: ['ok'],
  tickPersona: ['pendingEvents'],
  overrideEmotion: ['ok'],
  putPersonaSnapshot: ['ok'],
};

/**
 * Members SPEC.md says are always there, by the component that holds them: the members its tables list
 * for what a response returns (World, Entity, Progression state, the world context, EntityResponse, the
 * snapshots, the standalone persona state). Left out, and why:
 * - what the client gives and gets back as given: WorldDefinition and its parts, PersonaConfig, Fact,
 *   an Event's members but `type` (an event is dispatched with `type` alone), VAD and the other value
 *   objects inside them;
 * - what SPEC.md lets a deployment hold without it: a Space's `type` and `capacity` (a snapshot import
 *   gives spaces as {`id`, `name`}; an entity's `profile` is required: the snapshot's entities are
 *   "each with" it, and the Entity table lists it);
 * - what exists only sometimes: an EntityResponse's `memoryEpisode`, `reflectionPrompt`,
 *   `stageTransition` and `maskExposure` (an episode stored, a reflection due, a stage changed, a mask
 *   tested), the context's `personaState` for an entity that is not a persona (PERSONA_CONTEXT) and its
 *   `relationship` (with whom is not shown), a persona snapshot's `lastReflectionVAD` (a last
 *   reflection), a world snapshot entity's `personaSnapshot` (personas only), a mutation result's
 *   `data` and `error` (SIM-7 reads `error` of a failed operation), `phaseChanged` and `nextCursor`;
 * - the context's `worldIdentity` and `worldCulture`, "identity/culture object of the definition":
 *   there when the definition has one (SIM-5 compares them with it); a definition kept as given may
 *   have no culture.
 */
const ALWAYS: Record<string, string[]> = {
  ErrorEnvelope: ['error'],
  World: ['id', 'tenantId', 'definition', 'engineVersion', 'createdAt'],
  Entity: ['id', 'name', 'type', 'profile', 'spaceId'],
  Space: ['id', 'name'],
  ProgressionState: ['currentPhase', 'elapsedTime', 'eventCounts', 'phaseHistory', 'firedTriggerIds', 'triggers', 'phases'],
  WorldContext: ['whoAmI', 'whereAmI', 'whoIsHere', 'whatHappened', 'adjacentSpaces', 'knownFacts', 'currentPhase'],
  ContextPersonaState: ['emotion', 'soulStage', 'mask', 'mood', 'somatic', 'narrative', 'regulation', 'selfEsteem', 'tmt'],
  AffectedItem: ['entityName', 'response'],
  EntityResponse: ['emotion', 'discrete', 'socialUpdates', 'goalChanges', 'text'],
  Event: ['type'],
  MutationResult: ['op', 'ok'],
  WorldSnapshot: ['id', 'definition', 'entities', 'spaces', 'environment', 'createdAt', 'knowledge', 'progression', 'recentEvents', 'interaction'],
  WorldSnapshotEntity: ['id', 'type', 'name', 'spaceId', 'profile', 'relationships'],
  PersonaSnapshot: ['state', 'relationships', 'goals', 'selfConcept', 'mood', 'moodHistory', 'somatic', 'narrative', 'tmt', 'selfEsteem', 'motivationContexts', 'maskIntegrity', 'maskState'],
  StandalonePersonaSnapshot: ['state', 'relationships', 'goals', 'selfConcept', 'mood', 'moodHistory', 'somatic', 'narrative', 'tmt', 'selfEsteem', 'motivationContexts', 'maskIntegrity', 'maskState'],
  StandalonePersonaState: ['emotion', 'mood', 'somatic', 'narrative'],
};

/** The context of a persona holds its `personaState` (World context table); that of a user need not. */
const PERSONA_CONTEXT = {
  if: { required: ['whoAmI'], properties: { whoAmI: { type: 'object', required: ['type'], properties: { type: { const: 'persona' } } } } },
  then: { required: ['personaState'] },
};

/** The request members SPEC.md lists per operation (Endpoints: "Request" column). */
export const SPEC_REQUEST_MEMBERS: Record<string, string[]> = {
  createWorld: ['definition', 'entities', 'personaConfigs'],
  tickWorld: ['seconds'],
  chat: ['from', 'to', 'message'],
  dispatchEvent: ['type', 'spaceId', 'timestamp', 'sourceEntity', 'targetEntity', 'payload', 'appraisal', 'stimulus'],
  queryWorld: [],
  worldContext: ['entityName'],
  mutateWorld: ['operations'],
  putWorldSnapshot: ['snapshot'],
  createPersona: ['config'],
  updatePersona: [],
  tickPersona: ['seconds'],
  overrideEmotion: ['vad'],
  putPersonaSnapshot: ['snapshot'],
};

const str = { type: 'string' };
/**
 * Request members SPEC.md types no deeper than its Request column writes them, whatever the reference
 * takes: an "open object" takes any members (createPersona `config`, putPersonaSnapshot `snapshot`,
 * the values of createWorld's `personaConfigs`, "map<string, open object>"), and a world snapshot
 * import is typed only in the members its row lists (`id`, `entities` of {`id`, `type`, `name`,
 * `spaceId`, `relationships` of {`targetId`, `relationship`}}, `spaces` of {`id`, `name`},
 * `environment`, `createdAt`). The members beyond those are the import's "open" part: a wrong type
 * there is ERR-7's (SHOULD), never ERR-3's (MUST), which reads these bodies.
 */
export const SPEC_REQUEST_SHAPES: Record<string, Record<string, Json>> = {
  createWorld: { personaConfigs: { type: 'object', additionalProperties: { type: 'object' } } },
  createPersona: { config: { type: 'object' } },
  putPersonaSnapshot: { snapshot: { type: 'object' } },
  putWorldSnapshot: {
    snapshot: {
      type: 'object', additionalProperties: true,
      properties: {
        id: str,
        entities: {
          type: 'array',
          items: {
            type: 'object', additionalProperties: true,
            properties: {
              id: str, type: str, name: str, spaceId: str,
              relationships: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { targetId: str, relationship: { $ref: '#/components/schemas/WorldRelationshipInput' } } } },
            },
          },
        },
        spaces: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { id: str, name: str } } },
        environment: { $ref: '#/components/schemas/EnvironmentInput' },
        createdAt: { type: 'number' },
      },
    },
  },
};

/** SPEC.md, the normative text, kept beside the contract (test/reference/spec-contract.test.ts keeps the copy true). */
export const specText = () => readFileSync(new URL('./SPEC.md', import.meta.url), 'utf8');

/** Every name SPEC.md writes in backquotes. */
export function namesInSpec(text: string): Set<string> {
  return new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]));
}

function view(node: unknown, names: Set<string>, keepRequired: (required: string[]) => string[]): unknown {
  if (Array.isArray(node)) return node.map((n) => view(n, names, () => []));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (BOUNDS.has(key) || key === 'examples' || key === 'example') continue;
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out.properties = Object.fromEntries(Object.entries(value as Json).filter(([name]) => names.has(name)).map(([name, v]) => [name, view(v, names, () => [])]));
    } else if (key === 'required' && Array.isArray(value)) {
      const kept = keepRequired(value.filter((n: string) => names.has(n)));
      if (kept.length) out.required = kept;
    } else if (key === 'additionalProperties' && value && typeof value === 'object') {
      out.additionalProperties = view(value, names, () => []);
    } else out[key] = view(value, names, () => []);
  }
  return out;
}

/**
 * The members of a request body with the schema each must meet. A body written as `allOf` (the
 * reference's dispatchEvent: the Event resource by reference, then the members it requires) has them
 * in every part: a member's schemas are all kept (`allOf`), but for a part that only names it (`{}`).
 */
function bodyMembers(schema: Json, doc: Json): Record<string, Json> {
  const resolve = (s: Json): Json => (typeof s.$ref === 'string' && s.$ref.startsWith('#/components/schemas/') ? doc.components.schemas[s.$ref.split('/').pop()!] ?? {} : s);
  const parts: Json[] = Array.isArray(schema.allOf) ? schema.allOf.map(resolve) : [resolve(schema)];
  const found: Record<string, Json[]> = {};
  for (const part of parts) {
    for (const [name, member] of Object.entries<Json>(part.properties ?? {})) {
      if (Object.keys(member).length) (found[name] ??= []).push(member);
      else found[name] ??= [];
    }
  }
  return Object.fromEntries(Object.entries(found).map(([name, schemas]) => [name, schemas.length === 0 ? {} : schemas.length === 1 ? schemas[0] : { allOf: schemas }]));
}

/** Members reported only sometimes: when not reported they may be absent or null (nextCursor on the last page). */
const SOMETIMES_MEMBERS = new Set(Object.values(SOMETIMES).flat());

/** A result keeps only the members SPEC.md writes out for it (when it writes them out). */
function only(schema: Json, listed: string[] | undefined): Json {
  if (!listed || !schema.properties) return schema;
  const properties = Object.fromEntries(Object.entries<Json>(schema.properties).filter(([n]) => listed.includes(n))
    .map(([n, v]) => [n, SOMETIMES_MEMBERS.has(n) && typeof v.type === 'string' ? { ...v, type: [v.type, 'null'] } : v]));
  return { ...schema, properties };
}

export function buildSpecContract(reference: Json, spec = specText()): Json {
  const names = namesInSpec(spec);
  const doc: Json = structuredClone(reference);
  doc.info = { ...doc.info, title: 'Simulation Service: the SPEC contract', description: 'What SPEC.md states and nothing more: the members it names, none of the bounds it does not show, required only where it says a member is always there. Generated by contract/spec-contract.ts from the reference document.' };
  /** Components that are the result of a documented operation, with the members always there. */
  const resultComponents = new Map<string, { always: string[]; listed?: string[] }>();
  for (const item of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(item)) {
      const spec = op['x-shape-source'] === 'spec';
      const body = op.requestBody?.content?.['application/json'];
      if (body) {
        const members = SPEC_REQUEST_MEMBERS[op.operationId];
        if (!spec || !members) body.schema = {};
        else {
          const shapes = SPEC_REQUEST_SHAPES[op.operationId] ?? {};
          const properties = Object.fromEntries(Object.entries(bodyMembers(body.schema ?? {}, doc)).filter(([n]) => members.includes(n))
            .map(([n, v]) => [n, shapes[n] ? structuredClone(shapes[n]) : view(v, names, () => [])]));
          body.schema = { type: 'object', properties, additionalProperties: true };
        }
      }
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        // Headers SPEC.md does not show (rate-limit headers other than Retry-After), and Retry-After's
        // bounds: RATE-2 checks what SPEC.md says of it.
        delete response.headers;
        const media = response.content?.['application/json'];
        if (!media?.schema) continue;
        if (!/^2/.test(status)) { media.schema = view(media.schema, names, (r) => r); continue; }
        if (!spec || op.operationId === 'getOpenApi') { media.schema = op.operationId === 'getOpenApi' ? media.schema : { type: 'object', required: ['result'], properties: { result: {} } }; continue; }
        // The envelope and the members of the documented result are always there.
        const result = media.schema.properties?.result;
        const always = SPEC_RESULT_MEMBERS[op.operationId] ?? [];
        const listed = SPEC_RESULT_MEMBERS[op.operationId] ? [...always, ...(SOMETIMES[op.operationId] ?? [])] : undefined;
        if (result?.$ref) resultComponents.set(result.$ref.split('/').pop(), { always, listed });
        media.schema = {
          type: 'object', required: ['result'],
          properties: { result: !result || result.$ref ? result ?? {} : only(view(result, names, () => always) as Json, listed) },
        };
      }
    }
  }
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas)) {
    const asResult = resultComponents.get(name);
    const viewed = view(schema, names, (required) => asResult?.always ?? required.filter((n) => ALWAYS[name]?.includes(n))) as Json;
    // SPEC.md's list, whatever the reference's document marks required.
    const always = ALWAYS[name]?.filter((n) => viewed.properties?.[n]);
    if (!asResult?.always.length && always?.length) viewed.required = always;
    if (name === 'WorldContext') Object.assign(viewed, structuredClone(PERSONA_CONTEXT));
    doc.components.schemas[name] = only(viewed, asResult?.listed);
  }
  delete doc.components.headers;
  // The error member of the envelope: code and message are always there (Errors).
  const error = doc.components.schemas.ErrorEnvelope?.properties?.error;
  if (error) error.required = ['code', 'message'];
  return doc;
}

