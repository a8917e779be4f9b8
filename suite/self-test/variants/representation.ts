// Legal variants of how values are written: UUID ids (mapped both ways in bodies, paths and the ledger),
// timestamps in seconds, extra envelope members and headers.
import type { Variant } from '../variants.ts';
import { randomUUID } from 'node:crypto';
import { type FaultContext, type FaultHooks, type FaultResponse, type Json, applied, is2xx, isDocument, isObject, memory, resultOf } from './helpers.ts';

/** Rebuilds every value of a JSON tree: `leaf` sees each member (with its key) and each array item. */
function rewrite(value: unknown, leaf: (v: unknown, key: string | undefined) => unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, leaf, key));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v, leaf, k)]));
  return leaf(value, key);
}
const REFERENCE_ID = /\b(?:wld|per)_[0-9a-f]{20}\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\b/g;
function uuidHooks(): FaultHooks {
  const maps = (ctx: FaultContext) => ({ out: memory<string, string>(ctx, 'uuid-of'), back: memory<string, string>(ctx, 'id-of') });
  const toUuid = (ctx: FaultContext, id: string) => {
    const { out, back } = maps(ctx);
    if (!out.has(id)) { const u = randomUUID(); out.set(id, u); back.set(u, id); }
    return out.get(id)!;
  };
  const inward = (ctx: FaultContext, s: string) => s.replace(UUID, (u) => maps(ctx).back.get(u) ?? u);
  return {
    request(req, ctx) {
      if (isDocument(req)) return;
      req.path = req.path.split('/').map((seg) => { try { return encodeURIComponent(inward(ctx, decodeURIComponent(seg))); } catch { return seg; } }).join('/');
      req.body = rewrite(req.body, (v) => (typeof v === 'string' ? inward(ctx, v) : v));
    },
    response(res, req, ctx) {
      if (isDocument(req) || res.body === undefined) return;
      let n = 0;
      res.body = rewrite(res.body, (v) => (typeof v === 'string' ? v.replace(REFERENCE_ID, (id) => { n += 1; return toUuid(ctx, id); }) : v));
      for (const [k, v] of Object.entries(res.headers)) res.headers[k] = v.replace(REFERENCE_ID, (id) => toUuid(ctx, id));
      if (n) applied(ctx, n);
    },
  };
}
const TIMESTAMPS = new Set(['createdAt', 'timestamp', 'lastUpdated', 'lastInteraction', 'enteredAt', 'exitedAt', 'lastReminderTime', 'started_at']);
function secondsHooks(): FaultHooks {
  // A value the proxy sent out in seconds comes back as the exact milliseconds it was made from.
  const sent = (ctx: FaultContext) => memory<number, number>(ctx, 'ms-of');
  return {
    request(req, ctx) {
      if (isDocument(req)) return;
      req.body = rewrite(req.body, (v, k) => (typeof v === 'number' && k && TIMESTAMPS.has(k) ? sent(ctx).get(v) ?? v * 1000 : v));
    },
    response(res, req, ctx) {
      if (isDocument(req) || !is2xx(res)) return;
      res.body = rewrite(res.body, (v, k) => {
        if (typeof v !== 'number' || !k || !TIMESTAMPS.has(k)) return v;
        const s = v / 1000;
        sent(ctx).set(s, v);
        applied(ctx);
        return s;
      });
    },
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'uuid-ids', areas: ['worlds', 'states', 'simulation', 'personas', 'isolation', 'model'], allowedWarnings: [],
    description: 'world and persona ids are UUIDs (the reference\'s ids mapped both ways: bodies, paths, headers)',
    gap: 'Resources: `id` is a string; its form is not shown.',
    ...uuidHooks(),
  },
  {
    id: 'timestamps-in-seconds', areas: ['worlds', 'simulation', 'personas', 'progression', 'model'], allowedWarnings: [],
    description: 'timestamps (createdAt, timestamp, lastUpdated, enteredAt, exitedAt, …) in seconds since the epoch, not milliseconds',
    gap: 'Resources: "Timestamps are numbers. Unit of timestamps: not shown."',
    ...secondsHooks(),
  },
  {
    id: 'envelope-extras', areas: ['worlds', 'errors', 'personas', 'model'], allowedWarnings: [],
    description: 'every answer carries an x-request-id header, and every success envelope a requestId member beside result',
    gap: 'What the service does: "Every successful response is wrapped in an object with a `result` member" (other members not excluded); headers other than Retry-After: not shown.',
    response: (res: FaultResponse, req, ctx) => {
      const id = randomUUID();
      res.headers['x-request-id'] = id;
      if (!isDocument(req) && resultOf(res)) { (res.body as Json).requestId = id; applied(ctx); }
    },
  },
];
