// Text helpers shared by every report. Most of what a report shows comes from the deployment under
// test (bodies, headers, error messages that quote them), so it is untrusted: it may hold escape
// sequences that repaint a terminal, characters XML 1.0 forbids, or a key the deployment echoed.
// Each renderer escapes for its own format; these helpers do what all formats need.

import { redactKeyLike } from '../data/redact.ts';

/**
 * Makes control characters visible instead of acting on a terminal or a reader: ESC (ANSI colours,
 * cursor moves, OSC 8 links), a lone CR (overwrites the line), C1 controls, and the bidi overrides
 * that reorder what a reviewer sees ("Trojan Source"). Newlines and tabs are kept.
 */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function visible(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Untrusted text made safe to show anywhere: keys redacted, controls visible. */
export const safe = (text: unknown): string => visible(redactKeyLike(text ?? ''));

/** Shortens to `limit` characters, saying how much was left out (the full body is in results.json). */
export function clip(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…(${text.length - limit} more characters)` : text;
}

/** How a recorded value cut at recording says what it left out (suite/data/exchange.ts cut()). */
const RECORDED_CUT = /…\((\d+) more bytes\)$/;

/** The whole length of a value the recording cut (URL or body), or undefined when it was kept whole. */
export function recordedLength(text: string): number | undefined {
  const m = RECORDED_CUT.exec(text);
  return m ? m.index + Number(m[1]) : undefined;
}

/**
 * A value a report shows on one line (a URL, a curl argument): up to `limit` characters, then its
 * whole length, counting what the recording already cut (a 100 KB URL is recorded as 4 KB and a note).
 */
export function shortened(text: string, limit: number): string {
  const m = RECORDED_CUT.exec(text);
  const kept = m ? text.slice(0, m.index) : text;
  const whole = kept.length + (m ? Number(m[1]) : 0);
  return whole > limit ? `${kept.slice(0, limit)}…(${whole.toLocaleString('en-US')} characters)` : kept;
}

/** The first line of a text, shortened: for one-line views (warnings, JUnit message attributes). */
export function firstLine(text: string, limit = 200): string {
  return clip(text.split('\n', 1)[0] ?? '', limit);
}

export function indent(text: string, prefix: string): string {
  return text.split('\n').map((line) => (line ? prefix + line : line)).join('\n');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
