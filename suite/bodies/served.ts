// Bodies from the deployment's own document, where SPEC.md shows no shape or a check needs a body the
// deployment accepts whatever its style: the smallest valid body of an operation, one with the members a
// check needs (roles), the batch operations it shows. Each comes from the served document (read by
// contract/openapi-reader.ts in any legal style), never from the reference's choices; and a body the
// suite calls valid is checked against the served schema before it is sent. Where the document says too
// little, the caller's check is "not run" with the reason given here.
import type { TestContext } from 'vitest';
import { documents } from '../checks/documents.ts';
import { notRun } from '../scenario/check.ts';
import { armsOf, isObject, membersOf, mergeAllOf, type Json } from './schema.ts';
import { minimalInstance, minimalInstances } from './minimal.ts';

/** The served operation of an operation of SPEC.md (found by method and path: names differ). */
export function servedOperation(operationId: string) {
  const op = documents().bundled.operation(operationId);
  return op && documents().served.operationAt(op.method, op.path);
}
/** The served operation as a reason names it (`POST /worlds/{id}/tick`), else the operation id. */
const whereOf = (operationId: string) => { const served = servedOperation(operationId); return served ? `${served.method.toUpperCase()} ${served.path}` : operationId; };

/** Why a body is not valid for the served document, or undefined when it is (or nothing declares its schema). */
export function servedBodyProblem(operationId: string, body: unknown): string | undefined {
  const served = servedOperation(operationId);
  if (!served) return undefined;
  const verdict = documents().validators.served.checkRequest(served.operationId, body);
  if (verdict.notRun) return `the served request schema of ${whereOf(operationId)} ${verdict.notRun}`;
  return verdict.ok ? undefined : `the suite could not build a body valid for the served schema of ${whereOf(operationId)}: ${verdict.problems.slice(0, 2).join('; ')}`;
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

/** servedBody for the operations of one check (ISO-1, ERR-1, ERR-4): none for one it cannot build; `settle`, after the expectations, makes the check "not run" if one was left out. */
export function servedBodies() {
  const untried: string[] = [];
  return {
    body(operationId: string): { body: unknown } | undefined {
      const made = servedBody(operationId);
      if (made.problem) { untried.push(made.problem); return undefined; }
      return { body: made.body };
    },
    settle(ctx: TestContext) {
      if (untried.length) notRun(ctx, `${untried.length} operation(s) could not be tried: ${untried[0]}`);
    },
  };
}

/** A member a check needs in a body: the names a deployment may give it, and its value for the member found. */
export interface Role {
  role: string;
  names: readonly string[];
  value: (member: string) => unknown;
}

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
  if (!schema) return { body: {}, missing: roles.map((r) => r.role), members: {}, problem: `the served document declares no JSON request body for ${whereOf(operationId)}` };
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
  if (made.missing.length) return `the served document's body of ${whereOf(operationId)} has no member the suite can read as ${made.missing.join(', ')} (SPEC.md does not show this body)`;
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

/**
 * Batch operations that name an existing entity, as the deployment's own document shows them (SPEC.md
 * shows only add_entity, which names a new one): the operations of its request examples and the arms
 * of its operation schema whose `op` is a constant. Those that add or create (they name something
 * new) and those that remove or delete (removing what is gone may be a success) are left out. Each
 * with the member that names the entity (ERR-10).
 */
export function entityOperations(): Array<{ operation: Json; member: string }> {
  const served = documents().served;
  const op = served.operationAt('post', '/worlds/{id}/mutate');
  const content = op?.spec.requestBody?.content?.['application/json'] as Json | undefined;
  const bodies: unknown[] = [content?.example, ...Object.values<Json>(content?.examples ?? {}).map((e) => e?.value), content?.schema?.example, ...(Array.isArray(content?.schema?.examples) ? content.schema.examples : [])];
  const candidates: Json[] = bodies.flatMap((b) => (isObject(b) && Array.isArray(b.operations) ? b.operations.filter(isObject) : []));
  const items = content?.schema?.properties?.operations?.items as Json | undefined;
  for (const arm of (items && armsOf(items)) ?? []) {
    const name = arm?.properties?.op?.const ?? arm?.properties?.op?.enum?.[0];
    const instance = minimalInstance(arm);
    if (typeof name === 'string' && isObject(instance)) candidates.push({ ...instance, op: name });
  }
  const out: Array<{ operation: Json; member: string }> = [];
  for (const c of candidates) {
    if (typeof c.op !== 'string' || /^(add|create|new|remove|delete|del)/i.test(c.op)) continue;
    const member = Object.keys(c).find((k) => typeof c[k] === 'string' && (k === 'name' || /entity/i.test(k)));
    if (member && !out.some((o) => o.operation.op === c.op)) out.push({ operation: c, member });
  }
  return out;
}
