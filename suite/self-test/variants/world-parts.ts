// Legal variants of the world parts: relationships also listed the other way round.
import type { Variant } from '../variants.ts';
import { type FaultHooks, type Json, applied, isObject, onResult } from './helpers.ts';

/** Every relationship listed also the other way round (the persona's view of the actor), with its own id and values. */
function bothWaysHooks(): FaultHooks {
  return {
    response: onResult(['listRelationships'], (r, _req, ctx) => {
      if (!Array.isArray(r.relationships)) return;
      const reverse = r.relationships.filter(isObject).map((rec: Json) => ({ id: `${rec.id}-reverse`, source: rec.target, target: rec.source, relationship: { type: 'stranger', strength: 0, trust: 0.5 } }));
      if (reverse.length) applied(ctx);
      r.relationships.push(...reverse);
    }),
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'relationships-both-ways', areas: ['world-parts'], allowedWarnings: [],
    description: 'GET /worlds/{id}/relationships also lists each relationship the other way round (persona → actor, trust 0.5), as a record of its own',
    gap: 'Endpoints: GET /worlds/{id}/relationships "List all relationships in the world" (shape not shown); Resources: relationships are directed, source then target.',
    ...bothWaysHooks(),
  },
];
