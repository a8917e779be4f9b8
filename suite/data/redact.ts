// The one redaction of the suite. A key must never reach the output or a report, in whatever form a
// deployment echoes it: verbatim, base64 and base64url (e.g. inside a token or a Basic header),
// URL-encoded, or escaped inside a JSON string. The keys the run knows are scrubbed from every
// exchange as it is recorded; key-looking values it does not know (another tenant's key echoed, a
// key pasted into a config field) are caught by a pattern when a report is written.

/** mk_test_abcdef… → mk_test_…(redacted): the environment stays visible, the secret never. */
export function redactKey(key: string): string {
  const prefix = /^mk_(live|test)_/.exec(key)?.[0] ?? '';
  return `${prefix}…(redacted)`;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Header names lower-cased, values joined, credentials redacted, the given secrets scrubbed from every value. */
export function redactHeaders(headers: Record<string, unknown>, secrets: Array<string | undefined> = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    out[name] = SECRET_HEADERS.has(name) ? redactKey(String(v)) : scrub(Array.isArray(v) ? v.join(', ') : String(v), secrets);
  }
  return out;
}

/** Every form of a secret a deployment may echo, longest first so that no form is left half-replaced. */
export function formsOf(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const forms = new Set<string>([
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    b64,
    b64.replace(/=+$/, ''),
    Buffer.from(secret, 'utf8').toString('base64url'),
  ]);
  // base64 of the secret inside a longer encoded text is aligned on any of three byte offsets: the
  // middle of each shifted encoding is stable whatever precedes it.
  for (const shift of [1, 2]) {
    const shifted = Buffer.from('x'.repeat(shift) + secret, 'utf8').toString('base64');
    const stable = shifted.slice(4, shifted.length - 4);
    if (stable.length >= 12) { forms.add(stable); forms.add(stable.replace(/\+/g, '-').replace(/\//g, '_')); }
  }
  const plain = Buffer.from(secret, 'utf8').toString('base64');
  const middle = plain.slice(0, plain.length - 4);
  if (middle.length >= 12) { forms.add(middle); forms.add(middle.replace(/\+/g, '-').replace(/\//g, '_')); }
  return [...forms].filter((f) => f.length >= 8).sort((a, b) => b.length - a.length);
}

/** Removes every form of the given secrets from a text. */
export function scrub(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of formsOf(secret)) if (out.includes(form)) out = out.split(form).join(redactKey(secret));
  }
  return out;
}

/**
 * Key-looking values (SPEC.md: `mk_live_` or `mk_test_` then the secret), for keys the run does not
 * know. The secret part stops at characters that delimit values in JSON, headers, URLs and shell, so
 * the surrounding text stays readable; an already redacted value (`mk_test_…(redacted)`) does not match.
 */
const KEY_LIKE = /mk_(live|test)_[^\s"'`<>&,;(){}[\]\\…]+/g;

export function redactKeyLike(value: unknown): string {
  // Assertion values may be numbers, arrays or objects: render them before redacting.
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value, null, 2) ?? String(value);
  return text.replace(KEY_LIKE, (_m, env: string) => `mk_${env}_…(redacted)`);
}
