// Worlds of the independent implementation: in memory, per tenant, soft-deleted in place. Triggers
// are evaluated when time advances (the next tick or time jump), not when the event arrives.
import { randomUUID } from 'node:crypto';
import { ApiError, invalid, isObject, read } from './errors.ts';
import { advance, emotionView, newPsyche, perceive, restoreSnapshot, snapshotOf, textValence, type Psyche } from './psyche.ts';
import { check, closedCopy, EVENT, GOAL, INTERACTION, KNOWLEDGE, PROGRESSION, WORLD_PERSONA_SNAPSHOT } from './shapes.ts';

type Json = Record<string, any>;
export const ENGINE_VERSION = 'indep-engine/0.3';

interface Entity { id: string; name: string; type: string; profile: { displayName: string; role: string; description: string; personalityHints: string }; spaceId: string }
interface Space { id: string; name: string; type: string; capacity: number }
interface Relationship { id: string; sourceId: string; targetId: string; type: string; strength: number; trust: number }
interface Action { id: string; name: string; description: string; effect: { V: number; A: number; D: number }; custom: boolean }
interface Progression { currentPhase: string; elapsedTime: number; eventCounts: Record<string, number>; phaseHistory: Json[]; firedTriggerIds: string[]; triggers: Json[]; phases: Json }

export interface World {
  id: string; tenantId: string; seq: number; createdAt: number; deletedAt?: number;
  definition: Json; entities: Entity[]; psyches: Map<string, Psyche>; personaConfigs: Record<string, Json>;
  spaces: Space[]; environment: Json; interaction: { groupAwareness: boolean; emotionalContagion: boolean; propagation: string };
  progression: Progression; relationships: Relationship[]; events: Json[]; actions: Action[];
  /** The world's facts: from the definition at creation, then grown by batches and imports (the definition stays as given). */
  knowledge: Json;
}

const DEFAULT_ACTIONS: Action[] = [
  { id: 'greet', name: 'greet', description: 'A friendly greeting', effect: { V: 0.2, A: 0.1, D: 0 }, custom: false },
  { id: 'comfort', name: 'comfort', description: 'Words of comfort', effect: { V: 0.3, A: -0.2, D: 0.1 }, custom: false },
  { id: 'insult', name: 'insult', description: 'A hurtful remark', effect: { V: -0.4, A: 0.3, D: -0.1 }, custom: false },
];

const nowS = () => Math.floor(Date.now() / 1000);
let seq = 0;

// ---- validation of a definition (present members must have the shape SPEC gives) ----
function checkDefinition(d: Json, where = 'definition'): void {
  const identity = read.obj(d, 'identity', false, `${where}.identity`);
  if (identity) { read.string(identity, 'name', false, `${where}.identity.name`); read.string(identity, 'description', false, `${where}.identity.description`); }
  const rules = read.obj(d, 'rules', false, `${where}.rules`);
  if (rules) {
    const physics = read.obj(rules, 'physics', false, `${where}.rules.physics`);
    if (physics) for (const k of Object.keys(physics)) read.boolean(physics, k, `${where}.rules.physics.${k}`);
    const social = read.obj(rules, 'social', false, `${where}.rules.social`);
    if (social) for (const k of ['norms', 'taboos', 'hierarchies']) read.strings(social, k, `${where}.rules.social.${k}`);
    read.obj(rules, 'narrative', false, `${where}.rules.narrative`);
  }
  const culture = read.obj(d, 'culture', false, `${where}.culture`);
  if (culture) {
    read.strings(culture, 'coreValues', `${where}.culture.coreValues`);
    read.numberMap(culture, 'normMap', `${where}.culture.normMap`);
    const sp = read.obj(culture, 'socialProtocol', false, `${where}.culture.socialProtocol`);
    if (sp) { read.string(sp, 'greetingStyle', false); read.string(sp, 'addressSystem', false); read.strings(sp, 'tabooTopics'); }
  }
  const topology = read.obj(d, 'topology', false, `${where}.topology`);
  if (topology) {
    const conns = read.array(topology, 'connections', false, `${where}.topology.connections`) ?? [];
    conns.forEach((c, i) => {
      const w = `${where}.topology.connections[${i}]`;
      const o = read.object(c, w);
      read.string(o, 'from', true, `${w}.from`); read.string(o, 'to', true, `${w}.to`);
      read.number(o, 'distance', false, `${w}.distance`); read.number(o, 'traversalTime', false, `${w}.traversalTime`);
      read.string(o, 'accessibility', false, `${w}.accessibility`); read.boolean(o, 'bidirectional', `${w}.bidirectional`);
    });
  }
  const time = read.obj(d, 'time', false, `${where}.time`);
  if (time) { read.string(time, 'type', false, `${where}.time.type`); read.number(time, 'ratio', false, `${where}.time.ratio`); }
  const knowledge = read.obj(d, 'knowledge', false, `${where}.knowledge`);
  if (knowledge) {
    (read.array(knowledge, 'facts', false, `${where}.knowledge.facts`) ?? []).forEach((f, i) => checkFact(f, `${where}.knowledge.facts[${i}]`));
    read.string(knowledge, 'defaultVisibility', false, `${where}.knowledge.defaultVisibility`);
  }
  const progression = read.obj(d, 'progression', false, `${where}.progression`);
  if (progression) {
    read.string(progression, 'initialPhase', false, `${where}.progression.initialPhase`);
    const phases = read.obj(progression, 'phases', false, `${where}.progression.phases`);
    if (phases) for (const [k, p] of Object.entries(phases)) {
      const o = read.object(p, `${where}.progression.phases.${k}`);
      read.string(o, 'description', false, `${where}.progression.phases.${k}.description`);
      read.numberMap(o, 'normMapOverride', `${where}.progression.phases.${k}.normMapOverride`);
    }
    (read.array(progression, 'triggers', false, `${where}.progression.triggers`) ?? []).forEach((t, i) => checkTrigger(t, `${where}.progression.triggers[${i}]`));
  }
}

/**
 * The definition as kept: WorldDefinition and its identity are open, every other part of it closed
 * (SPEC marks only those two open), so members a closed part does not list are not kept.
 */
