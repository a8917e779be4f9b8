// Batch mutations: each operation applies on its own, one result per operation; a failing operation
// is reported (ok false, error) and leaves nothing behind, not even a consumed id.
import { describe, expect, it } from 'vitest';
import { chat, exportWorld, mutate } from '../../../reference/engine/world/index.ts';
import { harbour, snapshotText, WID } from './helpers.ts';

type Op = { op: string } & Record<string, unknown>;
const run = (w: ReturnType<typeof harbour>, ...ops: Op[]) => mutate(w, WID, ops).results;

describe('mutate: each operation', () => {
  it('add_entity: a persona gets a configuration and a psyche, a user does not; first space by default', () => {
    const w = harbour();
    expect(run(w, { op: 'add_entity', name: 'nils', type: 'persona' }, { op: 'add_entity', name: 'guest', type: 'user', spaceId: 'tower' }))
      .toEqual([{ op: 'add_entity', ok: true, data: 'ent-5' }, { op: 'add_entity', ok: true, data: 'ent-6' }]);
    expect(w.entities.slice(-2)).toEqual([
      { id: 'ent-5', name: 'nils', type: 'persona', profile: { displayName: 'nils', role: 'persona', description: '', personalityHints: '' }, spaceId: 'dock' },
      { id: 'ent-6', name: 'guest', type: 'user', profile: { displayName: 'guest', role: 'user', description: '', personalityHints: '' }, spaceId: 'tower' },
    ]);
    expect(w.personaConfigs.nils.identity.name).toBe('nils');
    expect((w.personas.nils.snapshot as unknown as { psyche: { seed: string } }).psyche.seed).toBe(`${WID}/ent-5`);
    expect(w.personas.guest).toBeUndefined();
    expect(chat(w, { from: 'guest', to: 'nils', message: 'hi' }).result.entityName).toBe('nils');
  });

  it('remove_entity: the entity, its persona, its configuration and every relationship naming it', () => {
    const w = harbour();
    run(w, { op: 'set_relationship', source: 'visitor', target: 'mara', relationship: {} }, { op: 'set_relationship', source: 'mara', target: 'olek', relationship: {} },
      { op: 'set_relationship', source: 'olek', target: 'ines', relationship: {} });
    expect(run(w, { op: 'remove_entity', name: 'mara' })).toEqual([{ op: 'remove_entity', ok: true, data: 'ent-1' }]);
    expect(w.entities.map((e) => e.name)).toEqual(['olek', 'ines', 'visitor']);
    expect(w.personas.mara).toBeUndefined();
    expect(w.personaConfigs.mara).toBeUndefined();
    expect(w.relationships.map((r) => `${r.source}->${r.target}`)).toEqual(['olek->ines']);
  });

  it('move_entity, add_space, set_environment (merge; null deletes a member), add_fact, set_relationship (upsert)', () => {
    const w = harbour();
    const r = run(w,
      { op: 'add_space', id: 'cellar', name: 'The cellar', capacity: 4 },
      { op: 'move_entity', name: 'olek', spaceId: 'cellar' },
      { op: 'set_environment', environment: { weather: 'rain', timeOfDay: null, smell: 'salt' } },
      { op: 'add_fact', fact: { content: 'Olek is in the cellar.' } },
      { op: 'add_fact', fact: { id: 'f-x', content: 'A secret.', visibility: 'private', knownBy: ['olek'] } },
      { op: 'set_relationship', source: 'visitor', target: 'mara', relationship: { trust: 0.3 } },
      { op: 'set_relationship', source: 'visitor', target: 'mara', relationship: { strength: 0.7 } },
    );
    expect(r.map((x) => [x.ok, x.data])).toEqual([
      [true, 'cellar'], [true, 'cellar'], [true, 'environment'], [true, 'fact-5'], [true, 'f-x'], [true, 'rel-6'], [true, 'rel-6'],
    ]);
    expect(w.spaces.at(-1)).toEqual({ id: 'cellar', name: 'The cellar', type: 'physical', capacity: 4 });
    expect(w.entities.find((e) => e.name === 'olek')!.spaceId).toBe('cellar');
    expect(w.environment).toEqual({ atmosphere: 'calm', lighting: 'daylight', soundscape: [], weather: 'rain', smell: 'salt' });
    expect(w.definition.knowledge.facts.slice(-2)).toEqual([
      { id: 'fact-5', content: 'Olek is in the cellar.', visibility: 'public', knownBy: [] },
      { id: 'f-x', content: 'A secret.', visibility: 'private', knownBy: ['olek'] },
    ]);
    expect(w.relationships).toEqual([{ id: 'rel-6', source: 'visitor', target: 'mara', relationship: { type: 'stranger', strength: 0.7, trust: 0.3 } }]);
  });
});

