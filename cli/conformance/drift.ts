// Differences between the bundled contract (SPEC.md) and the document a deployment serves:
// operations one has and the other lacks, and statuses of shared operations declared only on one side.
import { routeKey } from '../../contract/validate.ts';

type Json = Record<string, any>;

function operations(doc: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) if (op && typeof op === 'object' && op.responses) out.set(routeKey(method, path), op);
  }
  return out;
}

export function drift(bundled: Json, served: Json): string[] {
  const a = operations(bundled);
  const b = operations(served);
  const lines: string[] = [];
  for (const key of a.keys()) if (!b.has(key)) lines.push(`missing in the served document: ${key}`);
  for (const key of b.keys()) if (!a.has(key)) lines.push(`only in the served document: ${key}`);
  for (const [key, op] of a) {
    const other = b.get(key);
    if (!other) continue;
    const mine = Object.keys(op.responses).sort();
    const theirs = Object.keys(other.responses).sort();
    const onlyMine = mine.filter((s) => !theirs.includes(s));
    const onlyTheirs = theirs.filter((s) => !mine.includes(s));
    if (onlyMine.length || onlyTheirs.length) {
      lines.push(`${key}: statuses ${onlyMine.length ? `only in the contract ${onlyMine.join(',')}` : ''}${onlyMine.length && onlyTheirs.length ? '; ' : ''}${onlyTheirs.length ? `only served ${onlyTheirs.join(',')}` : ''}`);
    }
  }
  return lines;
}
