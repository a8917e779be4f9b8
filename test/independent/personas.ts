// Standalone personas of the independent implementation: in memory, per tenant, soft-deleted in place.
import { randomUUID } from 'node:crypto';
import { ApiError, invalid, read } from './errors.ts';
import { advance, newPsyche, perceive, restoreSnapshot, setEmotion, snapshotOf, stateView, type Psyche } from './psyche.ts';
import { check, STANDALONE_SNAPSHOT } from './shapes.ts';
import { checkEvent, decodeCursor, encodeCursor, keptAppraisal, keptStimulus, pageLimit, stimulusOf } from './worlds.ts';

type Json = Record<string, any>;
interface Persona { id: string; tenantId: string; seq: number; createdAt: number; updatedAt: number; deletedAt?: number; config: Json; psyche: Psyche }

const nowS = () => Math.floor(Date.now() / 1000);
let seq = 0;

export class Personas {
  private byId = new Map<string, Persona>();

  private get(tenantId: string, id: string, deletedToo = false): Persona {
    const p = this.byId.get(id);
    if (!p || p.tenantId !== tenantId) throw new ApiError(404, 'PERSONA_NOT_FOUND', `persona ${id} not found`);
    if (p.deletedAt !== undefined && !deletedToo) throw new ApiError(410, 'PERSONA_NOT_FOUND', `persona ${id} was deleted`);
    return p;
  }

  create(tenantId: string, body: unknown): Json {
    const config = read.obj(read.object(body), 'config') ?? {};
    const p: Persona = { id: randomUUID(), tenantId, seq: ++seq, createdAt: nowS(), updatedAt: nowS(), config: structuredClone(config), psyche: newPsyche(config) };
    this.byId.set(p.id, p);
    return { personaId: p.id, createdAt: p.createdAt };
  }

  /** Oldest first, `limit` (default 10, over 50 read as 50) and an opaque `cursor`. */
  list(tenantId: string, query: URLSearchParams): Json {
    const limit = pageLimit(query.get('limit'), 10, 50);
    const c = query.get('cursor');
    const after = c === null ? 0 : decodeCursor(c);
    const all = [...this.byId.values()].filter((p) => p.tenantId === tenantId && p.deletedAt === undefined && p.seq > after).sort((a, b) => a.seq - b.seq);
    const page = all.slice(0, limit);
    return { personas: page.map(view), nextCursor: all.length > limit ? encodeCursor(page[page.length - 1].seq) : null };
  }

  read(tenantId: string, id: string): Json {
    return { persona: view(this.get(tenantId, id)) };
  }

  /** `config` members replace those of the same name; other members of the body are ignored. */
  patch(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const config = read.obj(read.object(body), 'config');
    if (config) { Object.assign(p.config, structuredClone(config)); p.updatedAt = nowS(); }
    return { ok: true };
  }

  remove(tenantId: string, id: string): Json {
    const p = this.get(tenantId, id);
    p.deletedAt = nowS();
    return { deleted: true, id: p.id };
  }

  restore(tenantId: string, id: string): Json {
    const p = this.get(tenantId, id, true);
    if (p.deletedAt === undefined) throw new ApiError(409, 'PERSONA_NOT_DELETED', `persona ${id} is not deleted`);
    p.deletedAt = undefined;
    return { restored: true, persona: view(p) };
  }

  perceive(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const ev = checkEvent(body);
    const response = perceive(p.psyche, stimulusOf(ev), ev.sourceEntity ?? 'world', ev.type);
    // A pending event is open, its appraisal and stimulus are not.
    const pending: Record<string, any> = { ...structuredClone(ev), receivedAt: nowS() };
    if (ev.appraisal !== undefined) pending.appraisal = keptAppraisal(ev.appraisal);
    if (ev.stimulus !== undefined) pending.stimulus = keptStimulus(ev.stimulus);
    p.psyche.pending.push(pending);
    if (p.psyche.pending.length > 50) p.psyche.pending.shift();
    return { response };
  }

  tick(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const seconds = read.number(read.object(body), 'seconds', true)!;
    if (seconds < 0 || seconds > 31_536_000) throw invalid('seconds must be within [0, 31536000]');
    advance(p.psyche, seconds);
    // What was perceived since the last tick is handed over once.
    const pendingEvents = p.psyche.pending;
    p.psyche.pending = [];
    return { pendingEvents, mood: { ...p.psyche.mood }, bodyBudget: p.psyche.bodyBudget };
  }

  emotion(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const v = read.vad(read.object(body), 'vad') ?? {};
    setEmotion(p.psyche, v);
    return { ok: true };
  }

  annotate(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const text = read.string(read.object(body), 'text', true)!;
    if (text.length > 4000) throw invalid('text must be at most 4000 characters');
    p.psyche.annotations.push(text);
    return { queued: p.psyche.annotations.length };
  }

  nextResponse(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const text = read.string(read.object(body), 'text', true)!;
    if (text.length > 4000) throw invalid('text must be at most 4000 characters');
    p.psyche.nextResponse = text;
    return { forced: true };
  }

  state(tenantId: string, id: string): Json {
    return stateView(this.get(tenantId, id).psyche);
  }

  /** The system prompt; the annotations queued since the last prompt are appended, in order, once. */
  promptContext(tenantId: string, id: string): Json {
    const p = this.get(tenantId, id);
    const ps = p.psyche;
    const name = typeof p.config.identity?.name === 'string' ? p.config.identity.name : 'a persona';
    const st = stateView(ps);
    const notes = ps.annotations;
    ps.annotations = [];
    const prompt = [`You are ${name}.`, `You feel ${st.emotion.discrete.primary} (V ${ps.emotion.V}, A ${ps.emotion.A}, D ${ps.emotion.D}).`, ...notes].join('\n');
    return { systemPrompt: prompt, annotations: notes };
  }

  snapshot(tenantId: string, id: string): Json {
    return snapshotOf(this.get(tenantId, id).psyche);
  }

  importSnapshot(tenantId: string, id: string, body: unknown): Json {
    const p = this.get(tenantId, id);
    const snap = read.obj(read.object(body), 'snapshot', true)!;
    // This implementation requires the mood (SPEC leaves required members unshown); the rest is checked
    // as far as SPEC types the standalone snapshot (state, somatic, narrative, tmt… are open objects).
    read.vad(snap, 'mood', true, 'snapshot.mood');
    check(snap, STANDALONE_SNAPSHOT, 'snapshot');
    p.psyche = restoreSnapshot(snap, p.psyche, true);
    return { ok: true };
  }
}

const view = (p: Persona) => ({ id: p.id, tenantId: p.tenantId, createdAt: p.createdAt, updatedAt: p.updatedAt, config: structuredClone(p.config) });
