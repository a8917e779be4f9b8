// What the deployment's own document says where SPEC.md shows no shape: request bodies of the
// operations known only by method and path, and how GET /personas pages. Each comes from the served
// document (read by contract/openapi-reader.ts in any legal style), never from the reference's
// choices; and a body the suite calls valid is checked against the served schema before it is sent.
// Where the document says too little, the caller's check is "not run" with the reason given here.
import { armsOf, minimalInstance, minimalInstances, mergeAllOf } from '../../fixtures/minimal.ts';
import type { TestContext } from 'vitest';
import { documents } from '../../suite/checks/documents.ts';
import { notRun } from '../../suite/scenario/check.ts';

type Json = Record<string, any>;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The served operation of an operation of SPEC.md (found by method and path: names differ). */
export function servedOperation(operationId: string) {
  const op = documents().bundled.operation(operationId);
  return op && documents().served.operationAt(op.method, op.path);
}

/** Why a body is not valid for the served document, or undefined when it is (or nothing declares its schema). */
export function servedBodyProblem(operationId: string, body: unknown): string | undefined {
  const served = servedOperation(operationId);
  if (!served) return undefined;
  const verdict = documents().validators.served.checkRequest(served.operationId, body);
  if (verdict.notRun) return `the served request schema of ${served.method.toUpperCase()} ${served.path} ${verdict.notRun}`;
  return verdict.ok ? undefined : `the suite could not build a body valid for the served schema of ${served.method.toUpperCase()} ${served.path}: ${verdict.problems.slice(0, 2).join('; ')}`;
}

export interface ServedBody {
  /** Whether the served document says anything of the operation's body (a schema, or no body at all). */
  described: boolean;
  body: unknown;
  /** Why the body is not known to be valid for the served document: a check must not rely on it. */
  problem?: string;
}

/** The smallest body of an operation of SPEC.md that the SPEC contract accepts. */
export function minimalBody(operationId: string): unknown {
  return minimalInstance(documents().bundled.requestSchema(operationId));
}

/**
 * The smallest body the deployment's own document accepts for an operation of SPEC.md, checked
 * against it: a body of the reference's making would prove nothing about another deployment, and an
 * invalid one may be refused (400) before the lookup a check is about.
 */
export function servedBody(operationId: string): ServedBody {
  const served = servedOperation(operationId);
  const schema = served ? documents().served.requestSchema(served.operationId) : undefined;
  if (schema) {
    // The smallest instance of each arm of a union, then of the whole: the first the document accepts.
    const tries = minimalInstances(schema).map((body) => ({ body, problem: servedBodyProblem(operationId, body) }));
    const valid = tries.find((t) => !t.problem) ?? tries[tries.length - 1];
    return { described: true, ...valid };
  }
  const bundledOp = documents().bundled.operation(operationId);
  return { described: !!served && !served.spec.requestBody, body: bundledOp?.spec.requestBody ? minimalBody(operationId) : undefined };
}

/** A member a check needs in a body: the names a deployment may give it, and its value for the member found. */
export interface Role {
  role: string;
  names: readonly string[];
  value: (member: string) => unknown;
}

/** The schema of an object's members, allOf merged; undefined for what is not an object. */
const membersOf = (schema: unknown): Json | undefined => {
  const merged = isObject(schema) ? mergeAllOf(schema) : undefined;
  return isObject(merged?.properties) ? merged!.properties : undefined;
};

/** The object shapes a schema allows: the arms of its anyOf/oneOf that are objects (each with what the schema says beside them), else itself. */
function objectShapes(schema: unknown): Json[] {
  if (!isObject(schema)) return [];
  const merged = mergeAllOf(schema);
  const arms = armsOf(merged);
  return (arms ?? [merged]).filter((a) => membersOf(a));
}

