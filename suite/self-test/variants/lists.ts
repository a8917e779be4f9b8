// Legal variants of lists and pages: GET /personas as {items, nextCursor}, nextCursor null or "" on the
// last page, a limit over 100 refused, a limit that is no page size read leniently (not refused).
import type { Variant } from '../variants.ts';
import { type FaultHooks, type Json, applied, errorAnswer, is, isObject, onDocument, onResult, responses, successSchemas } from './helpers.ts';

const LISTS = ['listWorlds', 'listPersonas', 'listWorldEvents'];
/** The `result` member schema of a success schema (inline, as the reference writes list results). */
const resultSchema = (s: Json): Json | undefined => (isObject(s.properties?.result) ? s.properties.result : undefined);
/** The list results of GET /worlds, /personas and the event log end with `nextCursor` = `last`. */
function lastCursor(last: null | ''): FaultHooks {
  return {
    response: responses(
      onResult(LISTS, (r, _req, ctx) => { if (r.nextCursor === undefined) { r.nextCursor = last; applied(ctx); } }),
      onDocument((doc) => {
        for (const s of successSchemas(doc, LISTS)) {
          const result = resultSchema(s);
          if (!result?.properties?.nextCursor) continue;
          if (last === null) result.properties.nextCursor = { ...result.properties.nextCursor, type: ['string', 'null'] };
          result.required = [...(result.required ?? []), 'nextCursor'];
        }
      }),
    ),
  };
}

export const VARIANTS: Variant[] = [
  {
    id: 'persona-list-items', areas: ['personas', 'states', 'isolation', 'model'], allowedWarnings: [],
    description: 'GET /personas answers {items, nextCursor} instead of {personas, nextCursor}',
    gap: 'Endpoints: GET /personas "cursor-based pagination" → "list of personas"; the shape is not shown.',
    response: responses(
      onResult(['listPersonas'], (r, _req, ctx) => { if ('personas' in r) { r.items = r.personas; delete r.personas; applied(ctx); } }),
      onDocument((doc) => {
        for (const s of successSchemas(doc, ['listPersonas'])) {
          const result = resultSchema(s);
          if (!result?.properties?.personas) continue;
          result.properties.items = result.properties.personas;
          delete result.properties.personas;
          result.required = (result.required ?? []).map((m: string) => (m === 'personas' ? 'items' : m));
        }
      }),
    ),
  },
  {
    id: 'next-cursor-null', areas: ['worlds', 'personas', 'states', 'world-parts', 'model'], allowedWarnings: [],
    description: 'the last page of a list says nextCursor: null (instead of leaving it out)',
    gap: 'Endpoints: GET /worlds → {worlds, nextCursor}; how the last page is marked is not shown.',
    ...lastCursor(null),
  },
  {
    id: 'next-cursor-empty', areas: ['worlds', 'personas', 'states', 'world-parts', 'model'], allowedWarnings: [],
    description: 'the last page of a list says nextCursor: "" (instead of leaving it out)',
    gap: 'Endpoints: GET /worlds → {worlds, nextCursor string}; how the last page is marked is not shown.',
    ...lastCursor(''),
  },
  {
    id: 'limit-over-100-refused', areas: ['worlds', 'personas', 'model'], allowedWarnings: [],
    description: 'a list limit above 100 is refused 400 VALIDATION_ERROR instead of clamped to 100',
    gap: 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100"; what a larger limit gets is not shown.',
    answer: (req, ctx) => {
      if (!is(req, ...LISTS) || !(Number(req.query.get('limit')) > 100)) return undefined;
      applied(ctx);
      return errorAnswer(400, 'VALIDATION_ERROR', 'limit: at most 100');
    },
  },
  {
    id: 'limit-read-leniently', areas: ['worlds'], allowedWarnings: [],
    description: 'GET /worlds reads a limit that is no page size as a lenient parser does instead of refusing it: 0, -1, empty, abc as the default (20); 20abc as 20; 1.5 as 1; 1e2 as 100; 400 digits as 100',
    gap: 'Limits: "`limit` of `GET /worlds`: default 20, maximum 100"; what a limit that is no page size gets is not shown.',
    request: (req, ctx) => {
      const value = req.query.get('limit');
      if (!is(req, 'listWorlds') || value === null || /^[1-9][0-9]{0,5}$/.test(value)) return;
      // Number() first (1e2, 1.5, 400 digits), then the digits before any text (parseInt: 20abc).
      const n = Number(value);
      const read = Number.isFinite(n) ? n : n === Number.POSITIVE_INFINITY ? 100 : Number.parseInt(value, 10);
      if (read >= 1) req.query.set('limit', String(Math.min(100, Math.floor(read)))); else req.query.delete('limit');
      applied(ctx);
    },
  },
];
