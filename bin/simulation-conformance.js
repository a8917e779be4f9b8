#!/usr/bin/env node
// The installed command: `simulation-conformance conformance|load|serve [options]`. The project is
// TypeScript run as written (no build step, as `npm run` does with tsx): tsx's loader is registered
// first, then the dispatcher loads only the subcommand asked for.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
