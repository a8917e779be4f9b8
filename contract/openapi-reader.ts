// The one reader of OpenAPI documents: operations by operationId or by route, their request and
// response schemas, and their declared statuses, over swagger-parser's dereferenced document (no
// `$ref` resolved by hand, no hand walk of `paths` anywhere else). Every deployment's document, the
// bundled contract included, is read the same way.
import SwaggerParser from '@apidevtools/swagger-parser';

type Json = Record<string, any>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

export interface Operation {
  operationId: string;
  /** Lower case, as the document keys it. */
  method: string;
  /** Path template as the document writes it (`/worlds/{id}`). */
  path: string;
  /** The operation object, dereferenced. */
  spec: Json;
  /** Whether the operation asks for the key (its security is not an explicit empty list). */
  secured: boolean;
}

/** Path templates compare by shape: /worlds/{id} equals /worlds/{worldId}. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

export class OpenApiReader {
  private readonly byId = new Map<string, Operation>();
  private readonly byRoute = new Map<string, Operation>();

  private constructor(readonly raw: Json, readonly dereferenced: Json) {
    for (const [path, item] of Object.entries<Json>(dereferenced.paths ?? {})) {
      if (!item || typeof item !== 'object') continue;
      for (const [method, spec] of Object.entries<Json>(item)) {
        if (!METHODS.has(method) || !spec || typeof spec !== 'object') continue;
        const op: Operation = { operationId: spec.operationId ?? routeKey(method, path), method, path, spec, secured: !(Array.isArray(spec.security) && spec.security.length === 0) };
        this.byId.set(op.operationId, op);
        this.byRoute.set(routeKey(method, path), op);
      }
    }
  }

  /** Reads a document (left untouched); a document that cannot be dereferenced is read as it is. */
  static async load(raw: Json): Promise<OpenApiReader> {
    const copy = structuredClone(raw ?? {});
    let dereferenced: Json = copy;
    try {
      dereferenced = await SwaggerParser.dereference(copy as never, { dereference: { circular: 'ignore' } } as never) as unknown as Json;
    } catch {
      // A broken document: what can be read is read; OAS-1 says what is wrong with it.
    }
    return new OpenApiReader(raw ?? {}, dereferenced);
  }

  /** The operations of a document at once, without dereferencing: for routing, not for schemas. */
  static index(raw: Json): OpenApiReader {
    return new OpenApiReader(raw ?? {}, raw ?? {});
  }

  operations(): Operation[] {
    return [...this.byId.values()];
  }

  operation(operationId: string): Operation | undefined {
    return this.byId.get(operationId);
  }

  /** The operation of a route in this document (another deployment may name its operations differently). */
  operationAt(method: string, pathTemplate: string): Operation | undefined {
    return this.byRoute.get(routeKey(method, pathTemplate));
  }

  /** Every path template of the document. */
  paths(): string[] {
    return Object.keys(this.dereferenced.paths ?? {});
  }

  /** The JSON request body schema of an operation, dereferenced. */
  requestSchema(operationId: string): Json | undefined {
    return this.byId.get(operationId)?.spec.requestBody?.content?.['application/json']?.schema;
  }

  /** Declared response statuses (`200`, `4XX`, `default`…). */
  statuses(operationId: string): string[] {
    return Object.keys(this.byId.get(operationId)?.spec.responses ?? {});
  }

  /** The declared response key matching a status: exact, then `4XX`, then `default`. */
  responseKey(operationId: string, status: number): string | undefined {
    const declared = this.statuses(operationId);
    const range = `${String(status)[0]}XX`;
    return declared.includes(String(status)) ? String(status) : declared.includes(range) ? range : declared.includes('default') ? 'default' : undefined;
  }

  /** The JSON schema of a response, dereferenced. */
  responseSchema(operationId: string, key: string): Json | undefined {
    return this.byId.get(operationId)?.spec.responses?.[key]?.content?.['application/json']?.schema;
  }

  /** Whether a response declares a JSON body. */
  declaresJson(operationId: string, key: string): boolean {
    return !!this.byId.get(operationId)?.spec.responses?.[key]?.content?.['application/json'];
  }
}
