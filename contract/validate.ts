// Validates responses against an OpenAPI document with ajv, strictly: no coercion, no removal of
// unknown members, every documented status only. Used by the project's tests on the reference and,
// by the conformance suite, on any deployment (served document and bundled contract alike).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

type Json = Record<string, any>;
export interface ResponseCheck { ok: boolean; problems: string[] }

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction | null>();
  private readonly byId = new Map<string, { path: string; method: string }>();
  private readonly byRoute = new Map<string, string>();

  constructor(readonly document: Json, readonly documentId = 'openapi') {
    // validateSchema off: the document as a whole is not a JSON Schema, only its schema fragments are.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
    this.ajv.addSchema({ $id: documentId, paths: document.paths, components: document.components }, documentId);
    for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (!op?.operationId) continue;
        this.byId.set(op.operationId, { path, method });
        this.byRoute.set(routeKey(method, path), op.operationId);
      }
    }
  }

  /** The operationId of a route in this document (another deployment may name its operations differently). */
  operationAt(method: string, pathTemplate: string): string | undefined {
    return this.byRoute.get(routeKey(method, pathTemplate));
  }

  /** Raw operation object of the document. */
  operation(operationId: string): Json | undefined {
    const op = this.byId.get(operationId);
    return op ? this.document.paths[op.path][op.method] : undefined;
  }

  operations(): Array<{ operationId: string; path: string; method: string }> {
    return [...this.byId].map(([operationId, v]) => ({ operationId, ...v }));
  }

  /** Checks status declared, JSON content type, envelope and body schema of one response. */
  check(operationId: string, status: number, contentType: string | undefined, body: unknown): ResponseCheck {
    const op = this.byId.get(operationId);
    if (!op) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const responses = this.document.paths[op.path][op.method].responses ?? {};
    const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : 'default' in responses ? 'default' : undefined;
    if (!key) return { ok: false, problems: [`status ${status} is not declared for ${operationId} (declared: ${Object.keys(responses).join(', ')})`] };
    const problems: string[] = [];
    const media = responses[key].content?.['application/json'];
    if (media && !/^application\/json\b/i.test(contentType ?? '')) problems.push(`content-type is '${contentType}', expected application/json`);
    const validate = this.compile(op.path, op.method, key);
    if (validate && !validate(body)) problems.push(...formatErrors(validate.errors));
    return { ok: problems.length === 0, problems };
  }

  /** Checks a body against the operation's declared success schema, whatever its exact 2xx status. */
  checkSuccessBody(operationId: string, body: unknown): ResponseCheck {
    const op = this.byId.get(operationId);
    if (!op) return { ok: false, problems: [`operation ${operationId} is not in the document`] };
    const key = Object.keys(this.document.paths[op.path][op.method].responses ?? {}).find((k) => /^2/.test(k));
    if (!key) return { ok: true, problems: [] };
    const validate = this.compile(op.path, op.method, key);
    if (!validate || validate(body)) return { ok: true, problems: [] };
    return { ok: false, problems: formatErrors(validate.errors) };
  }

  /** Checks any value against a named component (e.g. ErrorEnvelope). */
  checkComponent(name: string, value: unknown): ResponseCheck {
    const ref = `${this.documentId}#/components/schemas/${encodeURIComponent(name)}`;
    if (!this.cache.has(ref)) this.cache.set(ref, this.document.components?.schemas?.[name] ? this.ajv.compile({ $ref: ref }) : null);
    const validate = this.cache.get(ref);
    if (!validate) return { ok: false, problems: [`component ${name} is not in the document`] };
    return validate(value) ? { ok: true, problems: [] } : { ok: false, problems: formatErrors(validate.errors) };
  }

  private compile(path: string, method: string, status: string): ValidateFunction | null {
    const ref = `${this.documentId}#/${pointer('paths', path, method, 'responses', status, 'content', 'application/json', 'schema')}`;
    if (!this.cache.has(ref)) {
      const exists = this.document.paths[path][method].responses[status].content?.['application/json']?.schema;
      this.cache.set(ref, exists ? this.ajv.compile({ $ref: ref }) : null);
    }
    return this.cache.get(ref)!;
  }
}

/** Path templates compare by shape: /worlds/{id} equals /worlds/{worldId}. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 10).map((e) => {
    const where = e.instancePath || '(root)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'`
      : e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : '';
    return `${where} ${e.message}${extra}`;
  });
}
