// npm run build:contract: writes the reference's document (contract/openapi.json) from the schemas,
// and the SPEC contract derived from it (contract/spec.json: what SPEC.md states and nothing more).
// The snapshot tests fail while a committed file differs, so every interface change is reviewed.
import { writeFileSync } from 'node:fs';
import { buildOpenApi } from './openapi.ts';
import { buildSpecContract } from './spec-contract.ts';

const reference = buildOpenApi();
writeFileSync(new URL('./openapi.json', import.meta.url), JSON.stringify(reference, null, 2) + '\n');
writeFileSync(new URL('./spec.json', import.meta.url), JSON.stringify(buildSpecContract(reference), null, 2) + '\n');
process.stdout.write('wrote contract/openapi.json and contract/spec.json\n');
