// The checks every response gets, as Schemathesis keeps its checks: a registry of named functions,
// one per requirement. The client runs each that applies to a response and records, in the exchange,
// which ones looked at it and what they found; results make one row per requirement and operation.
import type { RequirementId } from '../../contract/requirements.ts';
import type { ResponseValidator } from '../../contract/validate.ts';
import type { Exchange } from '../data/exchange.ts';
import { stackRefusal, type RequestSize } from '../data/stack-limits.ts';

export interface ResponseContext {
  method: string;
  /** Operation of the bundled contract (SPEC.md's operation) and its path template, when the request is one. */
  operation?: { operationId: string; path: string };
  status: number;
  contentType: string | undefined;
  /** Parsed JSON, or the text when it does not parse. */
  body: unknown;
  text: string;
  bundled: ResponseValidator;
  served: ResponseValidator;
  /** What the client sent, in bytes: an oversize request may be refused by the HTTP stack in front of the service. */
  size?: RequestSize;
  /** The answer's Server header: names the stack whose refusal it is, when it is one. */
  server?: string;
}

export interface ResponseCheck {
  id: RequirementId;
  /** Whether the check has anything to look at in this response. */
  applies(r: ResponseContext): boolean;
  /** Problems found; none means the response keeps the requirement. `notRun`: it could not look, and why. */
  run(r: ResponseContext): string[] | { notRun: string };
}

const is2xx = (r: ResponseContext) => r.status >= 200 && r.status < 300;
// The document itself is not wrapped in `result` (SPEC.md: it "returns the full OpenAPI description").
const isEnvelopedSuccess = (r: ResponseContext) => is2xx(r) && r.operation?.operationId !== 'getOpenApi';

export const RESPONSE_CHECKS: readonly ResponseCheck[] = [
  {
    id: 'ENV-1',
    applies: isEnvelopedSuccess,
    run: (r) => (r.body && typeof r.body === 'object' && !Array.isArray(r.body) && 'result' in r.body ? [] : ['a 2xx body must be an object with a result member']),
  },
  {
    id: 'ENV-2',
    applies: (r) => r.status >= 400,
    run: (r) => r.bundled.checkComponent('ErrorEnvelope', r.body).problems,
  },
  {
    id: 'ENV-3',
    applies: (r) => r.text.length > 0,
    run: (r) => (/^application\/json\b/i.test(r.contentType ?? '') ? [] : [`content-type is '${r.contentType ?? '(none)'}', expected application/json`]),
  },
  {
    id: 'CONTRACT-1',
    // Only operations whose shapes SPEC.md shows; an unwrapped body is ENV-1's business.
    applies: (r) => isEnvelopedSuccess(r) && !!r.operation && r.bundled.reader.operation(r.operation.operationId)?.spec['x-shape-source'] === 'spec'
      && !!r.body && typeof r.body === 'object' && 'result' in r.body,
    run: (r) => r.bundled.checkSuccessBody(r.operation!.operationId, r.body).problems,
  },
  {
    id: 'CONTRACT-2',
    // A deployment that serves no usable document has no promise to keep here: OAS-1 fails it instead.
    // Nor does a document that leaves out its own route (FastAPI, springdoc, NestJS and @fastify/swagger
    // do): SPEC.md states GET /openapi.json under "Machine-readable description", not in the endpoint tables.
    applies: (r) => !!r.operation && r.served.reader.operations().length > 0
      && !(r.operation.operationId === 'getOpenApi' && !r.served.reader.operationAt(r.method, r.operation.path)),
    run: (r) => {
      const servedId = r.served.reader.operationAt(r.method, r.operation!.path)?.operationId;
      if (!servedId) return [`the served document has no ${r.method} ${r.operation!.path}`];
      const verdict = r.served.check(servedId, r.status, r.contentType, r.body);
      // A schema the suite cannot compile is no verdict on the deployment: this operation's row says why.
      return verdict.notRun && verdict.ok ? { notRun: `the served document's schema for ${servedId} (${r.status}): ${verdict.notRun}` } : verdict.problems;
    },
  },
];

/**
 * Runs every check that applies: which looked at the response, and what each found. An answer the HTTP
 * stack gave to an oversize request (suite/data/stack-limits.ts) is the stack's, not the service's:
 * no check judges it, and the exchange says so.
 */
export function inspect(r: ResponseContext): Pick<Exchange, 'checked' | 'problems' | 'notChecked' | 'refusedByStack'> {
  const checked: RequirementId[] = [];
  const problems: Partial<Record<RequirementId, string[]>> = {};
  const notChecked: Partial<Record<RequirementId, string>> = {};
  const refused = stackRefusal({ status: r.status, contentType: r.contentType, text: r.text, size: r.size, server: r.server });
  for (const c of RESPONSE_CHECKS) {
    if (!c.applies(r)) continue;
    const found = refused ? { notRun: refused } : c.run(r);
    if (!Array.isArray(found)) { notChecked[c.id] = found.notRun; continue; }
    checked.push(c.id);
    if (found.length) problems[c.id] = found;
  }
  return { checked, problems, ...(Object.keys(notChecked).length ? { notChecked } : {}), ...(refused ? { refusedByStack: refused } : {}) };
}
