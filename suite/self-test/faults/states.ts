// Faults of soft-delete and restore (STATE-1..5), a delete that does nothing behind an idempotent restore
// included.
import type { Fault } from '../faults.ts';
import { alsoSend, forwardTo, idSet, is, json, noop, resultOf, trackDeletes } from './helpers.ts';
import { idempotentRestore } from '../variants/sentences.ts';

export const FAULTS: Fault[] = [
  {
    id: 'world-delete-noop', areas: ['states'], expected: ['STATE-1', 'STATE-2'],
    description: 'DELETE /worlds/{id} answers ok and does nothing',
    answer: noop(['deleteWorld']),
  },
  {
    id: 'world-restore-noop', areas: ['states'], expected: ['STATE-1'],
    description: 'POST /worlds/{id}/restore answers ok and does nothing',
    answer: noop(['restoreWorld']),
  },
  {
    id: 'restored-world-views-missing', areas: ['states'], only: ['STATE-1'], expected: ['STATE-1'],
    description: 'a restored world is back in GET and the list, but query, context and snapshot still answer WORLD_NOT_FOUND',
    answer: (req, ctx) => (req.params.id && is(req, 'queryWorld', 'worldContext', 'getWorldSnapshot') && idSet(ctx, 'restored').has(req.params.id)
      ? json(404, { error: { code: 'WORLD_NOT_FOUND', message: 'fault: world not found' } }) : undefined),
    response: trackDeletes,
  },
  {
    id: 'world-delete-noop-restore-idempotent', areas: ['states'], expected: ['STATE-1'],
    description: 'DELETE /worlds/{id} answers ok and does nothing; a restore of a live world answers the world (idempotent)',
    async answer(req, ctx) {
      if (is(req, 'deleteWorld')) return json(200, { result: { ok: true } });
      return idempotentRestore().answer!(req, ctx);
    },
  },
  {
    id: 'deleted-world-still-queryable', areas: ['states'], only: ['STATE-2'], expected: ['STATE-2'],
    description: 'a soft-deleted world is hidden from GET and the list, but query, context and snapshot still serve it',
    async answer(req, ctx) {
      const id = req.params.id;
      if (!id || !is(req, 'queryWorld', 'worldContext', 'getWorldSnapshot') || !idSet(ctx, 'deleted').has(id)) return undefined;
      const world = `/worlds/${encodeURIComponent(id)}`;
      await forwardTo(ctx, req, 'POST', `${world}/restore`);
      try { return await ctx.forward(req); } finally { await forwardTo(ctx, req, 'DELETE', world); }
    },
    response: trackDeletes,
  },
  {
    id: 'persona-delete-noop', areas: ['states'], expected: ['STATE-3', 'STATE-4'],
    description: 'DELETE /personas/{id} answers ok and does nothing',
    answer: noop(['deletePersona']),
  },
  {
    id: 'persona-restore-noop', areas: ['states'], expected: ['STATE-3'],
    description: 'POST /personas/{id}/restore answers ok and does nothing',
    answer: noop(['restorePersona']),
  },
  {
    id: 'persona-delete-noop-restore-idempotent', areas: ['states'], expected: ['STATE-3'],
    description: 'DELETE /personas/{id} answers ok and does nothing; a restore of a live persona answers the persona (idempotent)',
    async answer(req, ctx) {
      if (is(req, 'deletePersona')) return json(200, { result: { ok: true } });
      return idempotentRestore().answer!(req, ctx);
    },
  },
  {
    id: 'deleted-persona-state-readable', areas: ['states'], only: ['STATE-4'], expected: ['STATE-4'],
    description: 'a soft-deleted persona is hidden from GET and the list, but its state and snapshot are still served',
    async answer(req, ctx) {
      const id = req.params.id;
      if (!id || !is(req, 'getPersonaState', 'getPersonaSnapshot') || !idSet(ctx, 'deleted').has(id)) return undefined;
      const persona = `/personas/${encodeURIComponent(id)}`;
      await forwardTo(ctx, req, 'POST', `${persona}/restore`);
      try { return await ctx.forward(req); } finally { await forwardTo(ctx, req, 'DELETE', persona); }
    },
    response: trackDeletes,
  },
  {
    id: 'world-restore-resets-description', areas: ['states'], only: ['STATE-5'], expected: ['STATE-5'],
    description: "a restored world comes back with its definition's identity.description reset to ''",
    async response(res, req, ctx) {
      if (!is(req, 'restoreWorld') || !resultOf(res)) return;
      await alsoSend(ctx, req, 'PATCH', `/worlds/${encodeURIComponent(req.params.id)}`, { definition: { identity: { description: '' } } });
    },
  },
  {
    id: 'persona-restore-resets-self-concept', areas: ['states'], only: ['STATE-5'], expected: ['STATE-5'],
    description: "a restored persona comes back with its selfConcept reset to ''",
    async response(res, req, ctx) {
      if (!is(req, 'restorePersona') || !resultOf(res)) return;
      const path = `/personas/${encodeURIComponent(req.params.id)}/snapshot`;
      const snapshot = resultOf(await alsoSend(ctx, req, 'GET', path));
      if (snapshot) await alsoSend(ctx, req, 'PUT', path, { snapshot: { ...snapshot, selfConcept: '' } });
    },
  },
];
