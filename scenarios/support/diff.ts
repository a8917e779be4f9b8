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