function keptDefinition(d: Json): Json {
  const out: Json = structuredClone(d);
  const closed = (o: unknown, members: string[]) => (isObject(o) ? closedCopy(o, members) as Json : o);
  const each = (a: unknown, f: (x: unknown) => unknown) => (Array.isArray(a) ? a.map(f) : a);
  if (isObject(out.rules)) {
    out.rules = closed(out.rules, ['physics', 'social', 'narrative']);
    if (isObject(out.rules.social)) out.rules.social = closed(out.rules.social, ['norms', 'taboos', 'hierarchies']);
  }
  if (isObject(out.culture)) {
    out.culture = closed(out.culture, ['coreValues', 'normMap', 'socialProtocol']);
    if (isObject(out.culture.socialProtocol)) out.culture.socialProtocol = closed(out.culture.socialProtocol, ['greetingStyle', 'addressSystem', 'tabooTopics']);
  }
  if (isObject(out.topology)) {
    out.topology = closed(out.topology, ['connections']);
    out.topology.connections = each(out.topology.connections, (c) => closed(c, ['from', 'to', 'distance', 'traversalTime', 'accessibility', 'bidirectional']));
  }
  if (isObject(out.time)) out.time = closed(out.time, ['type', 'ratio']);
  if (isObject(out.knowledge)) out.knowledge = keptKnowledge(out.knowledge);
  if (isObject(out.progression)) {
    out.progression = closed(out.progression, ['initialPhase', 'phases', 'triggers']);
    if (isObject(out.progression.phases)) out.progression.phases = keptPhases(out.progression.phases);
    out.progression.triggers = keptTriggers(out.progression.triggers);
  }
  return out;
}
const keptKnowledge = (k: Json): Json => {
  const out = closedCopy(k, ['facts', 'defaultVisibility']) as Json;
  if (Array.isArray(out.facts)) out.facts = out.facts.map((f: Json) => closedCopy(f, ['id', 'content', 'visibility', 'knownBy']));
  return out;
};
const keptPhases = (phases: Json): Json => Object.fromEntries(Object.entries(phases).map(([k, p]) => [k, closedCopy(p as Json, ['description', 'normMapOverride'])]));
const keptTriggers = (triggers: unknown): unknown => (Array.isArray(triggers)
  ? triggers.map((t: Json) => ({ ...closedCopy(t, ['id', 'condition', 'targetPhase', 'oneShot']), ...(isObject(t.condition) ? { condition: closedCopy(t.condition, ['type', 'eventType', 'threshold']) } : {}) }))
  : triggers);
/** An event as this implementation keeps it: every member of the Event resource there. */
const fullEvent = (e: Json, w: World): Json => ({
  type: e.type, spaceId: e.spaceId ?? w.spaces[0].id, timestamp: e.timestamp ?? 0, sourceEntity: e.sourceEntity ?? '', targetEntity: e.targetEntity ?? '',
  payload: e.payload ?? {}, appraisal: keptAppraisal(e.appraisal), stimulus: keptStimulus(e.stimulus),
});
const VAD_MEMBERS = ['V', 'A', 'D'];
/** Appraisal, Stimulus and the vectors in it are no open objects: only their own members are kept. */
export const keptAppraisal = (a: unknown): Json => (isObject(a) ? closedCopy(a, ['goal_relevance', 'goal_congruence', 'expectedness', 'controllability', 'agency', 'norm_compatibility']) : {});
export function keptStimulus(st: unknown): Json {
  if (!isObject(st)) return {};
  const out = closedCopy(st, ['bodyBudgetDelta', 'vadOverride', 'vadDelta', 'needsDelta', 'soulStageForce', 'catastropheAlphaDelta', 'dampingOverride']) as Json;
  for (const k of ['vadOverride', 'vadDelta']) if (isObject(out[k])) out[k] = closedCopy(out[k], VAD_MEMBERS);
  if (isObject(out.needsDelta)) out.needsDelta = closedCopy(out.needsDelta, ['autonomy', 'competence', 'relatedness']);
  return out;
}
const keptEvent = (e: Json): Json => closedCopy(e, ['type', 'spaceId', 'timestamp', 'sourceEntity', 'targetEntity', 'payload', 'appraisal', 'stimulus']);

function checkFact(f: unknown, w: string): void {
  const o = read.object(f, w);
  read.string(o, 'id', false, `${w}.id`); read.string(o, 'content', false, `${w}.content`);
  read.string(o, 'visibility', false, `${w}.visibility`); read.strings(o, 'knownBy', `${w}.knownBy`);
}

function checkTrigger(t: unknown, w: string): void {
  const o = read.object(t, w);
  read.string(o, 'id', true, `${w}.id`);
  read.string(o, 'targetPhase', true, `${w}.targetPhase`);
  read.boolean(o, 'oneShot', `${w}.oneShot`);
  const c = read.obj(o, 'condition', true, `${w}.condition`)!;
  const type = read.string(c, 'type', true, `${w}.condition.type`);
  const needed = type === 'event_count';
  read.string(c, 'eventType', needed, `${w}.condition.eventType`);
  read.number(c, 'threshold', needed, `${w}.condition.threshold`);
}

function spacesOf(def: Json): Space[] {
  const ids: string[] = [];
  for (const c of def.topology?.connections ?? []) for (const s of [c.from, c.to]) if (!ids.includes(s)) ids.push(s);
  if (!ids.length) ids.push('commons');
  return ids.map((id) => ({ id, name: id, type: 'physical', capacity: 25 }));
}

function configFor(name: string, given: Json | undefined): Json {
  // A PersonaConfig of the documented shape, the given members taking precedence. The config is open,
  // its personality, identity, goals and reflection are not: only their own members are kept.
  const g = structuredClone(given ?? {});
  if (isObject(g.personality)) g.personality = closedCopy(g.personality, ['O', 'C', 'E', 'A', 'N', 'H']);
  if (isObject(g.identity)) g.identity = closedCopy(g.identity, ['name', 'role', 'speakingStyle', 'culturalIdentity', 'coreValues']);
  if (isObject(g.reflection)) g.reflection = closedCopy(g.reflection, ['vadDeltaThreshold', 'predictionErrorThreshold', 'turnFallback']);
  if (Array.isArray(g.goals)) g.goals = g.goals.map((x: Json) => closedCopy(x, ['id', 'content', 'priority', 'mutable', 'status']));
  return {
    personality: { O: 0.5, C: 0.5, E: 0.5, A: 0.5, N: 0.5, H: 0.5 },
    identity: { name, role: '', speakingStyle: 'plain', culturalIdentity: '', coreValues: [] },
    goals: [], type: 'persona', reflection: { vadDeltaThreshold: 0.3, predictionErrorThreshold: 0.5, turnFallback: 5 },
    ...g,
  };
}

