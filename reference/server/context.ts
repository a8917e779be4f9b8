// What every handler works with: the store, the clock, and the helpers that load and save a
// world or persona of the caller's tenant (another tenant's is answered exactly as a missing one).
import { randomBytes } from 'node:crypto';
import type { Store, StoredDoc } from '../store/index.ts';
import { thaw } from '../store/shared.ts';
import { fail } from '../engine/world/fail.ts';
import type { Outcome, PersonaDoc, WorldDoc } from '../engine/world/index.ts';
import { PLAN_QUOTAS, type Quotas } from '../platform/index.ts';
import { exportFitsOrFail, LOG_KEEP_BYTES } from './limits.ts';
import { nextTurn } from '../platform/json-body.ts';

export interface ServerContext {
  store: Store;
  now: () => number;
  /** The quotas of the key making the request (platform/quotas.ts); the enterprise plan's when absent (a caller without HTTP, e.g. a benchmark). */
  quotas?: Quotas;
}

const quotas = (ctx: ServerContext): Quotas => ctx.quotas ?? PLAN_QUOTAS.enterprise;

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Refuses a create or restore when the tenant already holds its quota of that kind (or its bytes with `adding` more). */
export function roomForOrFail(ctx: ServerContext, tenantId: string, kind: 'world' | 'persona', adding = 0): void {
  const usage = ctx.store.usage(tenantId);
  const [held, limit] = kind === 'world' ? [usage.worlds, quotas(ctx).worlds] : [usage.personas, quotas(ctx).personas];
  if (held >= limit) {
    throw fail('QUOTA_EXCEEDED', `the tenant holds ${held} ${kind}s, its quota of live ${kind}s is ${limit}: delete one first`);
  }
  if (usage.bytes + adding > quotas(ctx).storedBytes || usage.bytes >= quotas(ctx).storedBytes) throw bytesOver(ctx, usage.bytes + adding);
}

const bytesOver = (ctx: ServerContext, bytes: number) => fail('QUOTA_EXCEEDED',
  `the tenant would hold ${MB(bytes)}, its quota of stored bytes is ${MB(quotas(ctx).storedBytes)} (soft-deleted worlds and personas still count); nothing was stored`);

export function entitiesWithinOrFail(ctx: ServerContext, count: number, before = 0): void {
  if (count > before && count > quotas(ctx).entitiesPerWorld) {
    throw fail('QUOTA_EXCEEDED', `a world may hold ${quotas(ctx).entitiesPerWorld} entities under this key's quota, this would make ${count}; nothing was stored`);
  }
}

/**
 * Runs a write in one transaction and refuses it (undoing all of it) when it made the tenant hold
 * more than its stored-bytes quota; `after` checks the record written, inside the same transaction.
 */
export function withinQuota<R>(ctx: ServerContext, tenantId: string, write: () => R): R {
  return ctx.store.transaction(() => {
    const before = ctx.store.usage(tenantId).bytes;
    const result = write();
    const after = ctx.store.usage(tenantId).bytes;
    if (after > before && after > quotas(ctx).storedBytes) throw bytesOver(ctx, after);
    return result;
  });
}

/** Inserts a new world or persona within the tenant's quotas, its export importable. */
export function insertWithinQuota<T extends WorldDoc | PersonaDoc>(ctx: ServerContext, tenantId: string, kind: 'world' | 'persona', id: string, createdAt: number, body: T): StoredDoc<T> {
  roomForOrFail(ctx, tenantId, kind);
  return withinQuota(ctx, tenantId, () => {
    const doc = ctx.store.insert(kind, tenantId, id, createdAt, body);
    exportFitsOrFail(kind, id, doc.body, doc.bytes);
    return doc;
  });
}

/** Longest run of engine work between two returns to the event loop in a sliced advance. */
export const SLICE_MS = 10;

/**
 * One validated request. Members are typed loosely on purpose: Fastify has already checked them
 * against the operation's schemas, and the engine functions they are passed to are typed.
 */
