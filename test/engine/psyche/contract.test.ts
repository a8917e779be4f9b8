// Every output of the psyche validates against the contract components (closed objects, VAD bounds).
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { chat, event, INSULT, invalid, persona, PRAISE, T0 } from './helpers.ts';

describe('psyche outputs validate against the contract', () => {
  it('normalizeConfig({}) is a PersonaConfig with every default', () => {
    const c = psyche.normalizeConfig({}, 'x');
    expect(invalid('PersonaConfig', c)).toBe('');
    expect(c.identity.name).toBe('x');
    expect(c.personality).toEqual({ O: 0.5, C: 0.5, E: 0.5, A: 0.5, N: 0.5, H: 0.5 });
    expect(c.type).toBe('persona');
    expect(psyche.normalizeConfig(undefined, 'y').identity.name).toBe('y');
  });

  it('normalizeConfig keeps extra top-level members and drops unknown members of closed objects', () => {
    const c = psyche.normalizeConfig({ personality: { O: 1, Z: 3 } as never, extra: 1 } as never, 'x') as unknown as Record<string, unknown>;
    expect(c.extra).toBe(1);
    expect(c.personality).toEqual({ O: 1, C: 0.5, E: 0.5, A: 0.5, N: 0.5, H: 0.5 });
    expect(invalid('PersonaConfig', c)).toBe('');
  });

  it('create() is a PersonaSnapshot', () => {
    const { snap } = persona({ goals: [{ content: 'find the lost key' }] });
    expect(invalid('PersonaSnapshot', snap)).toBe('');
    expect(invalid('StandalonePersonaSnapshot', snap)).toBe('');
    expect(snap.goals[0].id).toBe('goal-1');
  });

  it('view, contextState and discrete validate', () => {
    const { snap } = persona();
    expect(invalid('StandalonePersonaState', psyche.view(snap))).toBe('');
    expect(invalid('ContextPersonaState', psyche.contextState(snap))).toBe('');
    expect(invalid('DiscreteEmotion', psyche.discrete(snap))).toBe('');
  });

  it('perceive, witness and elapse keep every output valid', () => {
    const { config, snap } = persona();
    const r1 = psyche.perceive(snap, config, chat(INSULT));
    expect(invalid('EntityResponse', r1)).toBe('');
    const r2 = psyche.perceive(snap, config, event('storm', { appraisal: { goal_relevance: 1 }, stimulus: { vadDelta: { V: -1, A: 1, D: -1 } } }));
    expect(invalid('EntityResponse', r2)).toBe('');
    const r3 = psyche.witness(snap, config, { V: 1, A: 1, D: 1 }, 1, T0 + 99_000);
    expect(invalid('EntityResponse', r3)).toBe('');
    psyche.elapse(snap, config, 3600, T0 + 3_700_000);
    psyche.override(snap, { V: -1 }, T0 + 3_800_000);
    expect(invalid('PersonaSnapshot', snap)).toBe('');
    expect(invalid('ContextPersonaState', psyche.contextState(snap, snap.relationships.bob))).toBe('');
    expect(invalid('StandalonePersonaState', psyche.view(snap))).toBe('');
    expect(psyche.promptLines(snap, config).every((l) => typeof l === 'string' && l.length > 0)).toBe(true);
    expect(psyche.version).toMatch(/^psyche-\d+\.\d+\.\d+$/);
    psyche.perceive(snap, config, chat(PRAISE));
    expect(invalid('PersonaSnapshot', JSON.parse(JSON.stringify(snap)))).toBe('');
  });
});
