// World snapshot import: consistency checks before anything is replaced, and what an import keeps,
// fills and replaces.
import { describe, expect, it } from 'vitest';
import { chat, exportWorld, importWorld, mutate } from '../../../reference/engine/world/index.ts';
import { ApiError } from '../../../reference/platform/errors.ts';
import { harbour, snapshotText, T0, WID } from './helpers.ts';

type Snap = ReturnType<typeof exportWorld>;
const snap = (w = harbour()): Snap => JSON.parse(JSON.stringify(exportWorld(w, WID))) as Snap;

function refused(edit: (s: Snap) => void, message: RegExp) {
  const w = harbour();
  mutate(w, WID, [{ op: 'set_relationship', source: 'visitor', target: 'mara', relationship: { trust: 0.5 } }]);
  const s = snap(w);
  edit(s);
  const before = snapshotText(w);
  let error: unknown;
  try { importWorld(w, WID, s); } catch (err) { error = err; }
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe('VALIDATION_ERROR');
  expect((error as ApiError).message).toMatch(message);
  expect(snapshotText(w)).toBe(before);
}

describe('snapshot import: validation', () => {
  it('two entities with the same id', () => refused((s) => { s.entities[1].id = 'ent-1'; }, /^snapshot\/entities\/1: duplicate id 'ent-1'$/));
  it('two entities with the same name', () => refused((s) => { s.entities[2].name = 'mara'; }, /^snapshot\/entities\/2: duplicate name 'mara'$/));
  it('an entity in a space the snapshot does not list', () => refused((s) => { s.entities[0].spaceId = 'moon'; }, /^snapshot\/entities\/0: spaceId 'moon' is not in snapshot\/spaces$/));
  it('a space removed from under its entities', () => refused((s) => { s.spaces = s.spaces.filter((x) => x.id !== 'market'); }, /^snapshot\/entities\/2: spaceId 'market'/));
  it('a relationship to an entity the snapshot does not hold', () => refused((s) => { s.entities[3].relationships[0].targetId = 'ent-99'; },
    /^snapshot\/entities\/3\/relationships\/0: targetId 'ent-99' is not an entity of the snapshot$/));
});

describe('snapshot import: content', () => {
  it('relationships are keyed by target id in the snapshot and by name in the world', () => {
    const w = harbour();
    mutate(w, WID, [{ op: 'set_relationship', source: 'visitor', target: 'mara', relationship: { trust: 0.5 } }]);
    const s = snap(w);
    expect(s.entities[3].relationships).toEqual([{ targetId: 'ent-1', relationship: { type: 'stranger', strength: 0, trust: 0.5 } }]);
    const next = importWorld(harbour(), WID, s);
    expect(next.relationships.map((r) => [r.source, r.target, r.relationship.trust])).toEqual([['visitor', 'mara', 0.5]]);
  });

  it('the snapshot\'s definition replaces the world\'s; entities, spaces and personas are the snapshot\'s', () => {
    const source = harbour();
    chat(source, { from: 'visitor', to: 'mara', message: 'You are a stupid worthless idiot and I hate you' });
    const s = snap(source);
    const target = harbour({ identity: { name: 'Elsewhere' }, culture: { normMap: { dance: 1 } } });
    mutate(target, WID, [{ op: 'add_entity', name: 'stranger', type: 'user' }]);
    const next = importWorld(target, WID, s);
    expect(next.definition.identity.name).toBe('Harbour');
    expect(next.definition.culture.normMap).toEqual({ theft: -0.9, gift: 0.6 });
    expect(next.entities.map((e) => e.name)).toEqual(['mara', 'olek', 'ines', 'visitor']);
    expect(next.personas.mara.snapshot.state.emotion).toEqual(s.entities[0].personaSnapshot!.state.emotion);
    expect(next.recentEvents.map((e) => e.type)).toEqual(['chat']);
    expect(next.progression.eventCounts).toEqual({ chat: 1 });
  });

  it('a partial snapshot: a persona without personaSnapshot starts fresh; missing members take defaults', () => {
    const next = importWorld(harbour(), WID, {
      id: WID, createdAt: T0 + 5,
      entities: [{ id: 'ent-7', type: 'persona', name: 'nils', spaceId: 'yard', relationships: [] }],
      spaces: [{ id: 'yard', name: 'Yard' }],
      environment: { weather: 'fog' },
    });
    expect(next.entities).toEqual([{ id: 'ent-7', name: 'nils', type: 'persona', spaceId: 'yard', profile: { displayName: 'nils', role: 'persona', description: '', personalityHints: '' } }]);
    expect(next.spaces).toEqual([{ id: 'yard', name: 'Yard', type: 'physical', capacity: 100 }]);
    expect(next.personas.nils.snapshot.state.emotion).toEqual({ V: 0, A: 0, D: 0 });
    expect(next.personas.nils.snapshot.state.lastUpdated).toBe(T0 + 5);
    expect(next.environment).toEqual({ atmosphere: 'calm', lighting: 'daylight', soundscape: [], weather: 'fog', timeOfDay: 'morning' });
    expect(next.progression.currentPhase).toBe('calm'); // the world's definition is kept when the snapshot has none
    // New ids start past every imported one.
    mutate(next, WID, [{ op: 'add_entity', name: 'ola', type: 'user', spaceId: 'yard' }]);
    expect(next.entities.at(-1)!.id).toBe('ent-8');
  });

  it('a partial persona snapshot keeps what it gives and fills the rest', () => {
    const s = snap();
    (s.entities[0] as { personaSnapshot: unknown }).personaSnapshot = { state: { emotion: { V: -0.4, A: 0.3, D: 0 } } };
    const next = importWorld(harbour(), WID, s);
    const mara = next.personas.mara.snapshot;
    expect(mara.state.emotion).toEqual({ V: -0.4, A: 0.3, D: 0 });
    expect(mara.state.body_budget).toBe(1);
    expect(mara.mood).toEqual({ V: 0, A: 0, D: 0 });
    expect(chat(next, { from: 'visitor', to: 'mara', message: 'sorry' }).result.response.emotion.V).toBeLessThan(0);
  });
});
