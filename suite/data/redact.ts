// The one redaction of the suite. A key must never reach the output or a report, in whatever form a
// deployment echoes it: verbatim or with its case changed (a header name is lower-cased), URL-encoded
// (byte by byte, unreserved characters too, or twice), escaped in JSON (`\u006d`), in C or HTML
// (`\x6d`, `&#x6d;`), quoted-printable, as hex, and base64 in its variants (padded or not, url-safe,
// inside a longer encoded text, URL-encoded), in URLs, header names and values, and bodies. The keys
// the run knows are scrubbed from every exchange as it is recorded, and again from every line the
// command prints and every report it writes; key-looking values it does not know (another tenant's
// key echoed, a key pasted into a config field) are caught by a pattern when a report is written.

/** mk_test_abcdef… → mk_test_…(redacted): the environment stays visible, the secret never. */
export function redactKey(key: string): string {
  const prefix = /^mk_(live|test)_/.exec(key)?.[0] ?? '';
  return `${prefix}…(redacted)`;
}

const SECRET_HEADERS = new Set(['x-api-key', 'authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Header names lower-cased, values joined, credentials redacted, the given secrets scrubbed from every name and value. */
export function redactHeaders(headers: Record<string, unknown>, secrets: Array<string | undefined> = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const name = scrub(k.toLowerCase(), secrets);
    out[name] = SECRET_HEADERS.has(name) ? redactKey(String(v)) : scrub(Array.isArray(v) ? v.join(', ') : String(v), secrets);
  }
  return out;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** base64 of the secret as it appears alone or inside a longer encoded text (any of three byte offsets), padded or not, url-safe or not. */
function base64Forms(secret: string): string[] {
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  const forms = new Set<string>([b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url')]);
  // Inside a longer encoded text the secret's bytes are aligned on one of three offsets: the middle
  // of each shifted encoding is stable whatever precedes it.
  for (const shift of [1, 2]) {
    const shifted = Buffer.from('x'.repeat(shift) + secret, 'utf8').toString('base64');
    const stable = shifted.slice(4, shifted.length - 4);
    if (stable.length >= 12) { forms.add(stable); forms.add(stable.replace(/\+/g, '-').replace(/\//g, '_')); }
  }
  const middle = b64.slice(0, b64.length - 4);
  if (middle.length >= 12) { forms.add(middle); forms.add(middle.replace(/\+/g, '-').replace(/\//g, '_')); }
  return [...forms].filter((f) => f.length >= 8);
}

/**
 * Representative forms of a secret a deployment may echo, longest first; the tests echo each.
 * scrub() catches these and any mixture of them (some characters encoded, others not).
 */
export function formsOf(secret: string): string[] {
  const bytes = [...Buffer.from(secret, 'utf8')];
  const each = (f: (b: number) => string) => bytes.map(f).join('');
  const chars = [...secret];
  const b64 = base64Forms(secret);
  const forms = new Set<string>([
    secret, secret.toLowerCase(), secret.toUpperCase(),
    encodeURIComponent(secret),
    each((b) => `%${hex2(b).toUpperCase()}`), each((b) => `%${hex2(b)}`), each((b) => `%25${hex2(b).toUpperCase()}`),
    JSON.stringify(secret).slice(1, -1),
    chars.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    chars.map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
    each((b) => `\\x${hex2(b)}`), each((b) => `&#x${hex2(b)};`), each((b) => `&#${b};`), each((b) => `=${hex2(b).toUpperCase()}`),
    Buffer.from(secret, 'utf8').toString('hex'), Buffer.from(secret, 'utf8').toString('hex').toUpperCase(),
    ...b64, ...b64.map((f) => f.toLowerCase()), ...b64.map((f) => f.replace(/[+/=]/g, (c) => `%${hex2(c.charCodeAt(0)).toUpperCase()}`)),
  ]);
  return [...forms].filter((f) => f.length >= 8).sort((a, b) => b.length - a.length);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\\/-]/g, '\\$&');

/** One character of the secret, in any of its encodings. */
function charPattern(c: string): string {
  const utf8 = [...Buffer.from(c, 'utf8')];
  const code = c.charCodeAt(0).toString(16).padStart(4, '0');
  const alts = [
    escape(c),
    utf8.map((b) => `%(?:25)?${hex2(b)}`).join(''),
    `\\\\u${code}`,
    `&(?:amp;)?#(?:x0*${code.replace(/^0+/, '')}|0*${c.charCodeAt(0)});`,
  ];
  if (utf8.length === 1) alts.push(`\\\\x${hex2(utf8[0])}`, `=${hex2(utf8[0])}`, hex2(utf8[0]));
  return `(?:${alts.join('|')})`;
}

const patterns = new Map<string, RegExp>();

/** Every form of the secret, and mixtures, as one case-insensitive pattern (built once per secret). */
function patternOf(secret: string): RegExp {
  let re = patterns.get(secret);
  if (!re) {
    const encoded = [...secret].map(charPattern).join('');
    // base64 characters stand for themselves; only + / = may be URL-encoded.
    const b64 = base64Forms(secret).map((f) => [...f].map((c) => (/[+/=]/.test(c) ? `(?:${escape(c)}|%${hex2(c.charCodeAt(0))})` : escape(c))).join(''));
    re = new RegExp([encoded, ...b64].join('|'), 'gi');
    patterns.set(secret, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * Short texts already scrubbed (header names and values repeat on every exchange): the pattern of
 * every form of a key is long, and trying it at each position of each header cost a run more CPU
 * than sending its requests. Bounded: cleared when full.
 */
const scrubbed = new Map<string, string>();
const MEMO_TEXT = 256;
const MEMO_ENTRIES = 4_096;

/** Removes every form of the given secrets from a text. */
export function scrub(text: string, secrets: Array<string | undefined>): string {
  if (text.length > MEMO_TEXT) return scrubAll(text, secrets);
  const key = `${secrets.join('\u0000')}\u0001${text}`;
  let out = scrubbed.get(key);
  if (out === undefined) {
    if (scrubbed.size >= MEMO_ENTRIES) scrubbed.clear();
    scrubbed.set(key, (out = scrubAll(text, secrets)));
  }
  return out;
}

/**
 * The length of the shortest form of a secret: every encoding of a character takes at least one, and
 * its base64 forms their own length. A shorter text cannot hold the secret, and is not searched (most
 * header values: trying the pattern costs more than the requests that carry them).
 */
const shortest = new Map<string, number>();
function shortestForm(secret: string): number {
  let n = shortest.get(secret);
  if (n === undefined) shortest.set(secret, (n = Math.min(secret.length, ...base64Forms(secret).map((f) => f.length))));
  return n;
}

function scrubAll(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const secret of new Set(secrets)) {
    if (!secret || secret.length < 8 || out.length < shortestForm(secret)) continue;
    out = out.replace(patternOf(secret), redactKey(secret));
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
