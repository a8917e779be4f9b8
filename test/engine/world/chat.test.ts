// Chat (docs/engine.md, "Worlds": Chat): the recipient perceives the message; bystanders in its
// space overhear (groupAwareness, share 0.1) and catch the emotion (emotionalContagion, share 0.2).
import { describe, expect, it } from 'vitest';
import { chat } from '../../../reference/engine/world/index.ts';
import type { VAD } from '../../../contract/resources.ts';
import { errorCode, harbour, names, persona, snapshotText, T0 } from './helpers.ts';

// Average personality at stage 0: susceptibility = 0.5 · (0.5 + 0.5 · 2 · 0.2) = 0.35.
const SUSCEPTIBILITY = 0.35;
const toward = (e: VAD, other: VAD, k: number): VAD => ({ V: e.V + k * (other.V - e.V), A: e.A + k * (other.A - e.A), D: e.D + k * (other.D - e.D) });
const close = (a: VAD, b: VAD) => { for (const k of ['V', 'A', 'D'] as const) expect(a[k]).toBeCloseTo(b[k], 5); };
const HOSTILE = 'You are a stupid worthless idiot and I hate you';

describe('chat', () => {
  it('the recipient perceives the message as a chat percept from the sender', () => {
    const w = harbour();
    const r = chat(w, { from: 'visitor', to: 'mara', message: HOSTILE });
    expect(r.result.entityName).toBe('mara');
    expect(r.result.response.emotion.V).toBeLessThan(-0.1);
    expect(r.result.response.memoryEpisode).toMatchObject({ context: HOSTILE, sourceEntity: 'ent-4', timestamp: T0 });
    expect(persona(w, 'mara').relationships.visitor.entityId).toBe('ent-4');
    expect(r.result.response.text.length).toBeGreaterThan(0);
  });

  it('is logged as an event of type chat with the message and the reply, and counted', () => {
    const w = harbour();
    const r = chat(w, { from: 'visitor', to: 'ines', message: 'hello' });
    expect(r.logged).toEqual([{
      type: 'chat', spaceId: 'market', timestamp: T0, sourceEntity: 'visitor', targetEntity: 'ines',
      payload: { message: 'hello', reply: r.result.response.text },
    }]);
    expect(w.recentEvents).toEqual(r.logged);
    expect(w.progression.eventCounts).toEqual({ chat: 1 });
  });

  it('groupAwareness (default on): the other personas of the recipient\'s space overhear, with share 0.1', () => {
    const w = harbour();
    expect(w.interaction).toMatchObject({ groupAwareness: true, emotionalContagion: false });
    const olekBefore = { ...persona(w, 'olek').state.emotion };
    const inesBefore = JSON.stringify(persona(w, 'ines'));
    const r = chat(w, { from: 'visitor', to: 'mara', message: HOSTILE }).result;
    expect(names(r.groupAwareness)).toEqual(['olek']); // not ines (market), not the user
    expect(r.affected).toEqual([]);
    expect(r.groupAwareness[0].response.text).toBe(`(olek overhears visitor: "${HOSTILE}")`);
    close(persona(w, 'olek').state.emotion, toward(olekBefore, r.response.emotion, 0.1 * SUSCEPTIBILITY));
    expect(r.groupAwareness[0].response.emotion).toEqual(persona(w, 'olek').state.emotion);
    expect(JSON.stringify(persona(w, 'ines'))).toBe(inesBefore);
  });

  it('the sender is never a bystander of its own message', () => {
    const w = harbour();
    const olekBefore = JSON.stringify(persona(w, 'olek'));
    const r = chat(w, { from: 'olek', to: 'mara', message: HOSTILE }).result;
    expect(r.groupAwareness).toEqual([]);
    expect(JSON.stringify(persona(w, 'olek'))).toBe(olekBefore);
  });

  it('groupAwareness off: nobody overhears', () => {
    const w = harbour();
    w.interaction.groupAwareness = false;
    const olekBefore = JSON.stringify(persona(w, 'olek'));
    const r = chat(w, { from: 'visitor', to: 'mara', message: HOSTILE }).result;
    expect(r.groupAwareness).toEqual([]);
    expect(r.affected).toEqual([]);
    expect(JSON.stringify(persona(w, 'olek'))).toBe(olekBefore);
  });

  it('emotionalContagion on (groupAwareness off): bystanders catch the emotion with share 0.2, listed in affected', () => {
    const w = harbour();
    w.interaction = { ...w.interaction, groupAwareness: false, emotionalContagion: true };
    const olekBefore = { ...persona(w, 'olek').state.emotion };
    const r = chat(w, { from: 'visitor', to: 'mara', message: HOSTILE }).result;
    expect(r.groupAwareness).toEqual([]);
    expect(names(r.affected)).toEqual(['olek']);
    close(r.affected[0].response.emotion, toward(olekBefore, r.response.emotion, 0.2 * SUSCEPTIBILITY));
  });

  it('both on: a bystander overhears, then catches the emotion', () => {
    const w = harbour();
    w.interaction.emotionalContagion = true;
    const olekBefore = { ...persona(w, 'olek').state.emotion };
    const r = chat(w, { from: 'visitor', to: 'mara', message: HOSTILE }).result;
    expect(names(r.groupAwareness)).toEqual(['olek']);
    expect(names(r.affected)).toEqual(['olek']);
    const overheard = toward(olekBefore, r.response.emotion, 0.1 * SUSCEPTIBILITY);
    close(r.groupAwareness[0].response.emotion, overheard);
    close(r.affected[0].response.emotion, toward(overheard, r.response.emotion, 0.2 * SUSCEPTIBILITY));
  });

  it('unknown sender or recipient is ENTITY_NOT_FOUND, a user recipient VALIDATION_ERROR; nothing moves', () => {
    const w = harbour();
    const before = snapshotText(w);
    expect(errorCode(() => chat(w, { from: 'ghost', to: 'mara', message: 'boo' }))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => chat(w, { from: 'mara', to: 'ghost', message: 'boo' }))).toBe('ENTITY_NOT_FOUND');
    expect(errorCode(() => chat(w, { from: 'mara', to: 'visitor', message: 'boo' }))).toBe('VALIDATION_ERROR');
    expect(snapshotText(w)).toBe(before);
  });
});