function checkConfig(c: unknown, w: string): Json {
  const o = read.object(c, w);
  const p = read.obj(o, 'personality', false, `${w}.personality`);
  if (p) for (const k of Object.keys(p)) read.number(p, k, true, `${w}.personality.${k}`);
  const id = read.obj(o, 'identity', false, `${w}.identity`);
  if (id) { for (const k of ['name', 'role', 'speakingStyle', 'culturalIdentity']) read.string(id, k, false, `${w}.identity.${k}`); read.strings(id, 'coreValues', `${w}.identity.coreValues`); }
  (read.array(o, 'goals', false, `${w}.goals`) ?? []).forEach((g, i) => check(g, GOAL, `${w}.goals[${i}]`));
  read.string(o, 'type', false, `${w}.type`);
  const r = read.obj(o, 'reflection', false, `${w}.reflection`);
  if (r) for (const k of Object.keys(r)) read.number(r, k, true, `${w}.reflection.${k}`);
  return o;
}

export class Worlds {
  private byId = new Map<string, World>();

  constructor(private options: { personaCodeInBodies?: boolean; importListedOnly?: boolean; exportedAt?: boolean } = {}) {}

  /** A world of this tenant, active unless `deletedToo`; else 404 (never seen) or 410 (soft-deleted). */
  get(tenantId: string, id: string, deletedToo = false): World {
    const w = this.byId.get(id);
    if (!w || w.tenantId !== tenantId) throw new ApiError(404, 'WORLD_NOT_FOUND', `world ${id} not found`);
    if (w.deletedAt !== undefined && !deletedToo) throw new ApiError(410, 'WORLD_NOT_FOUND', `world ${id} was deleted`);
    return w;
  }

  create(tenantId: string, body: unknown): Json {
    const b = read.object(body);
    const given = read.obj(b, 'definition') ?? {};
    checkDefinition(given);
    const definition = keptDefinition(given);
    const entitiesIn = read.array(b, 'entities') ?? [];
    const configsIn = read.obj(b, 'personaConfigs') ?? {};
    for (const [k, c] of Object.entries(configsIn)) checkConfig(c, `personaConfigs.${k}`);
    const spaces = spacesOf(definition);
    const prog: Json = definition.progression ?? {};
    const w: World = {
      id: randomUUID(), tenantId, seq: ++seq, createdAt: nowS(), definition: structuredClone(definition), entities: [], psyches: new Map(), personaConfigs: {},
      spaces, environment: { atmosphere: 'calm', lighting: 'daylight', soundscape: [], weather: 'clear', timeOfDay: 'morning' },
      interaction: { groupAwareness: false, emotionalContagion: false, propagation: 'none' },
      progression: { currentPhase: prog.initialPhase ?? 'initial', elapsedTime: 0, eventCounts: {}, phaseHistory: [], firedTriggerIds: [], triggers: structuredClone(prog.triggers ?? []), phases: structuredClone(prog.phases ?? {}) },
      relationships: [], events: [], actions: [], knowledge: knowledgeFrom(definition.knowledge),
    };
    entitiesIn.forEach((e, i) => {
      const o = read.object(e, `entities[${i}]`);
      const name = read.name(o, 'name', true, `entities[${i}].name`)!;
      const type = read.name(o, 'type', true, `entities[${i}].type`)!;
      const spaceId = read.string(o, 'spaceId', false, `entities[${i}].spaceId`);
      this.addEntity(w, name, type, spaceId, configsIn[name] as Json | undefined);
    });
    // A config without an entity of its name brings its persona into the world.
    for (const [name, c] of Object.entries(configsIn)) if (!w.entities.some((e) => e.name === name)) this.addEntity(w, name, 'persona', undefined, c as Json);
    this.byId.set(w.id, w);
    return { worldId: w.id, createdAt: w.createdAt };
  }

  private addEntity(w: World, name: string, type: string, spaceId: string | undefined, config?: Json): Entity {
    if (w.entities.some((e) => e.name === name)) throw new ApiError(409, 'ENTITY_EXISTS', `an entity named ${name} already exists`);
    if (spaceId !== undefined && !w.spaces.some((s) => s.id === spaceId)) throw invalid(`space ${spaceId} does not exist`);
    const e: Entity = { id: randomUUID(), name, type, profile: { displayName: name, role: type, description: '', personalityHints: '' }, spaceId: spaceId ?? w.spaces[0].id };
    w.entities.push(e);
    if (type === 'persona') w.personaConfigs[name] = configFor(name, config);
    w.psyches.set(e.id, newPsyche(type === 'persona' ? w.personaConfigs[name] : {}));
    return e;
  }

  private removeEntity(w: World, e: Entity): void {
    w.entities = w.entities.filter((x) => x !== e);
    delete w.personaConfigs[e.name];
    w.psyches.delete(e.id);
    w.relationships = w.relationships.filter((r) => r.sourceId !== e.id && r.targetId !== e.id);
  }

  list(tenantId: string, query: URLSearchParams): Json {
    const limit = pageLimit(query.get('limit'), 20, 100);
    const after = query.get('cursor');
    let before = Infinity;
    if (after !== null) before = decodeCursor(after);
    // Newest first; the cursor is the sequence number of the last world given.
    const all = [...this.byId.values()].filter((w) => w.tenantId === tenantId && w.deletedAt === undefined && w.seq < before).sort((a, b) => b.seq - a.seq);
    const page = all.slice(0, limit);
    const out: Json = { worlds: page.map(worldView) };
    if (all.length > limit) out.nextCursor = encodeCursor(page[page.length - 1].seq);
    return out;
  }

  read(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    return { world: worldView(w), personaConfigs: structuredClone(w.personaConfigs) };
  }

