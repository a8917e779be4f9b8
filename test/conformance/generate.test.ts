// The generated area's generators (suite/generate/): the same seed gives the same requests; valid
// instances are valid for the bundled contract; a wrong type is one; RAW tokens reach the wire as
// written; a failing property is shrunk and reported with its seed, within its budget.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv } from 'ajv';
import { bundledContract, loadDocuments } from '../../suite/checks/documents.ts';
import { anyRequest, generatedOperations, requestsFor, resolve, short } from '../../suite/generate/requests.ts';
import { REQUEST_BODY_MAX, REQUEST_HEAD_MAX, HEAD_REFUSABLE, requestSize } from '../../suite/data/stack-limits.ts';
import { applyMutation, clone } from '../../suite/bodies/near-miss.ts';
import { validOf } from '../../suite/bodies/valid.ts';
import { bodyText, raw, typeOf } from '../../suite/bodies/values.ts';
import { Budget, checkProperty } from '../../suite/generate/property.ts';
import { CheckFailure } from '../../suite/data/failure.ts';

const docs = await loadDocuments(bundledContract(), bundledContract());
const ops = generatedOperations(docs, false);

describe('generated requests', () => {
  it('cover every operation of the contract but the billable one, and repeat with the same seed', () => {
    expect(ops.map((o) => o.operationId)).not.toContain('interact');
    expect(ops.length).toBe(docs.bundled.operations().length - 1);
    const sample = (seed: number) => JSON.stringify(fc.sample(anyRequest(ops), { seed, numRuns: 60 }));
    expect(sample(7)).toBe(sample(7));
    expect(sample(7)).not.toBe(sample(8));
  });

  it('valid bodies are valid for the bundled contract', () => {
    const ajv = new Ajv({ strict: false, allErrors: false });
    for (const op of ops.filter((o) => o.schema)) {
      const validate = ajv.compile(JSON.parse(JSON.stringify(op.schema)));
      for (const body of fc.sample(validOf(op.schema), { seed: 3, numRuns: 15 })) {
        expect(validate(JSON.parse(bodyText(body))), `${op.operationId}: ${short(bodyText(body))} ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });
});

describe('what a generated request weighs', () => {
  // What the client sends besides: the longest key a run may have, a JSON content type, a long host.
  const headers = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': `mk_test_${'k'.repeat(120)}` };
  const owned = { worldId: 'wld_0123456789abcdef0123', personaId: 'prs_0123456789abcdef0123', entity: 'ana' };

  it('stays within what stock HTTP stacks accept (nginx: request line and headers within 8 KiB, bodies within 1 MiB), and some pass 4 KiB', () => {
    let longest = 0;
    for (const op of ops) {
      for (const req of fc.sample(requestsFor(op), { seed: 11, numRuns: 60 })) {
        const r = resolve(req, op, owned);
        const url = `http://staging-deployment.example.com:8443${r.url}${r.query ? `?${new URLSearchParams(r.query)}` : ''}`;
        const size = requestSize(op.method, url, { ...headers, ...r.headers }, r.bodyText);
        longest = Math.max(longest, size.headBytes);
        expect(size.headBytes, `${op.operationId} ${req.variant}: ${short(url)}`).toBeLessThanOrEqual(REQUEST_HEAD_MAX);
        expect(size.bodyBytes, `${op.operationId} ${req.variant}`).toBeLessThanOrEqual(REQUEST_BODY_MAX);
      }
    }
    // Long enough for a stack with a smaller limit (gunicorn's 4,094-byte request line) to refuse some.
    expect(longest).toBeGreaterThan(HEAD_REFUSABLE);
  });
});

describe('breaking a body', () => {
  const body = { a: { b: 'x', c: [1, 2] }, d: true };
  it('puts a value of another type where a wrong type goes', () => {
    const { value, where } = applyMutation(body, { kind: 'wrong-type', at: [0, 0], value: 'same type' });
    expect(where).toBe('/a/b');
    expect(typeOf((value as any).a.b)).not.toBe('string');
    expect(body.a.b).toBe('x');
  });

  it('removes a member and adds one named __proto__ as an own member', () => {
    expect(applyMutation(body, { kind: 'missing', at: [1] }).value).toEqual({ a: body.a });
    const { value } = applyMutation(body, { kind: 'extra', at: [0], key: '__proto__', value: 1 });
    expect(Object.keys((value as any).a)).toContain('__proto__');
    expect(bodyText(value)).toContain('"__proto__":1');
  });

  it('writes RAW tokens as they are, and copies what nests deeper than the stack', () => {
    expect(bodyText({ n: raw('1e400'), d: raw('[[0]]') })).toBe('{"n":1e400,"d":[[0]]}');
    let deep: unknown = 0;
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(Array.isArray(clone(deep))).toBe(true);
    expect(short(`{"a":${'['.repeat(5000)}0${']'.repeat(5000)}}`)).toBe('{"a":‹[×5000›0‹]×5000›}');
  });
});

describe('a generated property', () => {
  it('shrinks a failing run to a smaller one, names the seed, and stays within its budget', async () => {
    const budget = new Budget(400);
    const failure = await checkProperty({
      arbitrary: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 8 }), seed: 42, budget, requestsPerRun: 1, timeLimitMs: 10_000,
      repeat: 'again', describe: (xs) => JSON.stringify(xs),
      run: async (xs) => {
        budget.spent++;
        if (xs.some((x) => x > 500)) throw new CheckFailure({ title: 'too big', requirementId: 'GEN-1' });
      },
    }).then(() => undefined, (err: unknown) => err);
    expect(failure).toBeInstanceOf(CheckFailure);
    const { init } = failure as CheckFailure;
    expect(init.title).toMatch(/too big \(seed 42, shrunk \d+ times\)/);
    expect(init.received).toContain('minimal input: [501]');
    expect(budget.spent).toBeLessThanOrEqual(400 + 1);
  });

  it('passes when no run fails', async () => {
    const budget = new Budget(50);
    const outcome = await checkProperty({
      arbitrary: fc.nat(), seed: 1, budget, requestsPerRun: 1, timeLimitMs: 10_000, repeat: '', describe: String,
      run: async () => { budget.spent++; },
    });
    expect(outcome.runs).toBeGreaterThan(0);
    expect(outcome.requests).toBeLessThanOrEqual(50);
  });
});
