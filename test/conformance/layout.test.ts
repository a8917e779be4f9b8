// The layout shows the product: cli/ wires commands to the suite's core (suite/), which reads the
// interface from contract/; the reference stands beside. Nothing in cli/ or suite/ imports scenarios/ or
// test/, and no two folders import each other, directly or around a loop, at the top level and inside
// each top folder.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOP = ['contract', 'reference', 'suite', 'cli', 'scenarios', 'model', 'fixtures', 'load', 'bench', 'test'];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? files(path) : /\.(ts|mts)$/.test(name) ? [path] : [];
  });
}

/** Every relative import of every file, as repo paths. */
const edges: Array<{ from: string; to: string }> = TOP.flatMap(files).flatMap((from) => {
  const text = readFileSync(join(ROOT, from), 'utf8');
  return [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({ from, to: normalize(join(dirname(from), m[1])) }));
});

/** Folder of a file at a depth: 1 = top folder, 2 = its subfolder (or the top folder for a file directly in it). */
const folderOf = (path: string, depth: number) => path.split('/').slice(0, Math.min(depth, path.split('/').length - 1)).join('/');

function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const visit = (node: string, stack: string[]) => {
    for (const next of graph.get(node) ?? []) {
      const at = stack.indexOf(next);
      if (at >= 0) { found.push([...stack.slice(at), next]); continue; }
      if (stack.length < 12) visit(next, [...stack, next]);
    }
  };
  for (const node of graph.keys()) visit(node, [node]);
  return found;
}

function folderGraph(depth: number, within?: string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (within && (!from.startsWith(`${within}/`) || !to.startsWith(`${within}/`))) continue;
    const a = folderOf(from, depth);
    const b = folderOf(to, depth);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

describe('the layout', () => {
  it('finds the imports it judges', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges.some((e) => e.from.startsWith('cli/') && e.to.startsWith('suite/'))).toBe(true);
  });

  it('keeps cli/ and suite/ free of scenarios/ and test/', () => {
    const bad = edges.filter((e) => /^(cli|suite)\//.test(e.from) && /^(scenarios|test)\//.test(e.to)).map((e) => `${e.from} → ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('keeps contract/ and reference/ free of the suite and the commands', () => {
    const bad = edges.filter((e) => /^(contract|reference)\//.test(e.from) && /^(suite|cli|scenarios|test|load)\//.test(e.to)).map((e) => `${e.from} → ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('has no cycle between top folders', () => {
    expect(cycles(folderGraph(1)).map((c) => c.join(' → '))).toEqual([]);
  });

  for (const top of ['suite', 'cli', 'contract', 'reference', 'load']) {
    it(`has no cycle between the folders of ${top}/`, () => {
      expect(cycles(folderGraph(2, top)).map((c) => c.join(' → '))).toEqual([]);
    });
  }

});
