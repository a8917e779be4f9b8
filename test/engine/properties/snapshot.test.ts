// Snapshot round trips are lossless. Worlds: after random sequences of world operations,
// exportWorld(importWorld(w, exportWorld(w))) equals exportWorld(w) — imported into the same world
// (PUT of its own snapshot) and into a new, empty world — and both worlds then answer the same
// operations alike. Personas: import of an export gives the same export, and the same future.
import { describe, expect, it } from 'vitest';
import { exportPersona, exportWorld, importPersona, importWorld, newWorld } from '../../../reference/engine/world/index.ts';
import { newPersona as newPersonaDoc } from '../../../reference/engine/world/persona.ts';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { apply, check, configInput, jsonClone, opsArb, T0, type Persona } from './arbitraries.ts';
import { applyWorld, buildWorld, setupArb, WORLD_ID, worldOpsArb } from './world-arbitraries.ts';
import type { PersonaDoc } from '../../../reference/engine/world/model.ts';

/** Sorted keys: the same content whatever the order of members. */
const canonical = (x: unknown): unknown => (Array.isArray(x) ? x.map(canonical)
  : x && typeof x === 'object' ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, canonical((x as Record<string, unknown>)[k])])) : x);

function sameJson(a: unknown, b: unknown, what: string, form: (x: unknown) => unknown = (x) => x): void {
  const x = JSON.stringify(form(a)), y = JSON.stringify(form(b));
  if (x === y) return;
  let j = 0;
  while (x[j] === y[j]) j++;
  throw new Error(`${what} differs at character ${j}:\n  ${x.slice(Math.max(0, j - 200), j + 200)}\n  ${y.slice(Math.max(0, j - 200), j + 200)}`);
}

/** The psyche side of a standalone persona document, for the persona operations of ./arbitraries. */
const asPersona = (doc: PersonaDoc): Persona => ({ config: doc.config, snap: doc.runtime.snapshot, now: doc.clock });

describe('snapshot round trips (fast-check)', () => {
  it('world: export → JSON → import → export is equal, into the same world and into a new one', () => {
    check('world snapshot round trip', 0x5a9501, 60, [setupArb, worldOpsArb(15)], (setup, ops) => {
      const w = buildWorld(setup);
      for (const o of ops) applyWorld(w, o);
      const exported = exportWorld(w, WORLD_ID);
      const text = JSON.stringify(exported);
      const same = importWorld(w, WORLD_ID, jsonClone(exported));
      sameJson(exportWorld(same, WORLD_ID), JSON.parse(text), 'export after import into the same world');
      const fresh = importWorld(newWorld({ definition: { identity: { name: 'empty' } } }, WORLD_ID, T0 + 999), WORLD_ID, JSON.parse(text));
      sameJson(exportWorld(fresh, WORLD_ID), JSON.parse(text), 'export after import into a new world');
      // The export itself was not changed by the imports.
      expect(JSON.stringify(exportWorld(w, WORLD_ID))).toBe(text);
    });
  });

  // Member order is compared by the determinism properties; here the content.
  it('world: the imported world answers the next operations like the original (same content)', () => {
    check('world snapshot future', 0x5a9502, 50, [setupArb, worldOpsArb(10), worldOpsArb(8)], (setup, before, after) => {
      const w = buildWorld(setup);
      for (const o of before) applyWorld(w, o);
      const copy = importWorld(newWorld({ definition: {} }, WORLD_ID, T0 + 999), WORLD_ID, jsonClone(exportWorld(w, WORLD_ID)));
      for (const [i, o] of after.entries()) {
        sameJson(applyWorld(copy, jsonClone(o)), applyWorld(w, jsonClone(o)), `result of op ${i} (${o.op}) after the import`, canonical);
      }
      sameJson(exportWorld(copy, WORLD_ID), exportWorld(w, WORLD_ID), 'final export', canonical);
    });
  });

  it('persona: import of an export gives the same export, and the same responses afterwards', () => {
    check('persona snapshot round trip', 0x5a9503, 150, [configInput, opsArb(15), opsArb(8)], (cfg, before, after) => {
      const doc = newPersonaDoc(cfg, 'p-1', T0);
      const p = asPersona(doc);
      for (const o of before) apply(p, o);
      doc.clock = p.now;
      const exported = JSON.stringify(exportPersona(doc));
      const copy = newPersonaDoc(jsonClone(doc.config), 'p-2', T0 + 5);
      copy.clock = doc.clock;
      importPersona(copy, 'p-2', JSON.parse(exported));
      sameJson(exportPersona(copy), JSON.parse(exported), 'persona export after import');
      importPersona(doc, 'p-1', JSON.parse(exported));
      sameJson(exportPersona(doc), JSON.parse(exported), 'persona export after import into itself');
      const a = asPersona(doc), b = asPersona(copy);
      for (const [i, o] of after.entries()) sameJson(apply(b, jsonClone(o)) ?? null, apply(a, jsonClone(o)) ?? null, `response ${i} (${o.op}) after the import`);
      sameJson(exportPersona(copy), exportPersona(doc), 'final persona export');
    });
  });

  it('a round trip is not trivially equal: a different state gives a different export', () => {
    const doc = newPersonaDoc({}, 'p', T0);
    const before = JSON.stringify(exportPersona(doc));
    psyche.override(doc.runtime.snapshot, { V: -0.5 }, T0);
    expect(JSON.stringify(exportPersona(doc))).not.toBe(before);
    importPersona(doc, 'p', JSON.parse(before));
    expect(JSON.stringify(exportPersona(doc))).toBe(before);
  });
});
