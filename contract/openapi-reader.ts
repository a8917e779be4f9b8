// The one reader of OpenAPI documents: operations by operationId or by route, their request and
// response schemas, and their declared statuses, over the loader's normal form (openapi-loader.ts:
// any legal style, 3.0 or 3.1, same-document references only). Every deployment's document, the
// bundled contract included, is read the same way; nothing downstream walks a document by hand.
import { jsonContentKey, loadOpenApi, locate, type LoadedDocument, type LoadOptions } from './openapi-loader.ts';

type Json = Record<string, any>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

export interface Operation {
  operationId: string;
  /** Lower case, as the document keys it. */
  method: string;
  /** Path template as the document writes it (`/worlds/{id}`). */
  path: string;
  /** The operation object, dereferenced (a recursive schema in it is a cycle of objects). */
  spec: Json;
  /** Whether the operation asks for the key (its security is not an explicit empty list). */
  secured: boolean;
}

/** Path templates compare by shape: /worlds/{id} equals /worlds/{worldId}. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/** The path part of a URL or of a server's url, without a trailing slash ('' for the root). */
/** The path of a URL (absolute or not), without a trailing slash. */
export const pathnameOf = (url: string) => {
  try {
    return new URL(url, 'http://server.invalid/').pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
};

export interface ReaderOptions extends LoadOptions {
  /** The path of the run's --base-url: a document that writes it into its paths (servers at the root) still matches. */
  basePath?: string;
}

export class OpenApiReader {
  private readonly byId = new Map<string, Operation>();
  private readonly byRoute = new Map<string, Operation>();

  private constructor(readonly loaded: LoadedDocument, options: ReaderOptions = {}) {
    const doc = loaded.dereferenced;
    // A deployment under a base path may write it into its servers (then paths are as SPEC.md writes
    // them) or into its paths: both describe the same URLs.
    const base = pathnameOf(options.basePath ?? '');
    const serverPaths = (Array.isArray(doc.servers) ? doc.servers : []).map((s: Json) => (typeof s?.url === 'string' ? pathnameOf(s.url.replace(/\{[^}]*\}/g, 'x')) : ''));
    for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
      if (!item || typeof item !== 'object') continue;
      for (const [method, spec] of Object.entries<Json>(item)) {
        if (!METHODS.has(method) || !spec || typeof spec !== 'object') continue;
        const security = spec.security ?? doc.security;
        const op: Operation = { operationId: typeof spec.operationId === 'string' ? spec.operationId : routeKey(method, path), method, path, spec, secured: !(Array.isArray(security) && security.length === 0) };
        this.byId.set(op.operationId, op);
        this.byRoute.set(routeKey(method, path), op);
        for (const prefix of new Set([base, ...serverPaths.map((s: string) => (base && s.startsWith(base) ? s.slice(base.length) : ''))])) {
          if (prefix && path.startsWith(`${prefix}/`) && !this.byRoute.has(routeKey(method, path.slice(prefix.length)))) this.byRoute.set(routeKey(method, path.slice(prefix.length)), op);
        }
      }
    }
  }

  /** Reads a document (left untouched). A document the loader refuses has no operations; `problems` says why. */
  static async load(raw: unknown, options: ReaderOptions = {}): Promise<OpenApiReader> {
    return new OpenApiReader(await loadOpenApi(raw, options), options);
  }

  /** The operations of a trusted document (the bundled contract) at once, for routing, not for schemas. */
  static index(raw: Json): OpenApiReader {
    return new OpenApiReader({ version: raw?.openapi, normal: raw ?? {}, dereferenced: raw ?? {}, problems: [] });
  }

  /** Why the document cannot be used (OAS-1 says these); empty when it can. */
  get problems(): string[] {
    return this.loaded.problems;
  }

  /** The normal form (3.1, references kept): what ajv compiles. */
  get normal(): Json {
    return this.loaded.normal;
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
    return Object.keys(this.loaded.dereferenced.paths ?? {});
  }

  /** The JSON request body of an operation: its content key and schema (dereferenced). */
  private requestContent(operationId: string): { key: string; schema: Json } | undefined {
    const content = this.byId.get(operationId)?.spec.requestBody?.content;
    const key = jsonContentKey(content);
    return key && content[key]?.schema ? { key, schema: content[key].schema } : undefined;
  }

  /** The JSON request body schema of an operation, dereferenced. */
  requestSchema(operationId: string): Json | undefined {
    return this.requestContent(operationId)?.schema;
  }

  /** Declared response statuses (`200`, `4XX`, `default`…). */
  statuses(operationId: string): string[] {
    return Object.keys(this.byId.get(operationId)?.spec.responses ?? {});
  }

  /** The declared response key matching a status: exact, then `4XX` (any case), then `default`. */
  responseKey(operationId: string, status: number): string | undefined {
    const declared = this.statuses(operationId);
    const range = `${String(status)[0]}xx`;
    return declared.find((k) => k === String(status)) ?? declared.find((k) => k.toLowerCase() === range) ?? (declared.includes('default') ? 'default' : undefined);
  }

  /** The key of the first declared success response (`200`, `201`, `2XX`…). */
  successKey(operationId: string): string | undefined {
    return this.statuses(operationId).find((k) => /^2/.test(k));
  }

  private responseContentKey(operationId: string, key: string): string | undefined {
    return jsonContentKey(this.byId.get(operationId)?.spec.responses?.[key]?.content);
  }

  /** The JSON schema of a response, dereferenced. */
  responseSchema(operationId: string, key: string): Json | undefined {
    const contentKey = this.responseContentKey(operationId, key);
    return contentKey ? this.byId.get(operationId)?.spec.responses?.[key]?.content?.[contentKey]?.schema : undefined;
  }

  /** Whether a response declares a JSON body (any parameters of the media type). */
  declaresJson(operationId: string, key: string): boolean {
    return !!this.responseContentKey(operationId, key);
  }

  /**
   * Where a schema really lives in the normal form (references on the way followed): the JSON pointer
   * tokens ajv compiles. `'request'` for the request body, else a response key.
   */
  schemaLocation(operationId: string, of: 'request' | string): string[] | undefined {
    const op = this.byId.get(operationId);
    if (!op) return undefined;
    const contentKey = of === 'request' ? this.requestContent(operationId)?.key : this.responseContentKey(operationId, of);
    if (!contentKey) return undefined;
    const tail = of === 'request' ? ['requestBody', 'content', contentKey, 'schema'] : ['responses', of, 'content', contentKey, 'schema'];
    return locate(this.loaded.normal, ['paths', op.path, op.method, ...tail]);
  }
}
