// The two documents a run reads, loaded once per worker: the bundled contract (SPEC.md's shapes) and
// the document the deployment serves (its own promise), each with its response validator.
import { readFileSync } from 'node:fs';
import { OpenApiReader, pathnameOf } from '../../contract/openapi-reader.ts';
import { ResponseValidator } from '../../contract/validate.ts';
import { forgetSlowPatterns } from '../../contract/guarded-pattern.ts';
import { suiteConfig } from '../data/config.ts';
import { runScoped } from '../data/run-scope.ts';

/** The bundled contract: the SPEC contract, what SPEC.md states and nothing more (contract/spec.json). */
export const bundledContract = (): Record<string, any> => JSON.parse(readFileSync(new URL('../../contract/spec.json', import.meta.url), 'utf8'));

export interface Documents {
  bundled: OpenApiReader;
  served: OpenApiReader;
  validators: { bundled: ResponseValidator; served: ResponseValidator };
}

/** The last documents read in this process, by their text and base URL: the self-test reads the same ones a hundred times. */
const recent = new Map<string, Promise<Documents>>();

/** `baseUrl`: the run's --base-url, whose path a served document may write into its paths. */
export function loadDocuments(bundledDocument: Record<string, any>, servedDocument: Record<string, any>, baseUrl?: string): Promise<Documents> {
  // Only the base URL's path changes what is read: the self-test's proxies differ by port alone.
  const key = `${pathnameOf(baseUrl ?? '')}\n${JSON.stringify(bundledDocument)}\n${JSON.stringify(servedDocument)}`;
  if (!recent.has(key)) {
    if (recent.size >= 4) recent.delete(recent.keys().next().value!);
    recent.set(key, readDocuments(bundledDocument, servedDocument, baseUrl));
  }
  return recent.get(key)!;
}

async function readDocuments(bundledDocument: Record<string, any>, servedDocument: Record<string, any>, baseUrl?: string): Promise<Documents> {
  // Both were checked against the meta-schema already: the bundled contract by its tests, the served
  // document by the preflight (a document it refused is empty here). OAS-1 checks the served one again.
  const [bundled, served] = await Promise.all([OpenApiReader.load(bundledDocument, { validated: true }), OpenApiReader.load(servedDocument, { basePath: baseUrl, validated: true })]);
  return { bundled, served, validators: { bundled: new ResponseValidator(bundled, 'bundled'), served: new ResponseValidator(served, 'served') } };
}

let loaded: Documents | undefined;
runScoped(() => { loaded = undefined; forgetSlowPatterns(); });
/** The run's documents inside a scenario worker (loaded by the setup file before any check). */
export function documents(): Documents {
  if (!loaded) throw new Error('suite: the documents are not loaded (the setup file suite/scenario/setup.ts loads them)');
  return loaded;
}
export async function loadRunDocuments(): Promise<Documents> {
  const config = suiteConfig();
  loaded ??= await loadDocuments(config.bundledDocument, config.servedDocument, config.baseUrl);
  return loaded;
}
