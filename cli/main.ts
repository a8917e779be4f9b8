// The dispatcher of the installed command: `simulation-conformance <command> [options]`. It loads
// only the module of the command asked for, so `--help` and a mistyped option answer at once.
import { readFileSync } from 'node:fs';
import { BIN, runCommand, type Main } from './common/command.ts';

const COMMANDS: Record<string, { about: string; load: () => Promise<{ main: Main }> }> = {
  conformance: { about: 'check a deployment (or the embedded reference) against SPEC.md; JUnit, JSON and HTML reports', load: () => import('./conformance.ts') },
  load: { about: 'load-test a deployment at its plan tier (k6 when installed, else the built-in Node runner)', load: () => import('./load.ts') },
  serve: { about: 'run the reference deployment', load: () => import('./serve.ts') },
};

const HELP = `Usage: ${BIN} <command> [options]

Conformance suite and reference deployment of the Simulation Service interface.

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(13)} ${c.about}`).join('\n')}

${BIN} <command> --help lists the options of a command.
`;

const [name, ...argv] = process.argv.slice(2);
if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
  process.stdout.write(HELP);
  process.exit(name === undefined ? 2 : 0);
}
if (name === '-v' || name === '--version') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}
const command = COMMANDS[name];
if (!command) {
  process.stderr.write(`${BIN}: '${name}' is not a command: one of ${Object.keys(COMMANDS).join(', ')} (see ${BIN} --help)\n`);
  process.exit(2);
}
runCommand(name, (await command.load()).main, argv, `${BIN} ${name}`);