  patch(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const def = read.obj(b, 'definition');
    const env = read.obj(b, 'environment');
    const inter = read.obj(b, 'interaction');
    if (def) checkDefinition(def);
    if (inter) { read.boolean(inter, 'groupAwareness', 'interaction.groupAwareness'); read.boolean(inter, 'emotionalContagion', 'interaction.emotionalContagion'); read.string(inter, 'propagation', false, 'interaction.propagation'); }
    if (env) checkEnvironment(env);
    if (def) {
      Object.assign(w.definition, keptDefinition(def));
      const p = (def.progression ? w.definition.progression : undefined) as Json | undefined;
      if (p) {
        if (p.triggers) w.progression.triggers = structuredClone(p.triggers);
        if (p.phases) w.progression.phases = structuredClone(p.phases);
      }
    }
    if (def?.knowledge) w.knowledge = knowledgeFrom(def.knowledge);
    if (env) Object.assign(w.environment, structuredClone(env));
    if (inter) Object.assign(w.interaction, inter);
    return { world: worldView(w) };
  }

  remove(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    w.deletedAt = nowS();
    return { deleted: true, id: w.id };
  }

  restore(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id, true);
    if (w.deletedAt === undefined) throw new ApiError(409, 'WORLD_NOT_DELETED', `world ${id} is not deleted`);
    w.deletedAt = undefined;
    return { restored: true, world: worldView(w) };
  }

  private entity(w: World, name: string, field: string): Entity {
    const e = w.entities.find((x) => x.name === name);
    if (!e) throw new ApiError(404, 'ENTITY_NOT_FOUND', `${field}: no entity named ${name} in world ${w.id}`);
    return e;
  }

  private record(w: World, ev: Json): Json {
    w.events.push(ev);
    if (w.events.length > 500) w.events.shift();
    w.progression.eventCounts[ev.type] = (w.progression.eventCounts[ev.type] ?? 0) + 1;
    return ev;
  }

  chat(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const from = read.name(b, 'from', true)!;
    const to = read.name(b, 'to', true)!;
    const message = read.string(b, 'message', true)!;
    if (message.length > 10_000) throw invalid('message must be at most 10000 characters');
    const src = this.entity(w, from, 'from');
    const dst = this.entity(w, to, 'to');
    const valence = textValence(message);
    const response = perceive(w.psyches.get(dst.id)!, { valence, arousal: message.includes('!') ? 0.3 : 0 }, from, message);
    const ps = w.psyches.get(dst.id)!;
    const rel = ps.relationships[from] ?? { entityId: src.id, trust: 0.5, intimacy: 0.1, interactionCount: 0, attachmentStyle: 'secure', lastInteraction: 0 };
    const oldTrust = rel.trust;
    rel.trust = Math.round(Math.min(1, Math.max(0, rel.trust + 0.05 * valence)) * 1e4) / 1e4;
    rel.interactionCount++;
    rel.lastInteraction = nowS();
    ps.relationships[from] = rel;
    (response.socialUpdates as Json[]).push({ entityId: src.id, field: 'trust', oldValue: oldTrust, newValue: rel.trust });
    this.record(w, { type: 'chat', spaceId: dst.spaceId, timestamp: nowS(), sourceEntity: from, targetEntity: to, payload: { message }, appraisal: (response.memoryEpisode as Json).appraisal, stimulus: {} });
    const group = w.interaction.groupAwareness
      ? w.entities.filter((e) => e.type === 'persona' && e.spaceId === dst.spaceId && e !== dst && e !== src).map((e) => ({ entityName: e.name, response: perceive(w.psyches.get(e.id)!, { valence: valence / 3 }, from, message) }))
      : [];
    return { entityName: to, response, affected: [{ entityName: to, response }], groupAwareness: group };
  }

  dispatch(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const ev = checkEvent(body);
    const target = ev.targetEntity !== undefined ? this.entity(w, ev.targetEntity, 'targetEntity') : undefined;
    if (ev.sourceEntity !== undefined) this.entity(w, ev.sourceEntity, 'sourceEntity');
    if (ev.spaceId !== undefined && !w.spaces.some((s) => s.id === ev.spaceId)) throw invalid(`spaceId: no space ${ev.spaceId}`);
    const reached = target ? [target] : w.entities.filter((e) => e.type === 'persona' && (ev.spaceId === undefined || e.spaceId === ev.spaceId));
    const recorded = this.record(w, {
      type: ev.type, spaceId: ev.spaceId ?? target?.spaceId ?? w.spaces[0].id, timestamp: ev.timestamp ?? nowS(),
      sourceEntity: ev.sourceEntity ?? '', targetEntity: ev.targetEntity ?? '', payload: ev.payload ?? {},
      appraisal: keptAppraisal(ev.appraisal), stimulus: keptStimulus(ev.stimulus),
    });
    const affected = reached.map((e) => ({ entityName: e.name, response: perceive(w.psyches.get(e.id)!, stimulusOf(ev), ev.sourceEntity ?? 'world', ev.type) }));
    return { type: ev.type, affected, events: [structuredClone(recorded)] };
  }

  /** Time passes for every entity, then the triggers are evaluated (the counts may have grown since). */
  private pass(w: World, seconds: number): { affected: Json[]; events: Json[]; phaseChanged?: string } {
    w.progression.elapsedTime += seconds;
    const affected: Json[] = [];
    for (const e of w.entities) {
      const ps = w.psyches.get(e.id)!;
      advance(ps, seconds);
      if (e.type === 'persona') affected.push({ entityName: e.name, response: quietResponse(ps, e.name) });
    }
    const events: Json[] = [];
    let phaseChanged: string | undefined;
    const p = w.progression;
    for (const t of p.triggers) {
      const c = t.condition ?? {};
      if (c.type !== 'event_count') continue;
      if ((p.eventCounts[c.eventType] ?? 0) < c.threshold) continue;
      if (t.oneShot !== false && p.firedTriggerIds.includes(t.id)) continue;
      if (p.currentPhase === t.targetPhase) continue;
      const open = p.phaseHistory[p.phaseHistory.length - 1];
      if (open && open.exitedAt === undefined) open.exitedAt = p.elapsedTime;
      p.phaseHistory.push({ phase: t.targetPhase, enteredAt: p.elapsedTime, triggerId: t.id });
      if (!p.firedTriggerIds.includes(t.id)) p.firedTriggerIds.push(t.id);
      p.currentPhase = t.targetPhase;
      phaseChanged = t.targetPhase;
      events.push({ type: 'phase_change', spaceId: w.spaces[0].id, timestamp: nowS(), sourceEntity: '', targetEntity: '', payload: { phase: t.targetPhase, triggerId: t.id }, appraisal: {}, stimulus: {} });
    }
    return { affected, events, ...(phaseChanged ? { phaseChanged } : {}) };
  }

  tick(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const seconds = read.number(read.object(body), 'seconds', true)!;
    if (seconds < 0 || seconds > 31_536_000) throw invalid('seconds must be within [0, 31536000]');
    return { ...this.pass(w, seconds), elapsedTime: w.progression.elapsedTime };
  }

  timeJump(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const minutes = read.number(read.object(body), 'minutes', true)!;
    if (minutes < 0 || minutes > 525_600) throw invalid('minutes must be within [0, 525600]');
    const { phaseChanged } = this.pass(w, minutes * 60);
    return { jumpedSeconds: minutes * 60, elapsedTime: w.progression.elapsedTime, currentPhase: w.progression.currentPhase, ...(phaseChanged ? { phaseChanged } : {}) };
  }

  query(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const only = read.strings(b, 'entityNames');
    const rels: Json = {};
    const nameOf = (eid: string) => w.entities.find((e) => e.id === eid)?.name ?? eid;
    for (const r of w.relationships) (rels[nameOf(r.sourceId)] ??= {})[nameOf(r.targetId)] = { type: r.type, strength: r.strength, trust: r.trust };
    return {
      entities: w.entities.filter((e) => !only || only.includes(e.name)).map((e) => structuredClone(e)),
      spaces: structuredClone(w.spaces),
      knowledge: knowledgeOf(w),
      progression: structuredClone(w.progression),
      relationships: rels,
      environment: structuredClone(w.environment),
    };
  }

  context(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const name = read.name(read.object(body), 'entityName', true)!;
    const e = this.entity(w, name, 'entityName');
    const space = w.spaces.find((s) => s.id === e.spaceId) ?? w.spaces[0];
    const adjacent = new Set<string>();
    for (const c of w.definition.topology?.connections ?? []) {
      if (c.from === space.id) adjacent.add(c.to);
      if (c.to === space.id && c.bidirectional !== false) adjacent.add(c.from);
    }
    const facts = knowledgeOf(w).facts.filter((f: Json) => (f.visibility ?? 'public') === 'public' || (f.knownBy ?? []).includes(name));
    const out: Json = {
      whoAmI: structuredClone(e), whereAmI: structuredClone(space),
      whoIsHere: w.entities.filter((x) => x !== e && x.spaceId === e.spaceId).map((x) => structuredClone(x)),
      whatHappened: structuredClone(w.events.slice(-10)), adjacentSpaces: [...adjacent],
      worldIdentity: structuredClone(w.definition.identity ?? {}), worldCulture: structuredClone(w.definition.culture ?? {}),
      knownFacts: structuredClone(facts), currentPhase: w.progression.currentPhase,
    };
    if (e.type === 'persona') {
      const ps = w.psyches.get(e.id)!;
      const snap = snapshotOf(ps) as Json;
      out.personaState = {
        emotion: emotionView(ps),
        soulStage: { id: snap.state.soul_stage.id, name: snap.state.soul_stage.name, blendTable: snap.state.soul_stage.blend_table, turnsInStage: snap.state.soul_stage.turns_in_stage },
        mask: { integrity: ps.maskIntegrity, state: snap.maskState }, mood: { ...ps.mood }, somatic: snap.somatic.regions,
        narrative: { tone: snap.narrative.tone, agency: snap.narrative.agency, coherence: 0.8 }, regulation: { activeStrategy: snap.state.regulation.active_strategy.strategy },
        selfEsteem: { global: snap.selfEsteem.global }, tmt: { mortalitySalience: 0, deathAnxiety: 0, defenseMode: 'proximal' },
        relationship: { trust: 0.5, intimacy: 0.1, attachmentStyle: 'secure' },
      };
    }
    return out;
  }

  mutate(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const ops = read.array(read.object(body), 'operations', true)!;
    if (ops.length > 100) throw invalid('at most 100 operations a batch');
    const results = ops.map((op) => {
      const name = isObject(op) && typeof op.op === 'string' ? op.op : '';
      try {
        return { op: name, ok: true, data: this.operation(w, op) };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return { op: name, ok: false, error: `${err.code}: ${err.message}` };
      }
    });
    return { results };
  }

  /** One batch operation; its failure is its own result entry. Returns the entry's `data` string. */
  private operation(w: World, op: unknown): string {
    const o = read.object(op, 'operation');
    const kind = read.string(o, 'op', true)!;
    switch (kind) {
      case 'add_entity': {
        const e = this.addEntity(w, read.name(o, 'name', true)!, read.name(o, 'type', true)!, read.string(o, 'spaceId'), read.obj(o, 'config') && checkConfig(o.config, 'config'));
        return e.id;
      }
      case 'remove_entity': {
        const e = this.entity(w, read.name(o, 'name', true)!, 'name');
        this.removeEntity(w, e);
        return e.id;
      }
      case 'move_entity': {
        const e = this.entity(w, read.name(o, 'name', true)!, 'name');
        const to = read.string(o, 'spaceId', true)!;
        if (!w.spaces.some((s) => s.id === to)) throw invalid(`no space ${to}`);
        e.spaceId = to;
        return to;
      }
      case 'set_environment': {
        const env = read.obj(o, 'environment', true)!;
        checkEnvironment(env);
        Object.assign(w.environment, structuredClone(env));
        return 'environment updated';
      }
      case 'add_fact': {
        checkFact(o.fact, 'fact');
        const f = structuredClone(o.fact) as Json;
        f.id ??= randomUUID();
        w.knowledge.facts.push(closedCopy(f, ['id', 'content', 'visibility', 'knownBy']));
        return f.id;
      }
      default:
        throw invalid(`unknown op ${kind}`);
    }
  }

  snapshot(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    return {
      id: w.id, definition: structuredClone(w.definition),
      entities: w.entities.map((e) => ({
        ...structuredClone(e), personaSnapshot: snapshotOf(w.psyches.get(e.id)!),
        relationships: w.relationships.filter((r) => r.sourceId === e.id).map((r) => ({ targetId: r.targetId, relationship: { type: r.type, strength: r.strength, trust: r.trust } })),
      })),
      spaces: structuredClone(w.spaces), environment: structuredClone(w.environment), createdAt: w.createdAt,
      knowledge: knowledgeOf(w), progression: structuredClone(w.progression), recentEvents: structuredClone(w.events.slice(-20)),
      interaction: { ...w.interaction }, personaConfigs: structuredClone(w.personaConfigs), engineVersion: ENGINE_VERSION,
      ...(this.options.exportedAt ? { exportedAt: Date.now() } : {}),
    };
  }

  /**
   * Takes back everything an export gives (every member checked first, nothing replaced on a refusal);
   * a member left out keeps the world's current value. The world keeps its own id.
   */
  importSnapshot(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const s = read.obj(read.object(body), 'snapshot', true)!;
    read.string(s, 'id', false, 'snapshot.id');
    const createdAt = read.number(s, 'createdAt', false, 'snapshot.createdAt');
    const def = this.options.importListedOnly ? undefined : read.obj(s, 'definition', false, 'snapshot.definition');
    if (def) checkDefinition(def, 'snapshot.definition');
    const spacesIn = read.array(s, 'spaces', false, 'snapshot.spaces')?.map((x, i) => {
      const o = read.object(x, `snapshot.spaces[${i}]`);
      return { id: read.name(o, 'id', true, `snapshot.spaces[${i}].id`)!, name: read.string(o, 'name', true, `snapshot.spaces[${i}].name`)!, type: read.string(o, 'type', false, `snapshot.spaces[${i}].type`) ?? 'physical', capacity: read.number(o, 'capacity', false, `snapshot.spaces[${i}].capacity`) ?? 25 };
    });
    if (spacesIn && !spacesIn.length) throw invalid('snapshot.spaces must hold at least one space');
    const env = read.obj(s, 'environment', false, 'snapshot.environment');
    if (env) checkEnvironment(env, 'snapshot.environment');
    const configs = read.obj(s, 'personaConfigs', false, 'snapshot.personaConfigs');
    if (configs) for (const [k, c] of Object.entries(configs)) checkConfig(c, `snapshot.personaConfigs.${k}`);
    // Variant importListedOnly: only what SPEC lists for the import is read; the rest of this open object is left as it is.
    const full = !this.options.importListedOnly;
    if (full && s.knowledge !== undefined) check(s.knowledge, KNOWLEDGE, 'snapshot.knowledge');
    if (full && s.progression !== undefined) check(s.progression, PROGRESSION, 'snapshot.progression');
    if (full && s.recentEvents !== undefined) check(s.recentEvents, [EVENT], 'snapshot.recentEvents');
    if (full && s.interaction !== undefined) check(s.interaction, INTERACTION, 'snapshot.interaction');
    const entitiesIn = read.array(s, 'entities', false, 'snapshot.entities');
    const spaces = spacesIn ?? w.spaces;
    const next: Entity[] = [];
    const psyches = new Map<string, Psyche>();
    const rels: Relationship[] = [];
    (entitiesIn ?? []).forEach((x, i) => {
      const wh = `snapshot.entities[${i}]`;
      const o = read.object(x, wh);
      const e: Entity = {
        id: read.name(o, 'id', true, `${wh}.id`)!, name: read.name(o, 'name', true, `${wh}.name`)!, type: read.name(o, 'type', true, `${wh}.type`)!,
        profile: { displayName: '', role: '', description: '', personalityHints: '' }, spaceId: read.string(o, 'spaceId', false, `${wh}.spaceId`) ?? spaces[0].id,
      };
      const prof = read.obj(o, 'profile', false, `${wh}.profile`);
      if (prof) for (const k of ['displayName', 'role', 'description', 'personalityHints'] as const) e.profile[k] = read.string(prof, k, false, `${wh}.profile.${k}`) ?? '';
      if (next.some((n) => n.name === e.name || n.id === e.id)) throw invalid(`${wh}: duplicate entity`);
      if (!spaces.some((sp) => sp.id === e.spaceId)) throw invalid(`${wh}.spaceId: no space ${e.spaceId}`);
      next.push(e);
      const snap = this.options.importListedOnly ? undefined : read.obj(o, 'personaSnapshot', false, `${wh}.personaSnapshot`);
      if (snap) check(snap, WORLD_PERSONA_SNAPSHOT, `${wh}.personaSnapshot`);
      const cfg = configs?.[e.name] ?? w.personaConfigs[e.name];
      psyches.set(e.id, snap ? restoreSnapshot(snap, newPsyche(cfg)) : w.psyches.get(e.id) ?? newPsyche(cfg));
      (read.array(o, 'relationships', false, `${wh}.relationships`) ?? []).forEach((r, j) => {
        const ro = read.object(r, `${wh}.relationships[${j}]`);
        const targetId = read.string(ro, 'targetId', true, `${wh}.relationships[${j}].targetId`)!;
        const rel = read.obj(ro, 'relationship', true, `${wh}.relationships[${j}].relationship`)!;
        rels.push({
          id: randomUUID(), sourceId: e.id, targetId, type: read.string(rel, 'type', false, `${wh}.relationships[${j}].relationship.type`) ?? 'stranger',
          strength: read.number(rel, 'strength', false, `${wh}.relationships[${j}].relationship.strength`) ?? 0, trust: read.number(rel, 'trust', false, `${wh}.relationships[${j}].relationship.trust`) ?? 0,
        });
      });
    });
    for (const r of rels) if (!next.some((e) => e.id === r.targetId)) throw invalid(`relationship target ${r.targetId} is not an entity of the snapshot`);
    if (!entitiesIn) for (const e of w.entities) if (!spaces.some((sp) => sp.id === e.spaceId)) throw invalid(`entity ${e.name} would be left in no space`);
    // Every check passed: the world takes the snapshot.
    if (def) { w.definition = keptDefinition(def); w.knowledge = knowledgeFrom(def.knowledge); }
    if (spacesIn) w.spaces = spacesIn;
    if (env) w.environment = { ...w.environment, ...structuredClone(env) };
    if (entitiesIn) {
      const personaConfigs: Record<string, Json> = {};
      for (const e of next) if (e.type === 'persona') personaConfigs[e.name] = configFor(e.name, configs?.[e.name] ?? w.personaConfigs[e.name]);
      w.entities = next; w.psyches = psyches; w.relationships = rels; w.personaConfigs = personaConfigs;
    }
    if (createdAt !== undefined) w.createdAt = createdAt;
    if (!full) return { ok: true };
    if (isObject(s.knowledge)) w.knowledge = knowledgeFrom(s.knowledge);
    if (isObject(s.progression)) {
      const p = s.progression as Json;
      const q = w.progression;
      if (p.currentPhase !== undefined) q.currentPhase = p.currentPhase;
      if (p.elapsedTime !== undefined) q.elapsedTime = p.elapsedTime;
      if (p.eventCounts !== undefined) q.eventCounts = { ...p.eventCounts };
      if (p.firedTriggerIds !== undefined) q.firedTriggerIds = [...p.firedTriggerIds];
      if (p.phaseHistory !== undefined) q.phaseHistory = p.phaseHistory.map((h: Json) => closedCopy(h, ['phase', 'enteredAt', 'exitedAt', 'triggerId']));
      if (p.triggers !== undefined) q.triggers = keptTriggers(structuredClone(p.triggers)) as Json[];
      if (p.phases !== undefined) q.phases = keptPhases(structuredClone(p.phases));
    }
    if (Array.isArray(s.recentEvents)) w.events = s.recentEvents.map((e: Json) => fullEvent(keptEvent(structuredClone(e)), w));
    if (isObject(s.interaction)) Object.assign(w.interaction, closedCopy(s.interaction, ['groupAwareness', 'emotionalContagion', 'propagation']));
    return { ok: true };
  }

  // ---- the parts of a world known only by path: shapes of this implementation's own ----
  personas(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    return { personas: w.entities.filter((e) => e.type === 'persona').map((e) => personaView(w, e)) };
  }

  addPersona(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const name = read.name(b, 'name', true)!;
    const config = read.obj(b, 'config') ? checkConfig(b.config, 'config') : undefined;
    const e = this.addEntity(w, name, 'persona', read.string(b, 'spaceId'), config);
    return { persona: personaView(w, e) };
  }

  /**
   * A persona of the world by entity id or name. Named in the path, a missing one is PERSONA_NOT_FOUND;
   * named in a body, ENTITY_NOT_FOUND ("the named entity does not exist in the world"), unless the
   * variant persona-code-in-bodies is on (README.md: the suite's model once refused that legal choice).
   */
  private persona(w: World, pid: string, from: 'path' | 'body' = 'path'): Entity {
    const e = w.entities.find((x) => x.type === 'persona' && (x.id === pid || x.name === pid));
    if (e) return e;
    if (from === 'body' && !this.options.personaCodeInBodies) throw new ApiError(404, 'ENTITY_NOT_FOUND', `no persona named ${pid} in world ${w.id}`);
    throw new ApiError(404, 'PERSONA_NOT_FOUND', `no persona ${pid} in world ${w.id}`);
  }

  getPersona(tenantId: string, id: string, pid: string): Json {
    const w = this.get(tenantId, id);
    const e = this.persona(w, pid);
    const ps = w.psyches.get(e.id)!;
    return { persona: { ...personaView(w, e), emotion: emotionView(ps), mood: { ...ps.mood } } };
  }

  removePersona(tenantId: string, id: string, pid: string): Json {
    const w = this.get(tenantId, id);
    const e = this.persona(w, pid);
    this.removeEntity(w, e);
    return { removed: { entityId: e.id, name: e.name } };
  }

  actions(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    return { actions: [...DEFAULT_ACTIONS, ...w.actions].map((a) => ({ ...a, effect: { ...a.effect } })) };
  }

  addAction(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const name = read.name(b, 'name', true)!;
    const description = read.string(b, 'description') ?? '';
    const effect = read.vad(b, 'effect') ?? {};
    if ([...DEFAULT_ACTIONS, ...w.actions].some((a) => a.name === name)) throw new ApiError(409, 'ACTION_EXISTS', `an action named ${name} already exists`);
    const a: Action = { id: randomUUID(), name, description, effect: { V: effect.V ?? 0, A: effect.A ?? 0, D: effect.D ?? 0 }, custom: true };
    w.actions.push(a);
    return { action: { ...a, effect: { ...a.effect } } };
  }

  removeAction(tenantId: string, id: string, aid: string): Json {
    const w = this.get(tenantId, id);
    const a = w.actions.find((x) => x.id === aid);
    if (!a) throw new ApiError(404, 'ACTION_NOT_FOUND', `no custom action ${aid} in world ${w.id}`);
    w.actions = w.actions.filter((x) => x !== a);
    return { deleted: aid };
  }

  interact(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const actionRef = read.name(b, 'action', true)!;
    const personaRef = read.name(b, 'persona', true)!;
    const actor = read.name(b, 'actor');
    if (actor !== undefined) this.entity(w, actor, 'actor');
    const a = [...DEFAULT_ACTIONS, ...w.actions].find((x) => x.id === actionRef || x.name === actionRef);
    if (!a) throw new ApiError(404, 'ACTION_NOT_FOUND', `no action ${actionRef} in world ${w.id}`);
    const e = this.persona(w, personaRef, 'body');
    const response = perceive(w.psyches.get(e.id)!, { vadDelta: a.effect }, actor ?? 'world', a.name);
    this.record(w, { type: 'interact', spaceId: e.spaceId, timestamp: nowS(), sourceEntity: actor ?? '', targetEntity: e.name, payload: { action: a.name }, appraisal: {}, stimulus: { vadDelta: { ...a.effect } } });
    return { action: a.name, persona: e.name, response, billed: true };
  }

  eventLog(tenantId: string, id: string, query: URLSearchParams): Json {
    const w = this.get(tenantId, id);
    const type = query.get('type');
    const limit = pageLimit(query.get('limit'), 50, 200);
    const matching = w.events.filter((e) => type === null || e.type === type);
    return { events: structuredClone(matching.slice(-limit)), total: matching.length };
  }

  putRelationship(tenantId: string, id: string, body: unknown): Json {
    const w = this.get(tenantId, id);
    const b = read.object(body);
    const actorName = read.name(b, 'actor', true)!;
    const personaName = read.name(b, 'persona', true)!;
    const type = read.name(b, 'type');
    const strength = read.number(b, 'strength');
    const trust = read.number(b, 'trust');
    for (const [k, v] of [['strength', strength], ['trust', trust]] as const) if (v !== undefined && (v < -1 || v > 1)) throw invalid(`${k} must be within [-1, 1]`);
    const actor = this.entity(w, actorName, 'actor');
    const persona = this.persona(w, personaName, 'body');
    let r = w.relationships.find((x) => x.sourceId === actor.id && x.targetId === persona.id);
    if (!r) { r = { id: randomUUID(), sourceId: actor.id, targetId: persona.id, type: 'stranger', strength: 0, trust: 0 }; w.relationships.push(r); }
    if (type !== undefined) r.type = type;
    if (strength !== undefined) r.strength = strength;
    if (trust !== undefined) r.trust = trust;
    return { relationship: relView(w, r) };
  }

  relationshipList(tenantId: string, id: string): Json {
    const w = this.get(tenantId, id);
    return { relationships: w.relationships.map((r) => relView(w, r)) };
  }

  removeRelationship(tenantId: string, id: string, rid: string): Json {
    const w = this.get(tenantId, id);
    const r = w.relationships.find((x) => x.id === rid);
    if (!r) throw new ApiError(404, 'RELATIONSHIP_NOT_FOUND', `no relationship ${rid} in world ${w.id}`);
    w.relationships = w.relationships.filter((x) => x !== r);
    return { deleted: rid };
  }
}

