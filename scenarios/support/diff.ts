// Where two JSON documents differ, for assertion messages that say what changed rather than
// dumping two whole snapshots.

/** One line per differing path, with both values (cut), at most 20 lines. */
export function differences(a: unknown, b: unknown, path = '$', out: string[] = []): string[] {
  if (out.length >= 20) return out;
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 80));
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (!Object.is(a, b)) out.push(`${path}: ${show(a)} then ${show(b)}`);
  return out;
}

/**
 * Where `got` does not keep what was `given`: one line per member of `given` (objects member by member,
 * arrays and other values whole) that `got` lacks or holds with another value, at most 20. Members
 * `got` has beyond them are not differences: an open object returns what it was given, and a
 * deployment may fill in what was not.
 */
export function notKept(given: unknown, got: unknown, path = '$', out: string[] = []): string[] {
  if (out.length >= 20) return out;
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObject(given) && isObject(got)) {
    for (const [k, v] of Object.entries(given)) notKept(v, got[k], `${path}.${k}`, out);
  } else if (differences(given, got).length) out.push(`${path}: given ${JSON.stringify(given).slice(0, 80)}, got ${got === undefined ? '(absent)' : JSON.stringify(got).slice(0, 80)}`);
  return out;
}

/** What stands for an array item that changed between two reads (see `withoutVolatile`). */
const VOLATILE = '(changed between two reads)';
const GONE = Symbol('volatile');

/**
 * `doc` without what changed between two reads, `first` and `second`, with nothing written between
 * them: such a member is no state of the resource (an export's own time, `exportedAt`, in a snapshot,
 * which is an open object), so comparing it says nothing of a change. Objects member by member, arrays
 * item by item (one whose length changed is left out whole).
 */
export function withoutVolatile(doc: unknown, first: unknown, second: unknown): unknown {
  const out = strip(doc, first, second);
  return out === GONE ? VOLATILE : out;
}

function strip(doc: unknown, a: unknown, b: unknown): unknown {
  if (!differences(a, b).length) return doc;
  const objects = [doc, a, b].every((v) => v && typeof v === 'object') && Array.isArray(doc) === Array.isArray(a) && Array.isArray(a) === Array.isArray(b);
  if (!objects) return GONE;
  if (Array.isArray(doc)) {
    const [x, y] = [a as unknown[], b as unknown[]];
    if (x.length !== y.length) return GONE;
    return doc.map((item, i) => {
      if (i >= x.length) return item;
      const kept = strip(item, x[i], y[i]);
      return kept === GONE ? VOLATILE : kept;
    });
  }
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    const kept = strip(v, x[k], y[k]);
    if (kept !== GONE) out[k] = kept;
  }
  return out;
}
