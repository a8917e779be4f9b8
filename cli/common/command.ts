// How a command runs: as `npm run <command>` (its own module is the entry) or as a subcommand of
// the installed `simulation-conformance` (cli/main.ts imports the module and calls its main). Either
// way main() resolves with the exit status, and what it throws is one line and exit 2 (exitWith).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { exitWith } from './errors.ts';

/** A command: argv without the command's own name; `invokedAs` is how the user typed it, for --help. */
export type Main = (argv: string[], env: NodeJS.ProcessEnv, invokedAs: string) => Promise<number>;

/** The name of the installed command (package.json "bin"). */
export const BIN = 'simulation-conformance';

/** True when the module at `url` is the script node was started with (`node --import tsx cli/load.ts`). */
export const isEntry = (url: string) => url === pathToFileURL(process.argv[1] ?? '').href;

/** Runs a command to its end and exits with its status (workers and sockets may still be open). */
export function runCommand(name: string, main: Main, argv: string[], invokedAs: string): void {
  // The packages' JavaScript loads as plain Node loads it, past tsx (a command's memory: cli/common/plain-packages.js).
  register('./plain-packages.js', import.meta.url);
  main(argv, process.env, invokedAs).then((code) => process.exit(code), (err) => exitWith(name, err));
}
