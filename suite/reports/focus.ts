// The part of a response body a failure is about. A report shows about 1 KB of a body; a large
// answer (a world's query, a snapshot) cut at that size may lose the very member the check asserted
// (PROG-3's phaseHistory comes after the entities, spaces and knowledge). So when the body is larger
// than what is shown, the members the failure names are shown by their path, whole; the rest of the
// body stays in results.json.
import { clip } from './text.ts';

/** Names the failure mentions: JSON pointers (`/result/phaseHistory/0`) and member-like words. */
export function namedMembers(texts: ReadonlyArray<string | undefined>): { pointers: string[][]; words: Set<string> } {
  const text = texts.filter(Boolean).join('\n');
  const pointers = [...text.matchAll(/(?:^|[\s'"`(])((?:\/[A-Za-z0-9_$-]+)+)/g)].map((m) => m[1].split('/').slice(1));
  const words = new Set([...text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)].map((m) => m[0]));
  return { pointers, words };
}

type Json = unknown;
type Path = Array<string | number>;

const at = (value: Json, path: readonly (string | number)[]): Json =>
  path.reduce<Json>((v, k) => (v && typeof v === 'object' ? (v as Record<string, Json>)[k as string] : undefined), value);

/** Paths of members named in `words`, outermost first; a member inside one already found is not listed again. */
function findNamed(value: Json, words: Set<string>, path: Path = [], out: Path[] = []): Path[] {
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, Json>)) {
    const here = [...path, Array.isArray(value) ? Number(k) : k];
    if (!Array.isArray(value) && words.has(k)) out.push(here);
    else findNamed(v, words, here, out);
  }
  return out;
}

/** `result.phaseHistory[0]` */
export const pathText = (path: Path) => path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');

/**
 * The body as a report shows it: whole (JSON indented) when it fits in `limit` characters; else, when
 * the failure names members of it, those members by path, each whole up to the limit; else the
 * beginning, cut, saying how much was left out.
 */
export function shownBody(raw: string, hints: ReadonlyArray<string | undefined>, limit: number): string {
  if (!raw) return '(empty body)';
  let parsed: Json;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return shownText(raw, hints, limit);
  }
  const pretty = JSON.stringify(parsed, null, 2);
  if (pretty.length <= limit) return pretty;
  const { pointers, words } = namedMembers(hints);
  const found: Path[] = pointers.map((p) => p.map((k) => (/^\d+$/.test(k) ? Number(k) : k))).filter((p) => at(parsed, p) !== undefined);
  // The envelope's own members name everything: only deeper names single a member out.
  words.delete('result');
  words.delete('error');
  if (!found.length) found.push(...findNamed(parsed, words).slice(0, 5));
  // Each member once: a failure names its member in the title, the expected and the received alike,
  // and a member inside another shown is shown with it.
  const named = outermost(found);
  if (!named.length) return clip(pretty, limit);
  const each = Math.max(200, Math.floor(limit / named.length));
  const parts = named.map((p) => `${pathText(p)} = ${memberView(at(parsed, p), each)}`);
  return `(${pretty.length} characters; shown: the members this failure names, by path)\n${parts.join('\n')}`;
}

/** The paths once each, a path inside another dropped. */
function outermost(paths: Path[]): Path[] {
  const key = (p: Path) => p.map(String).join('\u0000');
  const unique = [...new Map(paths.map((p) => [key(p), p])).values()];
  return unique.filter((p) => !unique.some((q) => q.length < p.length && q.every((k, i) => String(k) === String(p[i]))));
}

/** A short view of a value too large to show: an array as its size, anything else its JSON cut, its length said. */
const brief = (v: Json, limit: number): string => {
  const text = JSON.stringify(v) ?? 'undefined';
  if (text.length <= limit) return text;
  return Array.isArray(v) ? `[…${v.length} items, ${text.length} characters]` : `${text.slice(0, limit)}…(${text.length} characters)`;
};

/**
 * A member whole when it fits in `limit`; an object that does not, one line per member with its value
 * in brief: every member name stays in sight (a missing one is seen missing), none cut away.
 */
function memberView(value: Json, limit: number): string {
  const pretty = JSON.stringify(value, null, 2) ?? 'undefined';
  if (pretty.length <= limit || !value || typeof value !== 'object' || Array.isArray(value)) return clip(pretty, limit);
  const lines = Object.entries(value as Record<string, Json>).map(([k, v]) => `  ${JSON.stringify(k)}: ${brief(v, 60)}`);
  return `{ (${pretty.length} characters, each member in brief)\n${lines.join(',\n')}\n}`;
}

/** A body that is not JSON (or was cut when recorded): around the first member the failure names, if any. */
function shownText(raw: string, hints: ReadonlyArray<string | undefined>, limit: number): string {
  if (raw.length <= limit) return raw;
  const { words } = namedMembers(hints);
  words.delete('result');
  words.delete('error');
  const hit = [...words].map((w) => raw.indexOf(`"${w}"`)).filter((i) => i > limit / 2).sort((a, b) => a - b)[0];
  const head = Math.floor(limit / 3);
  const from = hit === undefined ? 0 : hit - 80;
  if (from <= head) return clip(raw, limit);
  return `${raw.slice(0, head)}…(${from - head} characters left out)…${clip(raw.slice(from), limit - head)}`;
}
