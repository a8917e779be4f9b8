// Differences between the bundled contract (SPEC.md) and the document a deployment serves:
// operations one has and the other lacks, and statuses of shared operations declared only on one side.
import { routeKey, type OpenApiReader } from '../../contract/openapi-reader.ts';

export function drift(bundled: OpenApiReader, served: OpenApiReader): string[] {
  const lines: string[] = [];
  for (const op of bundled.operations()) if (!served.operationAt(op.method, op.path)) lines.push(`missing in the served document: ${routeKey(op.method, op.path)}`);
  for (const op of served.operations()) if (!bundled.operationAt(op.method, op.path)) lines.push(`only in the served document: ${routeKey(op.method, op.path)}`);
  for (const op of bundled.operations()) {
    const other = served.operationAt(op.method, op.path);
    if (!other) continue;
    const mine = bundled.statuses(op.operationId).sort();
    const theirs = served.statuses(other.operationId).sort();
    const onlyMine = mine.filter((s) => !theirs.includes(s));
    const onlyTheirs = theirs.filter((s) => !mine.includes(s));
    if (onlyMine.length || onlyTheirs.length) {
      lines.push(`${routeKey(op.method, op.path)}: statuses ${[onlyMine.length ? `only in the contract ${onlyMine.join(',')}` : '', onlyTheirs.length ? `only served ${onlyTheirs.join(',')}` : ''].filter(Boolean).join('; ')}`);
    }
  }
  return lines;
}
