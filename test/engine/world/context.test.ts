// Context of one entity (docs/engine.md, "Worlds": Context) and the world's memory of events.
import { describe, expect, it } from 'vitest';
import { chat, context, dispatchEvent, mutate, query } from '../../../reference/engine/world/index.ts';
import { errorCode, harbour, WID } from './helpers.ts';

const types = (events: Array<{ type: string }>) => events.map((e) => e.type);

describe('context', () => {
  it('whoAmI, whereAmI and whoIsHere (the other entities of the same space, users included)', () => {
    const w = harbour();
    const c = context(w, 'mara');
    expect(c.whoAmI).toMatchObject({ id: 'ent-1', name: 'mara', type: 'persona', spaceId: 'dock' });
    expect(c.whereAmI).toEqual({ id: 'dock', name: 'dock', type: 'physical', capacity: 100 });
    expect(c.whoIsHere.map((e) => e.name)).toEqual(['olek', 'visitor']);
    expect(context(w, 'ines').whoIsHere).toEqual([]);
    expect(context(w, 'visitor').whoIsHere.map((e) => e.name)).toEqual(['mara', 'olek']);
  });

  it('whatHappened: events in my space, involving me, or world-wide; not the others', () => {
    const w = harbour();
    dispatchEvent(w, { type: 'dock-wave', spaceId: 'dock' });
    dispatchEvent(w, { type: 'market-noise', spaceId: 'market' });
    dispatchEvent(w, { type: 'letter-to-mara', targetEntity: 'mara', spaceId: 'market' });
    dispatchEvent(w, { type: 'from-mara', sourceEntity: 'mara', spaceId: 'tower' });
    dispatchEvent(w, { type: 'eclipse' });
    dispatchEvent(w, { type: 'to-ines', targetEntity: 'ines' });
    chat(w, { from: 'olek', to: 'ines', message: 'hello' }); // in the market
    expect(types(context(w, 'mara').whatHappened)).toEqual(['dock-wave', 'letter-to-mara', 'from-mara', 'eclipse']);
    expect(types(context(w, 'ines').whatHappened)).toEqual(['market-noise', 'letter-to-mara', 'eclipse', 'to-ines', 'chat']);
    expect(types(context(w, 'olek').whatHappened)).toEqual(['dock-wave', 'eclipse', 'chat']); // the sender is involved
  });

  it('whatHappened keeps the last 20; the world keeps the last 50 recent events', () => {
    const w = harbour();
    for (let i = 1; i <= 55; i++) dispatchEvent(w, { type: `e${i}`, spaceId: 'tower' });
    expect(w.recentEvents).toHaveLength(50);
    expect(w.recentEvents[0].type).toBe('e6');
    dispatchEvent(w, { type: 'dock-1', spaceId: 'dock' });
    expect(types(context(w, 'mara').whatHappened)).toEqual(['dock-1']);
    for (let i = 2; i <= 25; i++) dispatchEvent(w, { type: `dock-${i}`, spaceId: 'dock' });
    const seen = types(context(w, 'mara').whatHappened);
    expect(seen).toHaveLength(20);
    expect(seen[0]).toBe('dock-6');
    expect(seen[19]).toBe('dock-25');
  });

  it('adjacentSpaces: to of connections from here, from of bidirectional connections to here', () => {
    const w = harbour();
    expect(context(w, 'mara').adjacentSpaces).toEqual(['market']); // dock → market
    expect(context(w, 'ines').adjacentSpaces).toEqual(['dock', 'tower']); // dock ↔ market, market → tower
    mutate(w, WID, [{ op: 'move_entity', name: 'olek', spaceId: 'tower' }]);
    expect(context(w, 'olek').adjacentSpaces).toEqual([]); // market → tower is one-way
  });

  it('knownFacts: public ones, and private ones whose knownBy names the entity by name or id', () => {
    const w = harbour();
    const ids = (name: string) => context(w, name).knownFacts.map((f) => f.id);
    expect(ids('mara')).toEqual(['f-public', 'f-mara']);
    expect(ids('ines')).toEqual(['f-public', 'f-ines-id']); // knownBy ['ent-3']
    expect(ids('olek')).toEqual(['f-public']);
    expect(ids('visitor')).toEqual(['f-public']);
  });

  it('personaState for personas, none for users; world identity, culture and phase', () => {
    const w = harbour();
    const c = context(w, 'mara');
    expect(c.personaState).toMatchObject({ emotion: { discrete: { primary: 'neutral' } }, soulStage: { id: 0, name: 'equanimity' }, mask: { integrity: 1, state: 'intact' } });
    expect(context(w, 'visitor').personaState).toBeUndefined();
    expect(c.worldIdentity).toEqual({ name: 'Harbour', description: 'A small port.' });
    expect(c.currentPhase).toBe('calm');
    chat(w, { from: 'visitor', to: 'mara', message: 'You are a stupid worthless idiot and I hate you' });
    expect(context(w, 'mara').personaState!.emotion.vad.V).toBeLessThan(-0.1);
  });

  it("personaState.relationship is the persona's relationship with whom it last dealt with, the default before anyone", () => {
    const w = harbour();
    expect(context(w, 'mara').personaState!.relationship).toEqual({ trust: 0.5, intimacy: 0, attachmentStyle: 'secure' });
    const shown = () => context(w, 'mara').personaState!.relationship;
    const held = (key: string) => {
      const r = w.personas.mara.snapshot.relationships[key];
      return { trust: r.trust, intimacy: r.intimacy, attachmentStyle: r.attachmentStyle };
    };
    chat(w, { from: 'visitor', to: 'mara', message: 'You are a stupid worthless idiot and I hate you' });
    expect(shown()).toEqual(held('visitor'));
    expect(shown().trust).toBeLessThan(0.5);
    w.progression.elapsedTime += 60; // a minute later, someone else
    chat(w, { from: 'olek', to: 'mara', message: 'Thank you, you did a wonderful job.' });
    expect(shown()).toEqual(held('olek'));
    expect(shown()).not.toEqual(held('visitor'));
  });

  it('an entity may be named by id; an unknown one is ENTITY_NOT_FOUND', () => {
    const w = harbour();
    expect(context(w, 'ent-2').whoAmI.name).toBe('olek');
    expect(errorCode(() => context(w, 'ghost'))).toBe('ENTITY_NOT_FOUND');
  });

  it('query filters entities by space and type; relationships as a two-level map', () => {
    const w = harbour();
    mutate(w, WID, [{ op: 'set_relationship', source: 'visitor', target: 'mara', relationship: { trust: 0.4 } }]);
    expect(query(w, { spaceId: 'dock' }).entities.map((e) => e.name)).toEqual(['mara', 'olek', 'visitor']);
    expect(query(w, { entityType: 'user' }).entities.map((e) => e.name)).toEqual(['visitor']);
    expect(query(w, {}).spaces.map((s) => s.id)).toEqual(['dock', 'market', 'tower']);
    expect(query(w, {}).relationships).toEqual({ visitor: { mara: { type: 'stranger', strength: 0, trust: 0.4 } } });
  });
});
