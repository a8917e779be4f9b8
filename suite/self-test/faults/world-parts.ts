// Faults of the world parts (PART-1..6, SHOULD: the shapes are not shown).
import type { Fault } from '../faults.ts';
import { type Json, is, isObject, noop, onResult } from './helpers.ts';

export const FAULTS: Fault[] = [
  {
    id: 'world-persona-remove-noop', areas: ['world-parts'], expected: ['PART-1'],
    description: 'DELETE /worlds/{id}/personas/{pid} answers ok and does nothing',
    answer: noop(['removeWorldPersona']),
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
    id: 'custom-action-delete-noop', areas: ['world-parts'], expected: ['PART-2'],
    description: 'DELETE /worlds/{id}/actions/{aid} answers ok and does nothing',
    answer: noop(['deleteAction']),
  },
  {
    id: 'relationship-delete-noop', areas: ['world-parts'], expected: ['PART-3'],
    description: 'DELETE /worlds/{id}/relationships/{rid} answers ok and does nothing',
    answer: noop(['deleteRelationship']),
  },
  {
    id: 'relationship-direction-reversed', areas: ['world-parts'], expected: ['PART-3'],
    description: 'GET /worlds/{id}/relationships lists every relationship the wrong way round (source and target swapped)',
    response: onResult(['listRelationships'], (r) => {
      for (const rec of Array.isArray(r.relationships) ? r.relationships : []) [rec.source, rec.target] = [rec.target, rec.source];
    }),
  },
  {
    id: 'event-log-empty', areas: ['world-parts'], expected: ['PART-4'],
    description: 'GET /worlds/{id}/events answers an empty log',
    response: onResult(['listWorldEvents'], (r) => { r.events = []; }),
  },
  {
    id: 'interact-noop', areas: ['world-parts'], expected: ['PART-5'],
    description: 'POST /worlds/{id}/interact answers ok and executes nothing',
    answer: noop(['interact']),
  },
  {
    id: 'time-jump-noop', areas: ['world-parts'], expected: ['PART-6'],
    description: 'POST /worlds/{id}/time-jump answers ok and does not advance time',
    answer: noop(['timeJump']),
  },
];
