// Faults of progression (PROG-1..5): counts, triggers, phase history, phase changes.
import type { Fault } from '../faults.ts';
import { type Json, is, isObject, onBody, onResult, resultOf, triggersOf } from './helpers.ts';

const eachProgression = (result: Json, change: (p: Json) => void) => { if (result.progression && typeof result.progression === 'object') change(result.progression); };

export const FAULTS: Fault[] = [
  {
    id: 'event-counts-lost', areas: ['progression'], expected: ['PROG-1'],
    description: 'query answers eventCounts empty',
    response: onResult(['queryWorld'], (r) => eachProgression(r, (p) => { p.eventCounts = {}; })),
  },
  {
    id: 'snapshot-event-counts-stale', areas: ['progression'], only: ['PROG-1'], expected: ['PROG-1'],
    description: 'Progression state "in query and snapshot results": the snapshot answers eventCounts empty (query keeps them)',
    response: onResult(['getWorldSnapshot'], (r) => eachProgression(r, (p) => { p.eventCounts = {}; })),
  },
  {
    id: 'model-event-type-trimmed', areas: ['model'], expected: ['PROG-1'],
    description: 'a dispatched event type is trimmed of spaces before it is counted ("cf-Thunder " counts as "cf-Thunder")',
    request: (req) => {
      const b = req.body as Json;
      if (is(req, 'dispatchEvent') && isObject(b) && typeof b.type === 'string' && b.type.trim() !== '') b.type = b.type.trim();
    },
  },
  {
    id: 'triggers-never-fire', areas: ['progression'], expected: ['PROG-2'],
    description: 'the triggers of a world definition are dropped at creation',
    request: onBody(['createWorld'], (b) => { if (b.definition?.progression) b.definition.progression.triggers = []; }),
  },
  {
    id: 'trigger-fires-early', areas: ['progression'], expected: ['PROG-2'],
    description: 'triggers fire one event before their threshold',
    request: onBody(['createWorld'], (b) => { for (const t of triggersOf(b)) if (t.condition?.threshold > 1) t.condition.threshold -= 1; }),
  },
  {
    id: 'context-phase-stale', areas: ['progression'], only: ['PROG-2'], expected: ['PROG-2'],
    description: "World context currentPhase: the context answers the world's initialPhase whatever triggers fired",
    response: async (res, req, ctx) => {
      if (is(req, 'createWorld')) { const r = resultOf(res); const p = (req.body as Json)?.definition?.progression?.initialPhase; if (r?.worldId && typeof p === 'string') ctx.state.set(`initial ${r.worldId}`, p); return; }
      const initial = ctx.state.get(`initial ${req.params.id}`);
      const r = is(req, 'worldContext') && initial ? resultOf(res) : undefined;
      if (r && typeof r.currentPhase === 'string') r.currentPhase = initial;
    },
  },
  {
    id: 'phase-history-lost', areas: ['progression'], expected: ['PROG-3'],
    description: 'query answers phaseHistory empty',
    response: onResult(['queryWorld'], (r) => eachProgression(r, (p) => { p.phaseHistory = []; })),
  },
  {
    id: 'model-phase-history-first-firing-only', areas: ['model'], expected: ['PROG-3'],
    description: 'progression.phaseHistory (query and snapshot) keeps only the first entry with a triggerId: later firings are not recorded there',
    response: onResult(['queryWorld', 'getWorldSnapshot'], (r) => eachProgression(r, (p) => {
      if (!Array.isArray(p.phaseHistory)) return;
      const first = p.phaseHistory.findIndex((h: Json) => typeof h?.triggerId === 'string');
      if (first >= 0) p.phaseHistory = p.phaseHistory.filter((h: Json, i: number) => i <= first || typeof h?.triggerId !== 'string');
    })),
  },
  {
    id: 'phase-change-unreported', areas: ['progression'], expected: ['PROG-4'],
    description: 'tick and event results lose phaseChanged',
    response: onResult(['tickWorld', 'dispatchEvent'], (r) => { delete r.phaseChanged; }),
  },
  {
    id: 'tick-loses-phase-changed', areas: ['progression'], expected: ['PROG-4'],
    description: 'tick results lose phaseChanged (event results keep it)',
    response: onResult(['tickWorld'], (r) => { delete r.phaseChanged; }),
  },
  {
    id: 'phase-change-never-reported', areas: ['progression'], only: ['PROG-4'], expected: ['PROG-4'],
    description: 'triggers fire at the event; an event with a future timestamp is delivered at once; no result (event, chat or tick) carries phaseChanged',
    request: (req) => { if (is(req, 'dispatchEvent') && isObject(req.body)) delete (req.body as Json).timestamp; },
    response: onResult(['tickWorld', 'dispatchEvent', 'chat'], (r) => { delete r.phaseChanged; }),
  },
  {
    id: 'one-shot-fires-twice', areas: ['progression'], expected: ['PROG-5'],
    description: 'oneShot is turned to false at creation: the trigger fires again',
    request: onBody(['createWorld'], (b) => { for (const t of triggersOf(b)) t.oneShot = false; }),
  },
];