const worldView = (w: World) => ({ id: w.id, tenantId: w.tenantId, definition: structuredClone(w.definition), engineVersion: ENGINE_VERSION, createdAt: w.createdAt });
const personaView = (w: World, e: Entity) => ({ entityId: e.id, name: e.name, spaceId: e.spaceId, config: structuredClone(w.personaConfigs[e.name] ?? {}) });
const knowledgeOf = (w: World) => structuredClone(w.knowledge);
const knowledgeFrom = (k: unknown): Json => ({ facts: [], defaultVisibility: 'public', ...(isObject(k) ? keptKnowledge(k) : {}) });
function relView(w: World, r: Relationship) {
  const nameOf = (eid: string) => w.entities.find((e) => e.id === eid)?.name ?? eid;
  return { id: r.id, actor: nameOf(r.sourceId), persona: nameOf(r.targetId), type: r.type, strength: r.strength, trust: r.trust };
}

function checkEnvironment(env: Json, w = 'environment'): void {
  for (const k of ['atmosphere', 'lighting', 'weather', 'timeOfDay']) read.string(env, k, false, `${w}.${k}`);
  read.strings(env, 'soundscape', `${w}.soundscape`);
}

/** An event body (POST /worlds/{id}/events, POST /personas/{id}/perceive): `type` and the Event members. */
export function checkEvent(body: unknown): Json {
  const b = read.object(body);
  read.name(b, 'type', true);
  read.string(b, 'spaceId'); read.number(b, 'timestamp'); read.string(b, 'sourceEntity'); read.string(b, 'targetEntity');
  read.obj(b, 'payload');
  const ap = read.obj(b, 'appraisal');
  if (ap) for (const k of Object.keys(ap)) read.number(ap, k, true, `appraisal.${k}`);
  const st = read.obj(b, 'stimulus');
  if (st) {
    read.number(st, 'bodyBudgetDelta', false, 'stimulus.bodyBudgetDelta');
    read.vad(st, 'vadOverride', false, 'stimulus.vadOverride');
    const d = read.obj(st, 'vadDelta', false, 'stimulus.vadDelta');
    if (d) for (const k of ['V', 'A', 'D']) read.number(d, k, false, `stimulus.vadDelta.${k}`);
    read.numberMap(st, 'needsDelta', 'stimulus.needsDelta');
    for (const k of ['soulStageForce', 'catastropheAlphaDelta', 'dampingOverride']) read.number(st, k, false, `stimulus.${k}`);
  }
  return b;
}

