import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KeyRegistry, PLAN_QUOTAS, PLAN_RPM, loadKeyFile, quotasOf, type KeyRecord } from '../../reference/platform/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'platform-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function keyFile(content: unknown): string {
  const path = join(dir, `keys-${++n}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const valid = [
  { key: 'mk_live_aaaaaaaaaaaa', tenantId: 't1', plan: 'free' },
  { key: 'mk_test_bbbbbbbbbbbb', tenantId: 't2', plan: 'pro', rpm: 7 },
  { key: 'mk_live_cccccccccccc', tenantId: 't3', plan: 'enterprise', rpm: 10_000, origins: ['https://App.Example.com:443/'] },
  { key: 'mk_test_dddddddddddd', tenantId: 't4', plan: 'starter', origins: [] },
];

describe('loadKeyFile', () => {
  it('loads a valid file, normalising origins', () => {
    const records = loadKeyFile(keyFile(valid));
    expect(records).toHaveLength(4);
    expect(records[0]).toEqual({ key: 'mk_live_aaaaaaaaaaaa', tenantId: 't1', plan: 'free' });
    expect(records[2].origins).toEqual(['https://app.example.com']);
  });

  it('feeds a registry that looks keys up and computes their rpm', () => {
    const registry = new KeyRegistry(loadKeyFile(keyFile(valid)));
    expect(registry.size).toBe(4);
    expect(registry.all().map((r) => r.tenantId)).toEqual(['t1', 't2', 't3', 't4']);
    expect(registry.lookup('mk_live_aaaaaaaaaaaa')?.tenantId).toBe('t1');
    expect(registry.lookup('mk_live_aaaaaaaaaaa')).toBeUndefined();
    expect(registry.lookup('')).toBeUndefined();
    const rpm = (key: string) => registry.rpmOf(registry.lookup(key)!);
    expect(rpm('mk_live_aaaaaaaaaaaa')).toBe(100);
    expect(rpm('mk_test_bbbbbbbbbbbb')).toBe(2000); // rpm ignored outside enterprise
    expect(rpm('mk_live_cccccccccccc')).toBe(10_000);
    expect(PLAN_RPM).toEqual({ free: 100, starter: 500, pro: 2000 });
  });

  const invalid: Array<[string, unknown, RegExp]> = [
    ['an unknown plan', [valid[0], { key: 'mk_test_x1', tenantId: 't', plan: 'gold' }], /: entry 2: plan must be one of free, starter, pro, enterprise$/],
    ['a bad key prefix', [{ key: 'sk_live_abc', tenantId: 't', plan: 'free' }], /: entry 1: key must start with mk_live_ or mk_test_/],
    ['a bare prefix', [{ key: 'mk_live_', tenantId: 't', plan: 'free' }], /: entry 1: key must start with mk_live_ or mk_test_/],
    ['a key with a space', [{ key: 'mk_live_a b', tenantId: 't', plan: 'free' }], /: entry 1: key must start with/],
    ['a duplicate key', [valid[0], valid[1], { ...valid[0], tenantId: 'other' }], /: entry 3: duplicate key \(same key as entry 1\)$/],
    ['enterprise without rpm', [{ key: 'mk_live_e1', tenantId: 't', plan: 'enterprise' }], /: entry 1: rpm is required for plan enterprise$/],
    ['a non-integer rpm', [{ key: 'mk_live_e1', tenantId: 't', plan: 'enterprise', rpm: 1.5 }], /: entry 1: rpm must be integer$/],
    ['a zero rpm', [{ key: 'mk_live_e1', tenantId: 't', plan: 'enterprise', rpm: 0 }], /: entry 1: rpm must be >= 1$/],
    ['a missing tenantId', [{ key: 'mk_live_e1', plan: 'free' }], /: entry 1: tenantId is required$/],
    ['an empty tenantId', [{ key: 'mk_live_e1', tenantId: '', plan: 'free' }], /: entry 1: tenantId must NOT have fewer than 1 characters$/],
    ['an unknown member', [{ key: 'mk_live_e1', tenantId: 't', plan: 'free', orgins: ['https://a.example'] }], /: entry 1: unknown member "orgins"/],
    ['an origin with a path', [{ key: 'mk_live_e1', tenantId: 't', plan: 'free', origins: ['https://a.example/app'] }], /: entry 1: origins\[0\] "https:\/\/a.example\/app" is not an origin/],
    ['a non-http origin', [{ key: 'mk_live_e1', tenantId: 't', plan: 'free', origins: ['ftp://a.example'] }], /: entry 1: origins\[0\] .* is not an origin/],
    ['a non-string origin', [{ key: 'mk_live_e1', tenantId: 't', plan: 'free', origins: [42] }], /: entry 1: origins\[0\] must be string$/],
    ['an entry that is not an object', [valid[0], 'mk_live_zzz'], /: entry 2: entry must be object$/],
    ['a top level that is not an array', { keys: valid }, /: must be a JSON array of key records$/],
    ['malformed JSON', '[{"key": ', /: not valid JSON \(/],
  ];

  it.each(invalid)('rejects %s with one clear message naming the file and the entry', (_name, content, message) => {
    const path = keyFile(content);
    let thrown: unknown;
    try {
      loadKeyFile(path);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    const text = (thrown as Error).message;
    expect(text.startsWith(`${path}: `)).toBe(true);
    expect(text).toMatch(message);
  });

  it('never prints a key in an error message', () => {
    const secret = 'mk_live_super_secret_value';
    const path = keyFile([{ key: secret, tenantId: 't', plan: 'gold' }, { key: secret, tenantId: 't', plan: 'free' }]);
    expect(() => loadKeyFile(path)).toThrow(/entry 1: plan/);
    expect(() => loadKeyFile(keyFile([{ key: secret, tenantId: 't', plan: 'free' }, { key: secret, tenantId: 'u', plan: 'free' }]))).toThrow(
      /^(?!.*super_secret).*duplicate key/,
    );
  });

  it('reports an unreadable file by name', () => {
    const missing = join(dir, 'absent.json');
    expect(() => loadKeyFile(missing)).toThrow(`${missing}: cannot read the key file (ENOENT)`);
  });
});

describe('KeyRegistry.add', () => {
  it('validates like the loader and refuses duplicates without printing the key', () => {
    const registry = new KeyRegistry();
    registry.add({ key: 'mk_test_one', tenantId: 't1', plan: 'free' });
    expect(() => registry.add({ key: 'mk_test_one', tenantId: 't2', plan: 'free' })).toThrow(
      'duplicate key (already registered for tenant "t1")',
    );
    expect(() => registry.add({ key: 'mk_test_two', tenantId: 't2', plan: 'enterprise' } as KeyRecord)).toThrow(
      'rpm is required for plan enterprise',
    );
    expect(() => registry.add({ key: 'bad', tenantId: 't3', plan: 'free' })).toThrow(/must start with mk_live_ or mk_test_/);
    expect(registry.size).toBe(1);
  });
});

describe('quotas in the key file', () => {
  it('takes a key\'s own quotas over its plan\'s defaults', () => {
    const [own, plain] = loadKeyFile(keyFile([
      { key: 'mk_test_qqqqqqqqqqqq', tenantId: 't', plan: 'free', quotas: { worlds: 3, storedBytes: 0 } },
      { key: 'mk_test_rrrrrrrrrrrr', tenantId: 't', plan: 'pro' },
    ]));
    expect(quotasOf(own)).toEqual({ ...PLAN_QUOTAS.free, worlds: 3, storedBytes: 0 });
    expect(quotasOf(plain)).toEqual(PLAN_QUOTAS.pro);
  });

  for (const [label, quotas, message] of [
    ['an unknown quota', { world: 3 }, /entry 1: unknown member "quotas.world" \(allowed: worlds, personas, entitiesPerWorld, storedBytes\)/],
    ['a negative quota', { personas: -1 }, /entry 1: quotas\.personas must be >= 0/],
    ['a quota that is not a whole number', { storedBytes: 1.5 }, /entry 1: quotas\.storedBytes must be integer/],
  ] as const) {
    it(`refuses ${label} in one message naming the entry`, () => {
      const file = keyFile([{ key: 'mk_test_qqqqqqqqqqqq', tenantId: 't', plan: 'free', quotas }]);
      expect(() => loadKeyFile(file)).toThrow(message);
    });
  }

  it('keys.example.json loads, its quotas included', () => {
    const records = loadKeyFile(new URL('../../keys.example.json', import.meta.url).pathname);
    expect(records.some((r) => r.quotas !== undefined)).toBe(true);
  });
});
