// Error codes of SPEC.md, provoked: unknown world, entity and persona; and negative bodies generated
// from each operation's request schema (wrong types, not JSON, not an object, a needed member missing),
// and the values lenient parsers coerce ("60" for a number, null, "true" for a boolean), answered
// 400 VALIDATION_ERROR (no 5xx for a client mistake, ENV-4, is the generated area's).
import { describe, expect } from 'vitest';
import { documents } from '../suite/checks/documents.ts';
import { setup, check, api, createPersona, createWorld, expectFor, fails, inFlight, named, notRun, ok, operationsOf, servedBody, worldBody } from './support/index.ts';
import { reportedInItsEntry } from './support/models.ts';
import { isObject, type Json } from '../suite/bodies/schema.ts';
import { entityOperations, servedBodies } from '../suite/bodies/served.ts';
import { coercedBodies, wrongTypedBodies } from '../suite/bodies/wrong-typed.ts';

const client = api();
let worldId: string;
let personaId: string;
setup(async () => {
  worldId = await createWorld(client, 'errors');
  personaId = await createPersona(client, 'errors');
});

const paramsFor = (path: string) => ({ id: path.startsWith('/personas') ? personaId : worldId, pid: 'ana', aid: 'none', rid: 'none' });

describe('error codes of SPEC.md', () => {
  check('ERR-1', 'answers 404 WORLD_NOT_FOUND for an unknown world on every world operation', async (ctx) => {
    // A body the deployment's own document accepts: validating it before the lookup changes nothing.
    const made = servedBodies();
    const ops = operationsOf((o) => o.path.startsWith('/worlds/{id}')).map((op) => ({ op, sent: made.body(op.operationId) })).filter((o) => o.sent);
    const wrong = await inFlight(ops, async ({ op, sent }) => {
      const reply = await client.call(op.operationId, { params: { ...paramsFor(op.path), id: 'conformance-no-such-world' }, body: sent!.body });
      return reply.status !== 404 || reply.body?.error?.code !== 'WORLD_NOT_FOUND' ? `${op.method} ${op.path} → ${reply.status} ${reply.body?.error?.code ?? ''}` : undefined;
    });
    expect(wrong.filter(Boolean)).toEqual([]);
    made.settle(ctx);
  });

  check('ERR-2', 'answers 404 ENTITY_NOT_FOUND for an unknown entity in chat and context', async () => {
    fails(await client.call('chat', { params: { id: worldId }, body: { from: 'nobody-here', to: 'ana', message: 'hello' } }), 'ENTITY_NOT_FOUND', 404);
    fails(await client.call('chat', { params: { id: worldId }, body: { from: 'user', to: 'nobody-here', message: 'hello' } }), 'ENTITY_NOT_FOUND', 404);
    fails(await client.call('worldContext', { params: { id: worldId }, body: { entityName: 'nobody-here' } }), 'ENTITY_NOT_FOUND', 404);
  });

  check('ERR-2', 'answers 404 ENTITY_NOT_FOUND to an event whose targetEntity or sourceEntity names no entity of the world (and not to one naming its entities)', async (ctx) => {
    // The rest of the event is one the deployment's own document accepts: the entity is its only fault.
    const { body, problem } = servedBody('dispatchEvent');
    if (problem) notRun(ctx, problem);
    const event = (extra: Json) => ({ ...(isObject(body) ? body : {}), type: 'cf-probe', ...extra });
    for (const member of ['targetEntity', 'sourceEntity']) {
      fails(await client.call('dispatchEvent', { params: { id: worldId }, body: event({ [member]: 'nobody-here' }) }), 'ENTITY_NOT_FOUND', 404);
    }
    // The near miss: the same event naming entities the world has is no ENTITY_NOT_FOUND.
    const named = await client.call('dispatchEvent', { params: { id: worldId }, body: event({ sourceEntity: 'user', targetEntity: 'ana' }) });
    expectFor(named, named.status >= 200 && named.status < 300, { title: 'an event naming entities of the world (sourceEntity user, targetEntity ana) is refused', expected: 'a 2xx result', received: `${named.status} ${named.text.slice(0, 200)}` });
  });
});

