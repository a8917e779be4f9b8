// How a list operation pages: GET /worlds as SPEC.md states it, any other list (GET /personas) as the
// deployment's own document declares it (read by contract/openapi-reader.ts in any legal style).
import { documents } from '../../suite/checks/documents.ts';
import { isObject, membersOf, mergeAllOf, type Json } from '../../suite/bodies/schema.ts';
import { servedOperation } from '../../suite/bodies/served.ts';

export interface Paging {
  /** The query parameter that sets the page size, and the largest size the document allows. */
  sizeParam?: string;
  minSize?: number;
  maxSize?: number;
  /** The query parameter that asks for the next page, and the result member that gives its value. */
  cursorParam?: string;
  nextMember?: string;
}

const SIZE_NAMES = /^(limit|page_?size|per_?page|size|max_?results|max|count|take|first|top)$/i;
const CURSOR_NAMES = /^(cursor|page_?token|next_?token|continuation_?token|token|after|starting_?after|next|page_?cursor|offset_?token)$/i;

/**
 * How an operation of SPEC.md pages. GET /worlds pages as SPEC.md states (`limit` up to 100,
 * `cursor`, `nextCursor`). Any other list (GET /personas: "cursor-based pagination", parameters not
 * shown) pages as its served document declares: a page-size and a cursor query parameter, and a
 * string member of the result whose name says "next".
 */
export function pagingOf(operationId: string): Paging {
  if (operationId === 'listWorlds') return { sizeParam: 'limit', minSize: 1, maxSize: 100, cursorParam: 'cursor', nextMember: 'nextCursor' };
  const served = servedOperation(operationId);
  if (!served) return {};
  const params: Json[] = (Array.isArray(served.spec.parameters) ? served.spec.parameters : []).filter((p: Json) => p?.in === 'query' && typeof p.name === 'string');
  const size = params.find((p) => SIZE_NAMES.test(p.name));
  const cursor = params.find((p) => CURSOR_NAMES.test(p.name));
  const key = documents().served.successKey(served.operationId);
  const success = key ? documents().served.responseSchema(served.operationId, key) : undefined;
  const result = membersOf(membersOf(success)?.result) ?? {};
  const nextMember = Object.keys(result).find((k) => /next/i.test(k)) ?? Object.keys(result).find((k) => /cursor|token/i.test(k));
  const bound = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const sizeSchema = isObject(size?.schema) ? mergeAllOf(size!.schema) : {};
  return {
    sizeParam: size?.name, minSize: bound(sizeSchema.minimum), maxSize: bound(sizeSchema.maximum), cursorParam: cursor?.name, nextMember,
  };
}

/** The page size to ask for (clamped to what the document allows). */
export function pageSize(paging: Paging, wanted: number): number {
  return Math.max(paging.minSize ?? 1, Math.min(paging.maxSize ?? wanted, wanted));
}

/** The cursor of the next page in a result, when the deployment gave one. */
export function nextCursor(paging: Paging, result: unknown): string | undefined {
  const value = paging.nextMember && isObject(result) ? result[paging.nextMember] : undefined;
  return (typeof value === 'string' && value) || (typeof value === 'number' ? String(value) : undefined) || undefined;
}
