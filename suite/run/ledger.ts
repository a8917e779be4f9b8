// Everything the run created is soft-deleted at the end, after a failure, the deadline or Ctrl-C
// too. The ledger (one JSON line per created world or persona, written before the check goes on)
// says what; after a cleanup it keeps only what could not be removed, so that
// `npm run conformance -- --cleanup <ledger>` can finish the job later. It never holds a key.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'undici';
import { transport } from '../http/transport.ts';

export interface Created { kind: 'world' | 'persona'; id: string; baseUrl?: string }

export function readLedger(file: string): Created[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Created;
      return (entry.kind === 'world' || entry.kind === 'persona') && typeof entry.id === 'string' ? [entry] : [];
    } catch { return []; }
  });
}

export interface CleanupOptions {
  baseUrl: string;
  apiKey: string;
  ledgerFile: string;
  timeoutMs: number;
  /** Epoch ms: no request starts after it, and none outlives it. */
  until: number;
  /** Aborted to abandon the cleanup (what is left stays in the ledger). */
  abandon?: AbortSignal;
  /** Called after each resource, with how many are left. */
  progress?: (left: number, total: number) => void;
  maxBodyBytes?: number;
}

export interface CleanupResult { created: number; deleted: number; failed: string[]; left: Created[] }

/** Soft-deletes what the ledger lists; the ledger is rewritten with what is left, or removed when nothing is. */
export async function cleanup(o: CleanupOptions): Promise<CleanupResult> {
  const created = readLedger(o.ledgerFile);
  const unique = [...new Map(created.map((c) => [`${c.kind} ${c.id}`, c])).values()];
  let deleted = 0;
  const failed: string[] = [];
  const left: Created[] = [];
  // A target that stopped answering (a tick that never ends) is not waited for once per resource.
  let silent = 0;
  for (const [n, entry] of unique.entries()) {
    const remaining = o.until - Date.now();
    if (remaining <= 0 || o.abandon?.aborted || silent >= 3) {
      if (silent >= 3) failed.push(`${unique.length - n} not tried: the target stopped answering`);
      left.push(...unique.slice(n));
      break;
    }
    const path = `/${entry.kind === 'world' ? 'worlds' : 'personas'}/${encodeURIComponent(entry.id)}`;
    const timeoutMs = Math.max(1, Math.min(o.timeoutMs, remaining));
    try {
      const signal = o.abandon ? AbortSignal.any([AbortSignal.timeout(timeoutMs), o.abandon]) : AbortSignal.timeout(timeoutMs);
      const res = await request((entry.baseUrl ?? o.baseUrl) + path, { method: 'DELETE', headers: { 'x-api-key': o.apiKey }, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...transport('DELETE', o.maxBodyBytes) });
      await res.body.dump();
      silent = 0;
      // 404 or 410: already gone (a check deleted it, or it never became readable).
      if (res.statusCode < 300) deleted++;
      else if (res.statusCode !== 404 && res.statusCode !== 410) { failed.push(`${entry.kind} ${entry.id} (${res.statusCode})`); left.push(entry); }
    } catch (err) {
      silent++;
      failed.push(`${entry.kind} ${entry.id} (${(err as Error).name === 'TimeoutError' ? 'no answer in time' : (err as Error).message})`);
      left.push(entry);
    }
    o.progress?.(unique.length - n - 1, unique.length);
  }
  if (left.length) writeFileSync(o.ledgerFile, left.map((c) => JSON.stringify(c)).join('\n') + '\n');
  else rmSync(o.ledgerFile, { force: true });
  return { created: unique.length, deleted, failed, left };
}
