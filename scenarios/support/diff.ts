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
