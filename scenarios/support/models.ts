// Readings of SPEC.md's models that checks share and that are tested on their own
// (test/conformance/models.test.ts): a relationship's direction, a batch operation's own result entry.

/** Whether a value appears anywhere (as a string member) in a JSON value. */
export function mentions(value: unknown, text: string | undefined): boolean {
  if (text === undefined) return false;
  if (value === text) return true;
  if (!value || typeof value !== 'object') return false;
  return Object.values(value as Record<string, unknown>).some((v) => mentions(v, text));
}

/** Member names a deployment may give the two ends of a relationship: the actor (source) and the persona (target). */
export const ACTOR_NAMES = ['source', 'actor', 'from', 'sourceEntity', 'sourceName', 'actorName', 'entity', 'entityName', 'user', 'sourceId', 'actorId', 'entityId', 'userId'];
export const PERSONA_NAMES = ['target', 'persona', 'to', 'targetEntity', 'targetName', 'personaName', 'personaId', 'targetId'];

/**
 * Whether a relationship record goes from `source` to `target` (each a name or an id): an object in it
 * names the source under a member read as the actor and the target under one read as the persona. A
 * record that names its ends under no such member is read undirected: it mentions both.
 */
export function directed(record: unknown, source: Array<string | undefined>, target: Array<string | undefined>): boolean {
  const is = (v: unknown, ends: Array<string | undefined>) => typeof v === 'string' && ends.includes(v);
  const ends = [...source, ...target];
  const nameIn = (o: Record<string, unknown>, names: readonly string[]) => Object.keys(o).find((k) => names.includes(k) && is(o[k], ends));
  let named = false;
  const walk = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    const o = node as Record<string, unknown>;
    const from = nameIn(o, ACTOR_NAMES);
    const to = nameIn(o, PERSONA_NAMES);
    if (from || to) named = true;
    if (from && to && is(o[from], source) && is(o[to], target)) return true;
    return Object.values(o).some(walk);
  };
  if (walk(record)) return true;
  return !named && source.some((s) => mentions(record, s)) && target.some((t) => mentions(record, t));
}

/**
 * Whether a 2xx answer of a batch mutation reports operation `i` failed in its own entry. SPEC.md,
 * Errors: "Inside a batch mutation, a failed operation is reported in its own result entry with `ok`
 * false and an `error` string; the batch response itself remains a `result` envelope."
 */
export function reportedInItsEntry(reply: { status: number; body: any }, i: number): boolean {
  const entry = reply.status >= 200 && reply.status < 300 ? reply.body?.result?.results?.[i] : undefined;
  return entry?.ok === false && typeof entry.error === 'string' && entry.error !== '';
}
