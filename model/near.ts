// Near variants of an identifier the model knows: what a lookup that compares loosely would take for
// it. Each is a different string, so SPEC.md's "does not exist" applies to it.

export type NearKind = 'upper' | 'lower' | 'trailing-space' | 'leading-space' | 'cut-last' | 'added-char' | 'cut-first' | 'changed-last';

// changed-last: the same length, the last character another (a comparison that drops the last character takes it).
export const NEAR_KINDS: readonly NearKind[] = ['upper', 'lower', 'trailing-space', 'leading-space', 'cut-last', 'added-char', 'cut-first', 'changed-last'];

/** The variant of `id`, or undefined when it would be `id` itself (no letter to change case) or empty. */
export function near(id: string, kind: NearKind): string | undefined {
  const v = kind === 'upper' ? id.toUpperCase() : kind === 'lower' ? id.toLowerCase() : kind === 'trailing-space' ? `${id} ` : kind === 'leading-space' ? ` ${id}`
    : kind === 'cut-last' ? id.slice(0, -1) : kind === 'cut-first' ? id.slice(1)
    : kind === 'changed-last' ? `${id.slice(0, -1)}${id.slice(-1) === 'x' ? 'y' : 'x'}` : `${id}${id.slice(-1) === 'x' ? 'y' : 'x'}`;
  return v && v !== id ? v : undefined;
}

/** A variant of a key: another case, a character cut or added, or the other environment's prefix. */
export function nearKey(key: string, kind: NearKind | 'other-prefix'): string | undefined {
  if (kind === 'other-prefix') {
    const swapped = key.startsWith('mk_test_') ? `mk_live_${key.slice(8)}` : key.startsWith('mk_live_') ? `mk_test_${key.slice(8)}` : undefined;
    return swapped !== key ? swapped : undefined;
  }
  // A space at either end of a header value is not the key's: HTTP trims it. Those go as a character added.
  if (kind === 'trailing-space' || kind === 'leading-space') return near(key, 'added-char');
  return near(key, kind);
}

/**
 * Origins one step from the allowed one, where real allowlists go wrong: matched as a prefix (a host
 * that begins with the allowed one, the allowed origin with a character less), as a suffix (a host
 * that ends with the allowed one: another registrable host, a subdomain), on the host alone (another
 * scheme, another port). A default port written out is the same origin: never sent.
 */
export function nearOrigins(allowed: string): string[] {
  const out = [`${allowed}.evil.test`, allowed.slice(0, -1)];
  try {
    const url = new URL(allowed);
    out.push(`${url.protocol}//evil-${url.host}`, `${url.protocol}//x.${url.host}`);
    if (url.protocol === 'https:' || url.protocol === 'http:') out.push(`${url.protocol === 'https:' ? 'http:' : 'https:'}//${url.host}`);
    out.push(`${url.protocol}//${url.hostname}:${url.port === '8443' ? '9443' : '8443'}`);
  } catch { /* not a URL: the two textual near misses only */ }
  return out.filter((o) => o !== allowed);
}