/**
 * Requests no operation serves: paths none has, and methods a path lacks. Each is one neither SPEC.md
 * nor the deployment's own document names, and harmless if a deployment served it after all (no
 * collection-wide DELETE or PUT of records).
 */
function unknownRoutes(): Array<{ kind: 'path' | 'method'; method: string; path: string; body?: Json }> {
  const w = `/worlds/${encodeURIComponent(worldId)}`;
  const p = `/personas/${encodeURIComponent(personaId)}`;
  const all = [
    { kind: 'path' as const, method: 'GET', path: '/conformance-no-such-route' },
    { kind: 'path' as const, method: 'GET', path: `${w}/nonexistent` },
    { kind: 'path' as const, method: 'POST', path: `${p}/nonexistent`, body: {} },
    { kind: 'method' as const, method: 'PUT', path: '/worlds', body: {} },
    { kind: 'method' as const, method: 'GET', path: `${w}/tick` },
    { kind: 'method' as const, method: 'PUT', path: `${p}/state`, body: {} },
  ];
  const template = (path: string) => path.replace(encodeURIComponent(worldId), '{id}').replace(encodeURIComponent(personaId), '{id}');
  return all.filter((r) => !documents().served.operationAt(r.method.toLowerCase(), template(r.path)) && !documents().bundled.operationAt(r.method.toLowerCase(), template(r.path)));
}

describe('unknown routes and methods', () => {
  const answers = async () => inFlight(unknownRoutes(), async (r) => ({ ...r, reply: await client.raw(r.method, r.path, r.body ? { body: r.body } : {}) }));

  check('ERR-8', 'a path no operation has and a method a path lacks are answered a non-2xx error with the error envelope', async () => {
    const sent = await answers();
    expect(sent.length, 'no unknown route left to try').toBeGreaterThan(0);
    const wrong = sent.filter(({ reply }) => {
      const error = reply.body?.error;
      return reply.status < 400 || !isObject(reply.body) || !isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string';
    }).map(({ method, path, reply }) => `${method} ${path} → ${reply.status} ${reply.headers['content-type'] ?? ''} ${reply.text.slice(0, 80)}`);
    expect(wrong, 'answers to unknown routes that are not an error with {"error": {"code", "message"}}').toEqual([]);
  });

  check('ERR-9', 'an unknown path is answered 404; a method the path lacks 405 (or 404)', async () => {
    const sent = await answers();
    const wrong = sent.filter(({ kind, reply }) => (kind === 'path' ? reply.status !== 404 : ![404, 405].includes(reply.status)))
      .map(({ kind, method, path, reply }) => `${method} ${path} (${kind === 'path' ? 'unknown path' : 'method the path lacks'}) → ${reply.status}`);
    expect(wrong).toEqual([]);
  });
});

/**
 * URLs whose subject is the input a stack in front of a service may refuse or rewrite, by kind: an id
 * holding an encoded slash, an encoded slash before a dot segment, a dot segment (sent as written: a URL
 * parser would resolve it), an encoded control character; each on the world and the persona routes,
 * with its resource's not-found code. `readings`: the paths a stack may make of it (%2F decoded), each
 * sent as a plain URL: had a stack made that path of it, the service answered as it answers that one,
 * so any other code says it saw the id. `anyCode`: a path the service may see with a dot segment in it
 * (as written, or %2F decoded and not resolved) is a route no operation has, whose code SPEC.md does
 * not show (ERR-8 asks the envelope only); resolved, it is the resource's route or another such.
 */
const MALFORMED: Record<string, (base: string, id: string) => { path: string; asIs?: boolean; readings?: string[]; anyCode?: true }> = {
  'an encoded slash in the id': (base, id) => ({ path: `/${base}/${id}%2F${id}`, readings: [`/${base}/${id}/${id}`] }),
  'an encoded slash before a dot segment': (base, id) => ({ path: `/${base}/..%2F${id}`, anyCode: true }),
  'a dot segment': (base, id) => ({ path: `/${base}/${id}-a/../${id}`, asIs: true, anyCode: true }),
  'an encoded control character in the id': (base, id) => ({ path: `/${base}/${id}%01` }),
};
const RESOURCES = [['worlds', 'conformance-no-such-world', 'WORLD_NOT_FOUND'], ['personas', 'conformance-no-such-persona', 'PERSONA_NOT_FOUND']] as const;

