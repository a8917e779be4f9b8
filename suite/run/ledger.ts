// Everything the run created is soft-deleted at the end, after a failure, the deadline or Ctrl-C
// too. Two sources say what: the ledger (one JSON line per created world or persona, written before
// the check goes on) and the lists, where everything the run made carries its name `cf-<run id>`
// (suite/run/sweep.ts): the ledger misses what a broken answer did not name. After a cleanup the
// ledger keeps only what could not be removed, so that `npm run conformance -- --cleanup <ledger>`
// can finish the job later. It never holds a key.
//
// The counts tell apart what the cleanup soft-deleted, what was already gone when it came (a check
// had deleted it: 404 or 410) and what is left behind (a DELETE refused or unanswered, or a record
// still listed after its DELETE answered 2xx).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'undici';
import { transport } from '../http/transport.ts';
import { deadline } from '../http/deadline.ts';
import { sweep, worldPersonas, type Kind } from './sweep.ts';

export interface Created { kind: Kind; id: string; baseUrl?: string; runId?: string }

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
  /** The run's id: the lists are searched for `cf-<run id>` too (without it, the ledger only). */
  runId?: string;
  /** Passes over the ledger and the lists, 300 ms apart: a request in flight when the run stopped may still create something. */
  passes?: number;
  maxBodyBytes?: number;
}

export interface CleanupResult {
  /** Distinct records the run created, from the ledger or found by name. */
  created: number;
  /** Soft-deleted by this cleanup. */
  deleted: number;
  /** Gone before the cleanup came (404 or 410): a check had deleted them. */
  alreadyDeleted: number;
  /** Of `created`, those found only by name in the lists (the ledger did not have them). */
  foundByName: number;
  /** Why each record left behind is there. */
  failed: string[];
  /** Left behind: still on the target. */
  left: Created[];
  /** Personas removed from worlds that would not go themselves. */
  worldPersonasRemoved: number;
  /** Lists that could not be read: what the ledger missed may be left there. */
  unlisted: string[];
}

type State = 'deleted' | 'already' | 'left';
interface Entry { c: Created; state?: State; why?: string; byName: boolean }

const keyOf = (c: { kind: Kind; id: string }) => `${c.kind} ${c.id}`;
const pathOf = (c: { kind: Kind; id: string }) => `/${c.kind === 'world' ? 'worlds' : 'personas'}/${encodeURIComponent(c.id)}`;

