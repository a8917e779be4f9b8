// Tenancy: on every operation that names a world or persona, another tenant's resource is answered
// exactly as one that does not exist, and is left untouched. Generated from the served document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, sampleWorld, startHarness, type Harness } from './harness.ts';
import { minimalInstance } from '../../suite/bodies/minimal.ts';

let h: Harness;
let worldId: string;
let personaId: string;
beforeAll(async () => {
  h = await startHarness();
  worldId = (await h.call('createWorld', { body: sampleWorld() })).body.result.worldId;
  personaId = (await h.call('createPersona', { body: { config: { identity: { name: 'Ivo' } } } })).body.result.personaId;
});
afterAll(async () => h.close());

describe('tenant isolation on every operation', () => {
  it('answers another tenant exactly as for a missing resource', async () => {
    const scoped = h.reader.operations().filter((o) => o.path.startsWith('/worlds/{id}') || o.path.startsWith('/personas/{id}'));
    expect(scoped.length).toBe(38);
    for (const op of scoped) {
      const own = op.path.startsWith('/worlds') ? worldId : personaId;
      const extra = Object.fromEntries((op.path.match(/\{(pid|aid|rid)\}/g) ?? []).map((p) => [p.slice(1, -1), 'mara']));
      const schema = h.reader.requestSchema(op.operationId);
      const body = schema ? minimalInstance(schema) : undefined;
      const absent = own.replace(/.$/, 'z');
      const foreign = await h.call(op.operationId, { key: KEYS.b, params: { id: own, ...extra }, body });
      const missing = await h.call(op.operationId, { key: KEYS.b, params: { id: absent, ...extra }, body });
      // Same status, code and message (the message may quote the id the caller sent).
      const seen = (text: string, id: string) => text.split(id).join('<id>');
      expect({ op: op.operationId, status: foreign.status, text: seen(foreign.text, own) })
        .toEqual({ op: op.operationId, status: missing.status, text: seen(missing.text, absent) });
      expect(foreign.status, op.operationId).toBe(404);
    }
  });

  it('leaves the resources of the owner untouched and never lists them for others', async () => {
    expect((await h.call('getWorld', { params: { id: worldId } })).status).toBe(200);
    expect((await h.call('getPersona', { params: { id: personaId } })).status).toBe(200);
    const snapshot = (await h.call('getWorldSnapshot', { params: { id: worldId } })).body.result;
    expect(snapshot.entities.map((e: { name: string }) => e.name)).toEqual(['mara', 'olek', 'visitor']);
    expect((await h.call('listWorlds', { key: KEYS.b })).body.result.worlds).toEqual([]);
    expect((await h.call('listPersonas', { key: KEYS.b })).body.result.personas).toEqual([]);
  });
});