describe('malformed URLs on the routes with ids', () => {
  /** The answers to URLs of these kinds, each with the codes it may carry: its resource's, and those the deployment answers the routes a stack may have made of it. */
  const answers = async (kinds: readonly string[]) => {
    const urls = kinds.flatMap((what) => RESOURCES.map(([base, id, code]) => ({ what, code, readings: [] as string[], ...MALFORMED[what](base, id) })));
    const sent = await inFlight(urls, async (u) => ({ ...u, reply: await client.raw('GET', u.path, { asIs: u.asIs }) }));
    const readings = [...new Set(sent.flatMap((u) => u.readings))];
    const codes = new Map(await inFlight(readings, async (path) => [path, (await client.raw('GET', path)).body?.error?.code] as const));
    return sent.map((u) => ({ ...u, allowed: [u.code, ...u.readings.map((r) => codes.get(r)).filter((c): c is string => typeof c === 'string')] }));
  };
  type Answer = Awaited<ReturnType<typeof answers>>[number];
  const shown = (u: Answer) => `GET ${u.path} → ${u.reply.status} ${u.reply.headers['content-type'] ?? ''} ${u.reply.text.slice(0, 100)}`;
  /** What is wrong with the service's answer to one URL, if anything. */
  const wrongIn = (u: Answer): string | undefined => {
    const error = u.reply.body?.error;
    if (u.reply.status < 400 || !isObject(error) || typeof error.code !== 'string' || typeof error.message !== 'string') return `${shown(u)} (expected a non-2xx {"error": {"code", "message"}})`;
    if (!u.anyCode && !u.allowed.includes(error.code)) return `${shown(u)} (expected the code ${u.allowed.join(' or ')})`;
    return error.code === 'WORLD_NOT_FOUND' && u.reply.status !== 404 ? `${shown(u)} (WORLD_NOT_FOUND comes with 404)` : undefined;
  };

  for (const kind of Object.keys(MALFORMED)) {
    check('ERR-11', `${kind}: answered an error with the envelope and the not-found code (or that of the route a stack made of it)`, async (ctx) => {
      const all = await answers([kind]);
      // The HTTP stack's own page (suite/data/stack-limits.ts) is not the service's answer: ERR-12 reports it.
      const service = all.filter((u) => !u.reply.exchange.refusedByStack);
      expect(service.map(wrongIn).filter(Boolean), `answers of the service to a URL with ${kind} that are not the error envelope with the code SPEC.md gives`).toEqual([]);
      const refused = all.find((u) => u.reply.exchange.refusedByStack);
      if (refused) notRun(ctx, `${all.length - service.length} of ${all.length} URLs with ${kind} were answered by the HTTP stack in front of the service, not by it (ERR-12): ${refused.reply.exchange.refusedByStack}`);
    });
  }

  check('ERR-12', 'such URLs are answered by the service, not refused by the HTTP stack in front of it', async () => {
    const refused = (await answers(Object.keys(MALFORMED))).filter((u) => u.reply.exchange.refusedByStack)
      .map((u) => `${u.what}: ${shown(u)}: ${u.reply.headers.server ? `the page of ${u.reply.headers.server}` : 'a page of the HTTP stack (no Server header names it)'}`);
    expect(refused, 'URLs the HTTP stack in front of the service answered with a page of its own').toEqual([]);
  });
});