/** Soft-deletes what the run created; the ledger is rewritten with what is left, or removed when nothing is. */
export async function cleanup(o: CleanupOptions): Promise<CleanupResult> {
  const entries = new Map<string, Entry>();
  const unlisted: string[] = [];
  let worldPersonasRemoved = 0;
  // A target that stopped answering (a tick that never ends) is not waited for once per resource.
  let silent = 0;
  let listsSilent = false;

  const del = async (path: string, baseUrl = o.baseUrl): Promise<{ status: number; why?: string }> => {
    const remaining = o.until - Date.now();
    if (remaining <= 0 || o.abandon?.aborted) return { status: 0, why: 'not tried: out of time' };
    if (silent >= 3) return { status: 0, why: 'not tried: the target stopped answering' };
    const timeoutMs = Math.max(1, Math.min(o.timeoutMs, remaining));
    const { signal, clear } = deadline(timeoutMs, o.abandon);
    try {
      const res = await request(baseUrl + path, { method: 'DELETE', headers: { 'x-api-key': o.apiKey }, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, ...transport('DELETE', o.maxBodyBytes) });
      await res.body.dump();
      silent = 0;
      return { status: res.statusCode };
    } catch (err) {
      silent++;
      return { status: 0, why: (err as Error).name === 'TimeoutError' ? 'no answer in time' : (err as Error).message };
    } finally {
      clear();
    }
  };

  const passes = Math.max(1, o.passes ?? 1);
  for (let pass = 0; pass < passes; pass++) {
    if (pass > 0) {
      if (o.abandon?.aborted || Date.now() >= o.until) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    // This pass's work: the ledger as it is now, then what the lists still show with the run's name.
    const todo: Entry[] = [];
    for (const c of readLedger(o.ledgerFile)) {
      const e = entries.get(keyOf(c)) ?? { c, byName: false };
      entries.set(keyOf(c), e);
      if (e.state !== 'deleted' && e.state !== 'already') todo.push(e);
    }
    const listed = new Set<string>();
    // A target that stopped answering is asked for its lists once, not once a pass.
    if (o.runId && !o.abandon?.aborted && !listsSilent && silent < 3) {
      const found = await sweep({ baseUrl: o.baseUrl, apiKey: o.apiKey, runId: o.runId, timeoutMs: o.timeoutMs, until: o.until, abandon: o.abandon, maxBodyBytes: o.maxBodyBytes });
      listsSilent = found.silent;
      unlisted.splice(0, unlisted.length, ...found.problems);
      for (const f of found.found) {
        const k = keyOf(f);
        listed.add(k);
        const e = entries.get(k) ?? { c: { ...f, baseUrl: o.baseUrl, runId: o.runId }, byName: true };
        entries.set(k, e);
        if (!todo.includes(e)) todo.push(e);
      }
    }
    for (const [n, e] of todo.entries()) {
      const { status, why } = await del(pathOf(e.c), e.c.baseUrl ?? o.baseUrl);
      const wasDeleted = e.state === 'deleted';
      if (status >= 200 && status < 300) {
        // Soft-deleted earlier, still listed, and DELETE "succeeds" again: it does nothing.
        if (wasDeleted && listed.has(keyOf(e.c))) { e.state = 'left'; e.why = `${keyOf(e.c)} (still listed after DELETE answered ${status})`; }
        else e.state = 'deleted';
      } else if (status === 404 || status === 410) {
        if (!wasDeleted) e.state = 'already';
      } else {
        e.state = 'left';
        e.why = `${keyOf(e.c)} (${why ?? status})`;
      }
      o.progress?.(todo.length - n - 1, todo.length);
    }
  }

  // A world of the run that would not go: its personas are removed one by one, so none stays usable.
  for (const e of entries.values()) {
    if (e.state !== 'left' || e.c.kind !== 'world' || silent >= 3 || listsSilent) continue;
    const sweepOptions = { baseUrl: e.c.baseUrl ?? o.baseUrl, apiKey: o.apiKey, runId: o.runId ?? '', timeoutMs: o.timeoutMs, until: o.until, abandon: o.abandon, maxBodyBytes: o.maxBodyBytes };
    for (const pid of await worldPersonas(sweepOptions, e.c.id)) {
      const { status } = await del(`${pathOf(e.c)}/personas/${encodeURIComponent(pid)}`, sweepOptions.baseUrl);
      if (status >= 200 && status < 300) worldPersonasRemoved++;
    }
  }

  const all = [...entries.values()];
  const left = all.filter((e) => e.state === 'left' || e.state === undefined).map((e) => e.c);
  if (left.length) writeFileSync(o.ledgerFile, left.map((c) => JSON.stringify(c)).join('\n') + '\n');
  else rmSync(o.ledgerFile, { force: true });
  return {
    created: all.length,
    deleted: all.filter((e) => e.state === 'deleted').length,
    alreadyDeleted: all.filter((e) => e.state === 'already').length,
    foundByName: all.filter((e) => e.byName).length,
    failed: all.filter((e) => e.state === 'left' && e.why).map((e) => e.why!),
    left,
    worldPersonasRemoved,
    unlisted,
  };
}

/** The cleanup's line: what it removed, what was already gone, and the truth about what is left. */
export function describeCleanup(r: CleanupResult, ledgerFile: string): string {
  const parts = [`soft-deleted ${r.deleted} of ${r.created} resources the run created`];
  const notes = [
    r.alreadyDeleted ? `${r.alreadyDeleted} already deleted by its checks` : '',
    r.foundByName ? `${r.foundByName} found by the run's name in the lists, not in the ledger` : '',
  ].filter(Boolean);
  if (notes.length) parts[0] += ` (${notes.join('; ')})`;
  if (r.left.length) {
    parts.push(`${r.left.length} left behind, listed in ${ledgerFile} (remove them later with --cleanup ${ledgerFile})${r.failed.length ? `: ${r.failed.slice(0, 5).join(', ')}${r.failed.length > 5 ? ', …' : ''}` : ''}`);
    if (r.worldPersonasRemoved) parts.push(`${r.worldPersonasRemoved} personas removed from the worlds left behind`);
  } else parts.push(r.unlisted.length ? 'nothing left behind that the ledger names' : 'nothing left behind');
  // Without the lists, what the ledger missed cannot be seen: say so rather than claim a clean target.
  if (r.unlisted.length) parts.push(`the lists could not be read (${r.unlisted.slice(0, 2).join(', ')}): records the ledger missed may remain`);
  return parts.join('; ');
}
