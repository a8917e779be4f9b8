// Everything the run created is soft-deleted at the end, after a failure or Ctrl-C too: the ledger
// (one JSON line per created world or persona, written before the scenario goes on) says what.
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'undici';

export interface Created { kind: 'world' | 'persona'; id: string }

export function readLedger(file: string): Created[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).flatMap((line) => {
    try { return [JSON.parse(line) as Created]; } catch { return []; }
  });
}

/** Soft-deletes what the ledger lists; returns how many were deleted and what could not be. */
export async function cleanup(baseUrl: string, apiKey: string, ledgerFile: string, timeoutMs: number) {
  const created = readLedger(ledgerFile);
  let deleted = 0;
  const failed: string[] = [];
  // A target that stopped answering (a tick that never ends) is not waited for once per resource.
  let silent = 0;
  for (const { kind, id } of created) {
    if (silent >= 3) { failed.push(`${kind} ${id} (not tried: the target stopped answering)`); continue; }
    const path = `/${kind === 'world' ? 'worlds' : 'personas'}/${encodeURIComponent(id)}`;
    try {
      const res = await request(baseUrl + path, { method: 'DELETE', headers: { 'x-api-key': apiKey }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      await res.body.text();
      silent = 0;
      // 404: already gone (a scenario deleted it, or it never became readable).
      if (res.statusCode < 300 || res.statusCode === 404) deleted += res.statusCode < 300 ? 1 : 0;
      else failed.push(`${kind} ${id} (${res.statusCode})`);
    } catch (err) {
      silent++;
      failed.push(`${kind} ${id} (${(err as Error).message})`);
    }
  }
  return { created: created.length, deleted, failed };
}
