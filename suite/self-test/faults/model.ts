// Faults the model area (scenarios/model.test.ts) proves alone (MODEL-1..3), and its control. The model's
// other faults (named model-*, written after the model, one per sentence it covers: docs/finding-power.md)
// are in the files of the requirements they fail.
import type { Fault } from '../faults.ts';
import { type Json, is, isObject, made, onResult, remember, responses, resultOf } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'model-list-restamps-patched', areas: ['model'], expected: ['MODEL-1'],
    description: 'GET /worlds shows a world changed by PATCH with the createdAt of its change (its updatedAt, a millisecond later than created); GET /worlds/{id} and the snapshot keep the first',
    response: responses(
      (res, req, ctx) => {
        if (is(req, 'updateWorld') && resultOf(res) && req.params.id) made(ctx, 'worlds').add(`patched:${req.params.id}`);
      },
      onResult(['listWorlds'], (r, _req, ctx) => {
        for (const w of Array.isArray(r.worlds) ? r.worlds : []) {
          if (typeof w?.createdAt === 'number' && made(ctx, 'worlds').has(`patched:${w.id}`)) w.createdAt += 1;
        }
      }),
    ),
  },
  {
    id: 'model-tick-rounds-seconds', areas: ['model'], expected: ['MODEL-2'],
    description: 'a world tick rounds its seconds to the nearest whole second (1.5 s advances 2 s)',
    request: (req) => {
      const b = req.body as Json;
      if (is(req, 'tickWorld') && isObject(b) && typeof b.seconds === 'number' && !Number.isInteger(b.seconds)) b.seconds = Math.max(1, Math.round(b.seconds));
    },
  },
  {
    id: 'model-import-drops-last-space', areas: ['model'], expected: ['MODEL-3'],
    description: 'PUT /worlds/{id}/snapshot drops the last space of the snapshot when it holds more than one',
    request: (req) => {
      const spaces = (req.body as Json)?.snapshot?.spaces;
      if (is(req, 'putWorldSnapshot') && Array.isArray(spaces) && spaces.length > 1) spaces.pop();
    },
  },
  {
    id: 'model-import-resets-trust', areas: ['model'], expected: ['MODEL-3'],
    description: "PUT /worlds/{id}/snapshot imports each entity's relationships with trust reset to 0.5",
    request: (req) => {
      const entities = (req.body as Json)?.snapshot?.entities;
      if (!is(req, 'putWorldSnapshot') || !Array.isArray(entities)) return;
      for (const e of entities) for (const r of Array.isArray(e?.relationships) ? e.relationships : []) if (isObject(r?.relationship)) r.relationship.trust = 0.5;
    },
  },
  {
    id: 'model-control-pass-through', areas: ['model'], expected: [],
    description: 'control: the model area through a proxy that remembers ids and changes nothing (must pass)',
    response: remember,
  },
];
