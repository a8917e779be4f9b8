// npm run build:contract: writes the bundled contract (contract/openapi.json) from the schemas.
// The snapshot test fails while the committed file differs, so every interface change is reviewed.
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from './openapi.ts';

const target = new URL('./openapi.json', import.meta.url);
writeFileSync(target, JSON.stringify(buildOpenApi(), null, 2) + '\n');
process.stdout.write(`wrote contract/openapi.json\n`);