describe('unknown persona id', () => {
  /** A missing persona id that names the run (never created). */
  const missingId = () => `missing-${named('persona').replace(/\W/g, '')}`;

  /** Persona operations, each with the smallest body the deployment's own document accepts (or none). */
  const PROBES = ['getPersona', 'updatePersona', 'deletePersona', 'restorePersona', 'perceive', 'tickPersona', 'overrideEmotion', 'getPersonaState', 'getPersonaSnapshot', 'putPersonaSnapshot'];

  async function answers() {
    const id = missingId();
    const out = [];
    const made = servedBodies();
    for (const operationId of PROBES) {
      const sent = made.body(operationId);
      if (!sent) continue;
      const reply = await client.call(operationId, { params: { id }, ...(sent.body !== undefined ? { body: sent.body } : {}) });
      out.push({ operationId, status: reply.status, code: reply.body?.error?.code as unknown });
    }
    return { out, made };
  }

  check('ERR-4', 'is answered with code PERSONA_NOT_FOUND', async (ctx) => {
    const { out, made } = await answers();
    const wrong = out.filter((a) => a.code !== 'PERSONA_NOT_FOUND').map((a) => `${a.operationId}: ${a.status} ${String(a.code)}`);
    expect(wrong, 'operations on an unknown persona that did not answer PERSONA_NOT_FOUND').toEqual([]);
    made.settle(ctx);
  });

  check('ERR-5', 'PERSONA_NOT_FOUND comes with status 404', async (ctx) => {
    const { out, made } = await answers();
    const wrong = out.filter((a) => a.status !== 404).map((a) => `${a.operationId}: ${a.status} ${String(a.code)}`);
    expect(wrong, 'answers for an unknown persona whose status is not 404').toEqual([]);
    made.settle(ctx);
  });
});

/**
 * The index of the batch operation a wrong-typed member sits in (`operations.0.op` → 0), when it sits
 * in one. SPEC.md, Errors: "Inside a batch mutation, a failed operation is reported in its own result
 * entry with `ok` false and an `error` string; the batch response itself remains a `result` envelope."
 */
const batchEntry = (n: { operationId: string; member: string }): number | undefined => {
  const m = n.operationId === 'mutateWorld' ? /^operations\.(\d+)\./.exec(n.member) : null;
  return m ? Number(m[1]) : undefined;
};

