// Validates responses against an OpenAPI document with ajv, strictly: no coercion, no removal of
// unknown members, every documented status only. Used by the project's tests on the reference and,
// by the conformance suite, on any deployment (served document and bundled contract alike).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { OpenApiReader } from './openapi-reader.ts';

export interface ResponseCheck { ok: boolean; problems: string[] }

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();

  constructor(readonly reader: OpenApiReader, readonly documentId = 'openapi') {
    // validateSchema off: the document as a whole is not a JSON Schema, only its schema fragments are.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
    // ajv resolves the document's own $refs from its raw form (schemas keep their names in errors).
    this.ajv.addSchema({ $id: documentId, paths: reader.raw.paths, components: reader.raw.components }, documentId);
  }

  /** Checks status declared, JSON content type, envelope and body schema of one response. */
  check(operationId: string, status: number, contentType: string | undefined, body: unknown): ResponseCheck {
    const op = this.reader.operation(operationId);
    if (!op) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const key = this.reader.responseKey(operationId, status);
    if (!key) return { ok: false, problems: [`status ${status} is not declared for ${operationId} (declared: ${this.reader.statuses(operationId).join(', ')})`] };
    const problems: string[] = [];
    if (this.reader.declaresJson(operationId, key) && !/^application\/json\b/i.test(contentType ?? '')) problems.push(`content-type is '${contentType}', expected application/json`);
    const validate = this.compile(operationId, key);
    if (validate && !validate(body)) problems.push(...formatErrors(validate.errors));
    return { ok: problems.length === 0, problems };
  }

  /** Checks a body against the operation's declared success schema, whatever its exact 2xx status. */
  checkSuccessBody(operationId: string, body: unknown): ResponseCheck {
    if (!this.reader.operation(operationId)) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const key = this.reader.statuses(operationId).find((k) => /^2/.test(k));
    if (!key) return { ok: true, problems: [] };
    const validate = this.compile(operationId, key);
    if (!validate || validate(body)) return { ok: true, problems: [] };
    return { ok: false, problems: formatErrors(validate.errors) };
  }

  /** Checks any value against a named component (e.g. ErrorEnvelope). */
  checkComponent(name: string, value: unknown): ResponseCheck {
    const ref = `${this.documentId}#/components/schemas/${encodeURIComponent(name)}`;
    if (!this.cache.has(ref)) this.cache.set(ref, this.reader.raw.components?.schemas?.[name] ? this.ajv.compile({ $ref: ref }) : null);
    const validate = this.cache.get(ref);
    if (!validate) return { ok: false, problems: [`component ${name} is not in the document`] };
    return validate(value) ? { ok: true, problems: [] } : { ok: false, problems: formatErrors(validate.errors) };
  }

  private compile(operationId: string, status: string): ValidateFunction | null {
    const op = this.reader.operation(operationId)!;
    const ref = `${this.documentId}#/${pointer('paths', op.path, op.method, 'responses', status, 'content', 'application/json', 'schema')}`;
    if (!this.cache.has(ref)) this.cache.set(ref, this.reader.responseSchema(operationId, status) ? this.ajv.compile({ $ref: ref }) : null);
    return this.cache.get(ref)!;
  }
}


export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 10).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
      : e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : '';
    return `${where} ${e.message}${extra}`;
  });
}