/** Where a role's member is in a schema: a member of the body, or of an object member of it (through the arm that has it: `relationship: X | null`). */
function placeOf(schema: Json, role: Role): { at: string[]; inner?: Json } | undefined {
  const top = membersOf(schema) ?? {};
  const lower = (k: string) => k.toLowerCase();
  const pick = (members: Json) => role.names.map(lower).map((n) => Object.keys(members).find((k) => lower(k) === n)).find((k) => k !== undefined);
  const here = pick(top);
  if (here) return { at: [here] };
  for (const [k, v] of Object.entries(top)) {
    for (const inner of objectShapes(v)) {
      const found = pick(membersOf(inner)!);
      if (found) return { at: [k, found], inner };
    }
  }
  return undefined;
}

/** The object shape of a body schema that holds the most of the roles (the first on a tie): the arm of a union that carries the members a check needs. */
function shapeFor(schema: Json, roles: readonly Role[]): Json {
  const shapes = objectShapes(schema);
  const score = (shape: Json) => roles.filter((r) => placeOf(shape, r)).length;
  return shapes.reduce<Json | undefined>((best, s) => (best === undefined || score(s) > score(best) ? s : best), undefined) ?? schema;
}

/**
 * A body for an operation whose shape SPEC.md does not show, from the served schema: its smallest
 * valid instance with each role's member set. `missing` names the roles the document has no member
 * for; `problem` says why the body is not valid for the document. Either makes the check "not run".
 */
export function servedBodyWith(operationId: string, roles: readonly Role[]): { body: Json; missing: string[]; problem?: string; members: Record<string, string> } {
  const served = servedOperation(operationId);
  const schema = served ? documents().served.requestSchema(served.operationId) : undefined;
  const where = served ? `${served.method.toUpperCase()} ${served.path}` : operationId;
  if (!schema) return { body: {}, missing: roles.map((r) => r.role), members: {}, problem: `the served document declares no JSON request body for ${where}` };
  const shape = shapeFor(schema, roles);
  const base = minimalInstance(shape);
  const body: Json = isObject(base) ? base : {};
  const missing: string[] = [];
  const members: Record<string, string> = {};
  for (const role of roles) {
    const place = placeOf(shape, role);
    if (!place) { missing.push(role.role); continue; }
    const { at, inner } = place;
    let node = body;
    for (const k of at.slice(0, -1)) {
      const made = minimalInstance(inner ?? membersOf(shape)?.[k]);
      if (!isObject(node[k])) node[k] = isObject(made) ? made : {};
      node = node[k];
    }
    node[at[at.length - 1]] = role.value(at[at.length - 1]);
    members[role.role] = at.join('.');
  }
  return { body, missing, members, problem: servedBodyProblem(operationId, body) };
}

/** "not run" reason for a body from servedBodyWith, or undefined when it can be sent. */
export function unusable(operationId: string, made: { missing: string[]; problem?: string }): string | undefined {
  const served = servedOperation(operationId);
  const where = served ? `${served.method.toUpperCase()} ${served.path}` : operationId;
  if (made.missing.length) return `the served document's body of ${where} has no member the suite can read as ${made.missing.join(', ')} (SPEC.md does not show this body)`;
  return made.problem;
}

export const role = (name: string, names: readonly string[], value: (member: string) => unknown): Role => ({ role: name, names, value });

/**
 * A body for an operation whose shape SPEC.md does not show, or the check ends "not run" with the
 * reason: the served document's smallest body with the members the check needs (`roles`; else the
 * first of `or` that the document has), and `optional` ones where the document has them and the body
 * stays valid. `shown` is the body as a step's message quotes it.
 */
export function bodyFor(ctx: TestContext, operationId: string, roles: readonly Role[], options: { optional?: readonly Role[]; or?: ReadonlyArray<readonly Role[]> } = {}) {
  const tries = [roles, ...(options.or ?? [])].map((r) => ({ roles: r, made: servedBodyWith(operationId, r) }));
  const usable = tries.find((t) => !unusable(operationId, t.made));
  if (!usable) notRun(ctx, unusable(operationId, tries[0].made)!);
  const full = options.optional?.length ? servedBodyWith(operationId, [...usable!.roles, ...options.optional]) : usable!.made;
  const chosen = full.problem ? usable!.made : full;
  return { body: chosen.body, members: chosen.members, shown: JSON.stringify(chosen.body).slice(0, 120) };
}

// ---- Lists: how a list operation pages ----

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
