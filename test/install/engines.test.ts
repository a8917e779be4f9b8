// The Node versions the project declares (package.json "engines") are ones every installed dependency
// accepts, and the Node running the tests is one of them: what npm checks when it warns EBADENGINE,
// read from node_modules as installed. Optional packages are left out, as npm leaves them out (one that
// does not fit is skipped, and the command that needs it says so).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const declared: string = readJson(join(ROOT, 'package.json')).engines.node;
const lock = readJson(join(ROOT, 'package-lock.json'));

/** Every package of the lock that is installed here and not optional, with the Node range it declares. */
const installed = Object.entries<{ optional?: boolean }>(lock.packages)
  .filter(([path, entry]) => path && !entry.optional && existsSync(join(ROOT, path, 'package.json')))
  .map(([path]) => {
    const pkg = readJson(join(ROOT, path, 'package.json'));
    return { name: `${pkg.name}@${pkg.version}`, node: pkg.engines?.node as string | undefined };
  });

describe('the Node versions the project declares', () => {
  it('are read from a lock of the installed tree', () => {
    expect(installed.length).toBeGreaterThan(100);
    expect(installed.filter((p) => p.node).length).toBeGreaterThan(20);
  });

  it('are accepted by every installed dependency', () => {
    const refusing = installed.filter((p) => p.node && !semver.subset(declared, p.node));
    expect(refusing.map((p) => `${p.name} wants node ${p.node}`), `the project declares node ${declared}`).toEqual([]);
  });

  it('are the LTS lines the project runs on: 20 from 20.19, 22 from 22.13, 24 and later', () => {
    for (const v of ['20.19.0', '22.13.0', '24.0.0', '24.11.1']) expect(semver.satisfies(v, declared), `${v} against ${declared}`).toBe(true);
    for (const v of ['20.18.0', '21.7.0', '22.12.0', '23.11.0']) expect(semver.satisfies(v, declared), `${v} against ${declared}`).toBe(false);
  });

  it('hold the Node that runs the tests, which every installed dependency accepts', () => {
    expect(semver.satisfies(process.version, declared), `${process.version} against ${declared}`).toBe(true);
    const refusing = installed.filter((p) => p.node && !semver.satisfies(process.version, p.node));
    expect(refusing.map((p) => `${p.name} wants node ${p.node}`)).toEqual([]);
  });
});