export interface Call {
  tenantId: string;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export type Handler = (ctx: ServerContext, call: Call) => unknown;

export const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;

export function loadWorld(ctx: ServerContext, tenantId: string, id: string): StoredDoc<WorldDoc> {
  const doc = ctx.store.get<WorldDoc>('world', tenantId, id);
  if (!doc) throw fail('WORLD_NOT_FOUND', `world '${id}' does not exist`);
  return doc;
}

/** A world for reading only: shared and frozen, no copy (any change throws). */
export function readWorld(ctx: ServerContext, tenantId: string, id: string): StoredDoc<Readonly<WorldDoc>> {
  const doc = ctx.store.read<WorldDoc>('world', tenantId, id);
  if (!doc) throw fail('WORLD_NOT_FOUND', `world '${id}' does not exist`);
  return doc;
}

export function readPersona(ctx: ServerContext, tenantId: string, id: string): StoredDoc<Readonly<PersonaDoc>> {
  const doc = ctx.store.read<PersonaDoc>('persona', tenantId, id);
  if (!doc) throw fail('PERSONA_NOT_FOUND', `persona '${id}' does not exist`);
  return doc;
}

export function loadPersona(ctx: ServerContext, tenantId: string, id: string): StoredDoc<PersonaDoc> {
  const doc = ctx.store.get<PersonaDoc>('persona', tenantId, id);
  if (!doc) throw fail('PERSONA_NOT_FOUND', `persona '${id}' does not exist`);
  return doc;
}

/** Read-modify-write of one world in one transaction. */
export function changeWorld<R>(ctx: ServerContext, tenantId: string, id: string, fn: (world: WorldDoc) => R): R {
  return simulateWorld(ctx, tenantId, id, (world) => ({ result: fn(world), logged: [] }));
}

/**
 * A change that also writes events to the world's log, in the same transaction. The world is a
 * store draft (see Store.edit): an array item is replaced, never modified.
 */
export function simulateWorld<R>(ctx: ServerContext, tenantId: string, id: string, fn: (world: WorldDoc) => Outcome<R>): R {
  return withinQuota(ctx, tenantId, () => {
    const edited = ctx.store.edit<WorldDoc, Outcome<R>>('world', tenantId, id, ctx.now(), (world) => {
      const before = world.entities.length;
      const outcome = fn(world);
      entitiesWithinOrFail(ctx, world.entities.length, before);
      return outcome;
    });
    if (!edited) throw fail('WORLD_NOT_FOUND', `world '${id}' does not exist`);
    if (edited.bytes > edited.previousBytes) exportFitsOrFail('world', id, ctx.store.read<WorldDoc>('world', tenantId, id)!.body, edited.bytes);
    const { result, logged } = edited.result;
    if (logged.length) ctx.store.appendLog('world', tenantId, id, logged, { keepBytes: LOG_KEEP_BYTES });
    return result;
  });
}

export function changePersona<R>(ctx: ServerContext, tenantId: string, id: string, fn: (persona: PersonaDoc) => R): R {
  return withinQuota(ctx, tenantId, () => {
    const edited = ctx.store.edit<PersonaDoc, R>('persona', tenantId, id, ctx.now(), fn);
    if (!edited) throw fail('PERSONA_NOT_FOUND', `persona '${id}' does not exist`);
    if (edited.bytes > edited.previousBytes) exportFitsOrFail('persona', id, ctx.store.read<PersonaDoc>('persona', tenantId, id)!.body, edited.bytes);
    return edited.result;
  });
}

/**
 * simulateWorld for work that may be long (a tick or time-jump of a large world): the generator runs
 * on a writable copy of the world, giving the event loop back every SLICE_MS so that other requests
 * are answered meanwhile, then its result is committed in one transaction. The caller holds the
 * world's write queue (WriteQueues), so nothing else changed the world in between.
 */
export async function simulateWorldInSlices<R>(
  ctx: ServerContext, tenantId: string, id: string, run: (world: WorldDoc) => Generator<void, Outcome<R>>,
): Promise<R> {
  const doc = readWorld(ctx, tenantId, id);
  const draft = thaw(doc.body) as WorldDoc;
  const steps = run(draft);
  let sliceStart = performance.now();
  let next = steps.next();
  while (!next.done) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    next = steps.next();
  }
  const outcome = next.value;
  return simulateWorld(ctx, tenantId, id, (world) => {
    Object.assign(world, draft);
    return outcome;
  });
}