export function stimulusOf(ev: Json) {
  const ap = ev.appraisal ?? {};
  const st = ev.stimulus ?? {};
  return { appraisal: ap, vadDelta: st.vadDelta, vadOverride: st.vadOverride, bodyBudgetDelta: st.bodyBudgetDelta, needsDelta: st.needsDelta, valence: typeof ev.payload?.text === 'string' ? textValence(ev.payload.text) : 0 };
}

function quietResponse(ps: Psyche, name: string): Json {
  // A tick's response: the state after time passed, with no new episode of note.
  const view = emotionView(ps);
  return {
    emotion: view.vad, discrete: view.discrete, socialUpdates: [],
    memoryEpisode: { id: randomUUID(), timestamp: nowS(), sourceEntity: name, context: 'time passed', appraisal: { goal_relevance: 0, goal_congruence: 0, expectedness: 1, controllability: 0.5, agency: 0, norm_compatibility: 0.5 }, emotionSnapshot: view.vad, intensity: view.discrete.intensity, importance: 0 },
    reflectionPrompt: { system: '', user: '' }, stageTransition: 'none', maskExposure: { integrity: ps.maskIntegrity, exposed: false, triggers: [] },
    goalChanges: { achieved: [], abandoned: [], activated: [] }, text: '',
  };
}

export function pageLimit(raw: string | null, dflt: number, max: number): number {
  if (raw === null) return dflt;
  if (!/^[0-9]{1,6}$/.test(raw) || Number(raw) < 1) throw invalid(`limit must be a whole number of at least 1 (over ${max} is read as ${max})`);
  return Math.min(max, Number(raw));
}

export const encodeCursor = (n: number) => Buffer.from(`after:${n}`).toString('base64url');
export function decodeCursor(c: string): number {
  const m = /^after:(\d{1,12})$/.exec(Buffer.from(c, 'base64url').toString());
  if (!m || Buffer.from(`after:${m[1]}`).toString('base64url') !== c) throw invalid('cursor is not one this service gave');
  return Number(m[1]);
}
