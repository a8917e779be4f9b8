// Legal variants of the members and values SPEC.md leaves open beside those it defines: the checks of
// the world context, of simulated time and of the members the SPEC contract requires must pass them.
import type { Variant } from '../variants.ts';
import { applied, is2xx, isDocument, isObject, onDocument, onResult, responses, type Json } from '../hooks.ts';

/** Every `elapsedTime` number of a JSON value, changed by `f` (in place). */
const scaleElapsed = (value: unknown, f: (n: number) => number): number => {
  let n = 0;
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'elapsedTime' && typeof x === 'number') { v[k] = f(x); n++; } else walk(x);
      }
    }
  };
  walk(value);
  return n;
};

/** The spaces of a result: query's `spaces`, the snapshot's `spaces`, the context's `whereAmI`. */
const spacesOf = (r: Json): Json[] => [...(Array.isArray(r.spaces) ? r.spaces : []), r.whereAmI].filter(isObject);

export const VARIANTS: Variant[] = [
  {
    id: 'snapshot-exported-at', areas: ['isolation', 'simulation'], allowedWarnings: [],
    description: 'a world snapshot carries exportedAt, the time of its export: it changes on every read, nothing else does',
    gap: 'World snapshot: "open" (it may hold members beyond those listed); what else an export holds is not shown.',
    response: onResult(['getWorldSnapshot'], (r, _req, ctx) => { r.exportedAt = Date.now() + Math.random(); applied(ctx); }),
  },
  {
    id: 'who-is-here-includes-me', areas: ['simulation'], allowedWarnings: [],
    description: 'the world context lists whoAmI in whoIsHere too (every entity of the space)',
    gap: 'World context: `whoIsHere` Entity[]; whether the entity itself is "here" is not shown.',
    response: onResult(['worldContext'], (r, _req, ctx) => {
      if (!isObject(r.whoAmI) || !Array.isArray(r.whoIsHere) || r.whoIsHere.some((e: Json) => e?.id === r.whoAmI.id)) return;
      r.whoIsHere.unshift(structuredClone(r.whoAmI));
      applied(ctx);
    }),
  },
  {
    id: 'elapsed-time-in-milliseconds', areas: ['simulation', 'world-parts'], allowedWarnings: ['SIM-14'],
    description: 'progression.elapsedTime (and a tick result\'s elapsedTime) in milliseconds: a tick of 30 s advances it by 30000',
    gap: 'Progression state: `elapsedTime` (number); its unit is not shown ("Bounds of numeric fields … not shown").',
    request: (req) => { if (!isDocument(req)) scaleElapsed(req.body, (n) => n / 1000); },
    response: (res, req, ctx) => { if (!isDocument(req) && is2xx(res)) applied(ctx, scaleElapsed(res.body, (n) => n * 1000)); },
  },
  {
    id: 'spaces-id-and-name-only', areas: ['simulation'], allowedWarnings: [],
    description: 'spaces (query, context whereAmI, snapshot) are {id, name}: no type nor capacity, as a snapshot import gives them',
    gap: 'Space: `id`, `name`, `type`, `capacity`; PUT /worlds/{id}/snapshot gives spaces as {`id`, `name`}; which members are always there is not shown.',
    response: responses(
      onResult(['queryWorld', 'worldContext', 'getWorldSnapshot'], (r, _req, ctx) => {
        for (const s of spacesOf(r)) if ('type' in s || 'capacity' in s) { delete s.type; delete s.capacity; applied(ctx); }
      }),
      onDocument((doc) => {
        const space = doc.components?.schemas?.Space;
        if (Array.isArray(space?.required)) space.required = space.required.filter((m: string) => m !== 'type' && m !== 'capacity');
      }),
    ),
  },
];