describe('mutate: failures', () => {
  const failing: Array<[string, Op, RegExp]> = [
    ['unknown op', { op: 'explode' }, /unknown op 'explode'; known: add_entity, remove_entity, move_entity, add_space, set_environment, add_fact, set_relationship/],
    ['invalid shape', { op: 'add_entity', name: 'x' }, /^invalid add_entity: /],
    ['unknown member', { op: 'move_entity', name: 'olek', spaceId: 'market', speed: 3 }, /^invalid move_entity: /],
    ['duplicate entity', { op: 'add_entity', name: 'mara', type: 'persona' }, /already exists/],
    ['entity in an unknown space', { op: 'add_entity', name: 'nils', type: 'persona', spaceId: 'moon' }, /space 'moon' does not exist/],
    ['move of an unknown entity', { op: 'move_entity', name: 'ghost', spaceId: 'market' }, /'ghost' does not exist/],
    ['move to an unknown space', { op: 'move_entity', name: 'olek', spaceId: 'moon' }, /space 'moon' does not exist/],
    ['remove of an unknown entity', { op: 'remove_entity', name: 'ghost' }, /'ghost' does not exist/],
    ['duplicate space', { op: 'add_space', id: 'dock' }, /space 'dock' already exists/],
    ['duplicate fact id', { op: 'add_fact', fact: { id: 'f-public', content: 'again' } }, /fact 'f-public' already exists/],
    ['relationship with an unknown target', { op: 'set_relationship', source: 'visitor', target: 'ghost', relationship: {} }, /'ghost' does not exist/],
    ['environment that is not an object', { op: 'set_environment', environment: [] as unknown as object }, /^invalid set_environment: \/environment must be object/],
  ];
  for (const [what, op, message] of failing) {
    it(`${what}: ok false with an error, nothing changed`, () => {
      const w = harbour();
      const before = snapshotText(w);
      const counter = w.counter;
      const [r] = run(w, op);
      expect(r.ok).toBe(false);
      expect(r.op).toBe(op.op);
      expect(r.error).toMatch(message);
      expect(snapshotText(w)).toBe(before);
      expect(w.counter).toBe(counter);
    });
  }

  it('a failure in a batch leaves the other operations applied, in order, one result each', () => {
    const w = harbour();
    const r = run(w,
      { op: 'add_entity', name: 'nils', type: 'persona' },
      { op: 'add_entity', name: 'nils', type: 'user' },
      { op: 'move_entity', name: 'nils', spaceId: 'tower' },
    );
    expect(r.map((x) => x.ok)).toEqual([true, false, true]);
    expect(w.entities.find((e) => e.name === 'nils')).toMatchObject({ type: 'persona', spaceId: 'tower', id: 'ent-5' });
    // The failed add consumed no id: the next one is ent-6.
    expect(run(w, { op: 'add_entity', name: 'ola', type: 'user' })[0].data).toBe('ent-6');
    expect(exportWorld(w, WID).entities).toHaveLength(6);
  });
});
