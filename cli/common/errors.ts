// A command that cannot start says why in one line and exits 2 (0 pass, 1 fail, 2 could
// not start). Only UsageError is shown as is; anything else is a fault of the tool itself.
import { UsageError } from '../../suite/data/errors.ts';

export { UsageError };

export function exitWith(command: string, err: unknown): never {
  if (err instanceof UsageError) {
    process.stderr.write(`${command}: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  process.stderr.write(`${command}: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(2);
}
