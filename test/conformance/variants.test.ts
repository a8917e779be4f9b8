// Proving the suite, the other way (docs/self-test.md): every legal variant of suite/self-test/variants.ts (the
// reference with one different choice where SPEC.md is silent) must pass the suite under --strict,
// failing and warning on nothing but the SHOULDs it names, and its choice must show in the run. One
// embedded reference for all runs; each variant runs only the areas its choice concerns. The
// verdict itself must be able to fail: a deployment that breaks a MUST, dressed as a variant, fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { AREAS, requirementById } from '../../contract/requirements.ts';
import { resolveTarget, type Target } from '../../suite/run/target.ts';
import { VARIANTS, type Variant } from '../../suite/self-test/variants.ts';
import { runVariants, type VariantMatrixResult } from '../../suite/self-test/variant-matrix.ts';
import { startFaultProxy, type FaultProxy } from '../../suite/self-test/proxy.ts';
import { applied } from '../../suite/self-test/hooks.ts';
import { budget } from '../budget.ts';

/** Not legal: creating a world answers its result unwrapped (ENV-1, a MUST). It must not pass. */
const ILLEGAL: Variant = {
  id: 'control-illegal-unwrapped-create', areas: ['worlds'], allowedWarnings: [],
  description: 'control: POST /worlds answers {worldId, createdAt} without the result wrapper (must fail)',
  gap: '(none: SPEC.md states the envelope)',
  response: (res, req, ctx) => {
    if (req.operationId === 'createWorld' && res.status < 300) { res.body = (res.body as { result: unknown }).result; applied(ctx); }
  },
};

const dir = mkdtempSync(join(tmpdir(), 'conformance-variants-'));
let matrix: VariantMatrixResult;
// About a minute alone on two cores; a loaded machine (the fault matrix beside it) may take several times that.
beforeAll(async () => { matrix = await runVariants({ workDir: dir, variants: [...VARIANTS, ILLEGAL] }); }, budget(900_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const verdict = (id: string) => matrix.verdicts.find((v) => v.id === id)!;

describe('the variant catalogue', () => {
  it('holds at least 15 variants with unique ids, known areas, and allowed warnings that are SHOULDs', () => {
    expect(VARIANTS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(VARIANTS.map((v) => v.id)).size).toBe(VARIANTS.length);
    for (const v of VARIANTS) {
      expect(v.areas.length, v.id).toBeGreaterThan(0);
      for (const a of v.areas) expect(AREAS as readonly string[], `${v.id}: area ${a}`).toContain(a);
      for (const id of v.allowedWarnings) expect(requirementById.get(id)?.level, `${v.id}: ${id} may only warn if it is a SHOULD`).toBe('SHOULD');
      expect(v.gap, `${v.id} names the gap of SPEC.md it fills`).toMatch(/\S/);
    }
  });
});

describe('the verdict can fail', () => {
  it('a MUST broken, dressed as a variant, does not pass (ENV-1 fails)', () => {
    const v = verdict(ILLEGAL.id);
    expect({ passed: v.ok, caughtBy: v.unexpected.includes('ENV-1') }).toEqual({ passed: false, caughtBy: true });
  });
});

describe('every legal variant passes', () => {
  for (const variant of VARIANTS) {
    it(`${variant.id}: ${variant.description}`, () => {
      const v = verdict(variant.id);
      expect(v.error, `${variant.id}: the run could not be made`).toBeUndefined();
      expect({ variant: variant.id, unexpected: v.unexpected, messages: v.messages, suiteErrors: v.suiteErrors }).toEqual({ variant: variant.id, unexpected: [], messages: [], suiteErrors: [] });
      if (!variant.quietWhy) expect(v.applied, `${variant.id}: its choice never showed in the run`).toBeGreaterThan(0);
      expect(v.ok).toBe(true);
    });
  }
});

describe('choices the suite does not reveal today, shown directly', () => {
  let target: Target;
  const proxies: FaultProxy[] = [];
  beforeAll(async () => { target = await resolveTarget({}); });
  afterAll(async () => { for (const p of proxies) await p.close(); await target?.close(); });
  const behind = async (id: string) => {
    const p = await startFaultProxy(target.baseUrl, VARIANTS.find((v) => v.id === id)!, { keys: { mainKey: target.apiKey, ...target.extraKeys } });
    proxies.push(p);
    return p.url;
  };

  it('validate-before-lookup: an unknown world with an invalid body is 400 VALIDATION_ERROR; with a valid one, 404', async () => {
    const url = await behind('validate-before-lookup');
    const send = async (body: unknown) => {
      const res = await request(`${url}/worlds/no-such-world/chat`, { method: 'POST', headers: { 'x-api-key': target.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.statusCode, code: ((await res.body.json()) as { error?: { code?: string } }).error?.code };
    };
    expect(await send({ from: 1, to: 'ana', message: 'hi' })).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await send({ from: 'user', to: 'ana', message: 'hi' })).toEqual({ status: 404, code: 'WORLD_NOT_FOUND' });
  });

  it('openapi-needs-key: /openapi.json is 401 without a key, the document with one', async () => {
    const url = await behind('openapi-needs-key');
    expect((await request(`${url}/openapi.json`).then(async (r) => { await r.body.dump(); return r.statusCode; }))).toBe(401);
    const withKey = await request(`${url}/openapi.json`, { headers: { 'x-api-key': target.apiKey } });
    expect(withKey.statusCode).toBe(200);
    expect(((await withKey.body.json()) as { openapi?: string }).openapi).toMatch(/^3\./);
  });
});