describe('negative bodies generated from the request schemas', () => {
  check('ERR-3', 'answers 400 VALIDATION_ERROR to a member SPEC.md types, at any depth, given the wrong type (a batch operation: that, or its own result entry with ok false)', async () => {
    const wrong = await inFlight(wrongTypedBodies('spec'), async (n) => {
      const reply = await client.call(n.operationId, { params: paramsFor(n.path), body: n.body });
      if (reply.status === 400 && reply.body?.error?.code === 'VALIDATION_ERROR') return undefined;
      const entry = batchEntry(n);
      if (entry !== undefined && reportedInItsEntry(reply, entry)) return undefined;
      const expected = entry !== undefined ? ` (expected 400 VALIDATION_ERROR, or a result envelope with results[${entry}].ok false and an error string)` : '';
      return `${n.operationId} ${n.member} of the wrong type → ${reply.status} ${reply.body?.error?.code ?? ''}${expected}`;
    });
    expect(wrong.filter(Boolean), 'wrong-typed members not answered 400 VALIDATION_ERROR').toEqual([]);
  });

  check('ERR-6', 'answers 400 VALIDATION_ERROR to wrong types elsewhere, to non-JSON and non-object bodies, and to a missing needed member', async () => {
    const wrong: string[] = [];
    const expect400 = (label: string, reply: { status: number; body: any }) => {
      if (reply.status !== 400 || reply.body?.error?.code !== 'VALIDATION_ERROR') wrong.push(`${label} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    };
    const replies = await inFlight(wrongTypedBodies('served'), (n) => client.call(n.operationId, { params: paramsFor(n.path), body: n.body }));
    wrongTypedBodies('served').forEach((n, i) => expect400(`${n.operationId} ${n.member} of the wrong type`, replies[i]));
    for (const [label, rawBody] of [['not JSON', '{"message": '], ['a JSON array', '[]'], ['a JSON string', '"hello"']]) {
      expect400(`chat with ${label}`, await client.call('chat', { params: { id: worldId }, rawBody }));
    }
    expect400('chat without message', await client.call('chat', { params: { id: worldId }, body: { from: 'user', to: 'ana' } }));
    expect400('events without type', await client.call('dispatchEvent', { params: { id: worldId }, body: { spaceId: 'x' } }));
    expect(wrong).toEqual([]);
  });

  check('ERR-3', 'answers 400 VALIDATION_ERROR to what lenient parsers coerce: a number as a numeric string or null, a boolean as "true"', async () => {
    const sent = coercedBodies(worldBody('lenient'), { world: worldId, persona: personaId });
    const wrong = await inFlight(sent, async (n) => {
      const reply = await client.call(n.operationId, { params: { id: n.id }, body: n.body });
      return reply.status !== 400 || reply.body?.error?.code !== 'VALIDATION_ERROR' ? `${n.operationId} ${n.member} → ${reply.status} ${reply.body?.error?.code ?? ''}` : undefined;
    });
    expect(wrong.filter(Boolean), 'members given a value a lenient parser coerces, not answered 400 VALIDATION_ERROR').toEqual([]);
  });

  check('ERR-7', 'refuses a world snapshot import with a nested number turned into a string', async () => {
    const exported = ok(await client.call('getWorldSnapshot', { params: { id: worldId } }), 'GET /worlds/{id}/snapshot');
    // Numbers two levels down or deeper in what the deployment exported (progression, persona snapshots…).
    const leaves: Array<Array<string | number>> = [];
    const walk = (node: unknown, at: Array<string | number>) => {
      if (leaves.length >= 6 || !node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        const here = [...at, Array.isArray(node) ? Number(k) : k];
        if (typeof v === 'number' && here.length >= 2) leaves.push(here);
        else walk(v, here);
      }
    };
    walk(exported, []);
    expect(leaves.length, 'the exported snapshot has no nested number to break').toBeGreaterThan(0);
    const accepted: string[] = [];
    for (const at of leaves) {
      const broken = structuredClone(exported);
      let node = broken;
      for (const k of at.slice(0, -1)) node = node[k];
      node[at[at.length - 1]] = 'not-a-number';
      const reply = await client.call('putWorldSnapshot', { params: { id: worldId }, body: { snapshot: broken } });
      if (reply.status !== 400 || reply.body?.error?.code !== 'VALIDATION_ERROR') accepted.push(`${at.join('.')} → ${reply.status} ${reply.body?.error?.code ?? ''}`);
    }
    expect(accepted, 'imports with a wrongly typed nested member that were not refused with 400 VALIDATION_ERROR').toEqual([]);
  });

});

describe('a batch operation naming an unknown entity', () => {
  check('ERR-10', 'fails in its own result entry with ok false and an error string (or the batch is answered 404 ENTITY_NOT_FOUND); the same operation naming an entity of the world is applied', async (ctx) => {
    const found = entityOperations();
    if (!found.length) notRun(ctx, 'the served document shows no batch operation that names an existing entity (SPEC.md shows only add_entity)');
    const query = ok(await client.call('queryWorld', { params: { id: worldId }, body: {} }), 'POST /worlds/{id}/query');
    const space = (query.entities as Json[] | undefined)?.find((e) => e?.name === 'ben')?.spaceId ?? (query.spaces as Json[] | undefined)?.[0]?.id;
    const mutate = (operation: Json) => client.call('mutateWorld', { params: { id: worldId }, body: { operations: [operation] } });
    const tried: string[] = [];
    for (const { operation, member } of found) {
      // The example's other names (a space) made the world's own: the entity is the only unknown.
      const own: Json = Object.fromEntries(Object.entries(operation).map(([k, v]) => [k, /space/i.test(k) && typeof v === 'string' && typeof space === 'string' ? space : v]));
      const control = await mutate({ ...own, [member]: 'ben' });
      if (control.body?.result?.results?.[0]?.ok !== true) { tried.push(`${own.op} on ben → ${control.status} ${control.text.slice(0, 120)}`); continue; }
      const reply = await mutate({ ...own, [member]: 'nobody-here' });
      const refused = reply.status === 404 && reply.body?.error?.code === 'ENTITY_NOT_FOUND';
      expectFor(reply, refused || reportedInItsEntry(reply, 0), {
        title: `${own.op} naming an entity the world does not have (${member}: nobody-here) was not reported failed`,
        expected: 'results[0] with ok false and an error string, or 404 ENTITY_NOT_FOUND', received: `${reply.status} ${reply.text.slice(0, 200)}`,
      });
      return;
    }
    notRun(ctx, `no operation of the served document could be applied to an entity the world has: ${tried.join('; ')}`);
  });
});
