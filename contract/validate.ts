// Validates answers (and the suite's own request bodies) against an OpenAPI document with ajv,
// strictly: no coercion, no removal of unknown members, every documented status only. One JSON
// Schema dialect, 2020-12 (OpenAPI 3.1's; the loader upgrades 3.0), so `unevaluatedProperties`,
// type arrays and `$ref` beside other keywords mean what they say. Used by the project's tests on the
// reference and, by the conformance suite, on any deployment (served document and bundled contract).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { guardedRegExp, PatternTooSlow } from './guarded-pattern.ts';
import { linearUniqueItems } from './unique-items.ts';
import type { OpenApiReader } from './openapi-reader.ts';
import { fragmentOf } from './openapi-loader.ts';

/** `notRun`: the schema could not be compiled (a pattern JS cannot read…): nothing was checked, and why. */
export interface ResponseCheck { ok: boolean; problems: string[]; notRun?: string }

type Compiled = { validate: ValidateFunction } | { error: string } | null;

export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, Compiled>();

  constructor(readonly reader: OpenApiReader, readonly documentId = 'openapi') {
    // validateSchema off: the document as a whole is not a JSON Schema, only its schema fragments are.
    // Formats are not asserted: a deployment's `format` is a hint in 2020-12, and an unknown one is no error.
    this.ajv = new Ajv2020({
      strict: false, allErrors: true, validateSchema: false, validateFormats: false, coerceTypes: false, removeAdditional: false, useDefaults: false, logger: false,
      // The document's patterns run on the target's strings in bounded time (guarded-pattern.ts).
      // Compiled for a short life: a conformance run compiles each schema it meets afresh (a run's
      // worker is a new thread, and the self-test makes some two hundred runs), and validates a few
      // answers with it. ajv's optimizing pass and the inlining of every referenced schema into each
      // that refers to it were half of that compile time; neither changes what a schema accepts or
      // the errors it reports (instance path, keyword, message), only how the code is laid out.
      code: { regExp: guardedRegExp as never, optimize: false },
      inlineRefs: false,
    });
    linearUniqueItems(this.ajv);
    // ajv resolves the document's own $refs from its normal form (schemas keep their names in errors).
    this.ajv.addSchema({ $id: documentId, paths: reader.normal.paths, components: reader.normal.components }, documentId);
  }

  /** Checks status declared, JSON content type, envelope and body schema of one response. */
  check(operationId: string, status: number, contentType: string | undefined, body: unknown): ResponseCheck {
    const op = this.reader.operation(operationId);
    if (!op) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const key = this.reader.responseKey(operationId, status);
    if (!key) return { ok: false, problems: [`status ${status} is not declared for ${operationId} (declared: ${this.reader.statuses(operationId).join(', ')})`] };
    const problems: string[] = [];
    if (this.reader.declaresJson(operationId, key) && !/^application\/(?:[^;/]+\+)?json\b/i.test(contentType ?? '')) problems.push(`content-type is '${contentType}', expected application/json`);
    return this.judge(this.compiled(operationId, key), body, problems);
  }

  /** Checks a body against the operation's declared success schema, whatever its exact 2xx status. */
  checkSuccessBody(operationId: string, body: unknown): ResponseCheck {
    if (!this.reader.operation(operationId)) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const key = this.reader.successKey(operationId);
    return key ? this.judge(this.compiled(operationId, key), body) : { ok: true, problems: [] };
  }

  /** Checks a request body the suite is about to send as valid against the operation's request schema. */
  checkRequest(operationId: string, body: unknown): ResponseCheck {
    if (!this.reader.operation(operationId)) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    return this.judge(this.compiled(operationId, 'request'), body);
  }

  /** Checks any value against a named component (e.g. ErrorEnvelope). */
  checkComponent(name: string, value: unknown): ResponseCheck {
    const ref = `${this.documentId}${fragmentOf(['components', 'schemas', name])}`;
    if (!this.cache.has(ref)) this.cache.set(ref, Object.prototype.hasOwnProperty.call(this.reader.normal.components?.schemas ?? {}, name) ? this.compile(ref) : null);
    const compiled = this.cache.get(ref);
    if (!compiled) return { ok: false, problems: [`component ${name} is not in the document`] };
    return this.judge(compiled, value);
  }

  private judge(compiled: Compiled, body: unknown, problems: string[] = []): ResponseCheck {
    if (compiled && 'error' in compiled) return { ok: problems.length === 0, problems, notRun: compiled.error };
    try {
      if (compiled && !compiled.validate(body)) problems.push(...formatErrors(compiled.validate.errors));
    } catch (err) {
      if (err instanceof PatternTooSlow) return { ok: problems.length === 0, problems, notRun: err.message };
      throw err;
    }
    return { ok: problems.length === 0, problems };
  }

  private compile(ref: string): Compiled {
    try {
      return { validate: this.ajv.compile({ $ref: ref }) };
    } catch (err) {
      return { error: `its schema cannot be compiled: ${(err as Error).message.split('\n')[0].slice(0, 200)}` };
    }
  }

  /** The compiled schema of a response key or the request body; null when the document declares none. */
  private compiled(operationId: string, of: 'request' | string): Compiled {
    const at = this.reader.schemaLocation(operationId, of);
    const cacheKey = `${operationId} ${of}`;
    if (!this.cache.has(cacheKey)) {
      const declared = of === 'request' ? this.reader.requestSchema(operationId) : this.reader.responseSchema(operationId, of);
      this.cache.set(cacheKey, !declared ? null : at ? this.compile(`${this.documentId}${fragmentOf(at)}`) : { error: 'its schema could not be located in the document' });
    }
    return this.cache.get(cacheKey)!;
  }
}

export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 10).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
      : e.keyword === 'unevaluatedProperties' ? ` '${(e.params as { unevaluatedProperty: string }).unevaluatedProperty}'`
        : e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : '';
    return `${where} ${e.message}${extra}`;
  });
}
