// Relationships, needs, goals, self-esteem, terror management, motivation contexts, interpersonal style.
import { describe, expect, it } from 'vitest';
import { psyche } from '../../../reference/engine/psyche/index.ts';
import { attachmentStyle } from '../../../reference/engine/psyche/relationships.ts';
import { traits } from '../../../reference/engine/psyche/personality.ts';
import { chat, event, INSULT, NEUTRAL, persona, PRAISE, T0 } from './helpers.ts';

describe('relationships', () => {
  it('are keyed by source, report old and new values, and count interactions', () => {
    const { config, snap } = persona();
    const r1 = psyche.perceive(snap, config, chat(PRAISE, 'bob'));
    const rel = snap.relationships.bob;
    expect(rel.entityId).toBe('id-bob');
    expect(rel.interactionCount).toBe(1);
    expect(r1.socialUpdates.map((u) => u.field).sort()).toEqual(['interactionCount', 'intimacy', 'trust']);
    const count = r1.socialUpdates.find((u) => u.field === 'interactionCount')!;
    expect([count.oldValue, count.newValue]).toEqual([0, 1]);
    expect(rel.intimacy).toBeGreaterThan(0);
    const trust1 = rel.trust;
    const r2 = psyche.perceive(snap, config, chat(INSULT, 'bob'));
    expect(r2.socialUpdates.find((u) => u.field === 'trust')!.oldValue).toBe(trust1);
    expect(snap.relationships.bob.trust).toBeLessThan(trust1);
    expect(snap.relationships.bob.lastInteraction).toBeGreaterThan(T0);
    expect(psyche.perceive(snap, config, event('rain')).socialUpdates).toEqual([]);
  });

  it('betrayal weighs more than kindness (negativity bias)', () => {
    const a = persona(), b = persona();
    // AFINN rates "good" +3 and "bad" −3: the same strength, opposite signs.
    const up = psyche.perceive(a.snap, a.config, chat('You are good.', 'x')).socialUpdates.find((u) => u.field === 'trust')!;
    const down = psyche.perceive(b.snap, b.config, chat('You are bad.', 'x')).socialUpdates.find((u) => u.field === 'trust')!;
    expect(Math.abs(down.newValue - down.oldValue)).toBeGreaterThan(Math.abs(up.newValue - up.oldValue));
  });

  it("an action's trust follows its appraisal (its description describes the act, it does not address the persona)", () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, {
      kind: 'action', type: 'insult', source: 'x', text: 'A personal insult.', timestamp: T0 + 1,
      appraisal: { goal_relevance: 0.8, goal_congruence: -0.8, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0 },
    });
    const trust = r.socialUpdates.find((u) => u.field === 'trust')!;
    expect(trust.newValue).toBeLessThan(trust.oldValue);
  });

  it('attachment style follows anxiety and avoidance', () => {
    const t = (p: object) => traits(psyche.normalizeConfig({ personality: p }, 'x'));
    expect(attachmentStyle(t({ N: 0.1, A: 0.9, E: 0.9 }), 0.9)).toBe('secure');
    expect(attachmentStyle(t({ N: 0.9, A: 0.9, E: 0.9 }), 0.4)).toBe('preoccupied');
    expect(attachmentStyle(t({ N: 0.1, A: 0.1, E: 0.1 }), 0.6)).toBe('dismissing');
    expect(attachmentStyle(t({ N: 0.9, A: 0.1, E: 0.1 }), 0.1)).toBe('fearful');
  });

  it('contextState reports the relationship toward the asker; with none named, the latest one, else the default', () => {
    const { config, snap } = persona();
    expect(psyche.contextState(snap).relationship).toEqual({ trust: 0.5, intimacy: 0, attachmentStyle: 'secure' });
    psyche.perceive(snap, config, chat(PRAISE, 'bob'));
    psyche.perceive(snap, config, chat(INSULT, 'cy'));
    const ctx = psyche.contextState(snap, snap.relationships.bob);
    expect(ctx.relationship.trust).toBe(snap.relationships.bob.trust);
    expect(snap.relationships.cy.trust).not.toBe(snap.relationships.bob.trust);
    expect(psyche.contextState(snap).relationship.trust).toBe(snap.relationships.cy.trust);
  });

  it('interpersonal affiliation follows warmth and trust', () => {
    const { config, snap } = persona();
    const a0 = snap.state.interpersonal.affiliation;
    for (let i = 0; i < 4; i++) psyche.perceive(snap, config, chat(PRAISE, 'bob'));
    expect(snap.state.interpersonal.affiliation).toBeGreaterThan(a0);
  });
});

describe('needs and motivation', () => {
  it('needsDelta adds to the need state within [0, 1]; time drifts it back', () => {
    const { config, snap } = persona();
    psyche.perceive(snap, config, event('praise', { appraisal: { goal_relevance: 0 }, stimulus: { needsDelta: { autonomy: -0.4, competence: 0.9, relatedness: 0.1 } } }));
    expect(snap.state.need_state.autonomy).toBeLessThan(0.3);
    expect(snap.state.need_state.competence).toBe(1);
    psyche.elapse(snap, config, 3 * 86400, T0 + 3e8);
    expect(snap.state.need_state.autonomy).toBeGreaterThan(0.55);
    expect(snap.state.need_state.competence).toBeLessThan(0.65);
  });

  it('hostile contact frustrates relatedness; motivation contexts record locus and threat', () => {
    const { config, snap } = persona();
    const rel0 = snap.state.need_state.relatedness;
    psyche.perceive(snap, config, chat(INSULT, 'bob', { appraisal: { controllability: 0.1 } }));
    expect(snap.state.need_state.relatedness).toBeLessThan(rel0);
    const ctx = snap.motivationContexts.bob;
    expect(ctx.locus).toBe('external');
    expect(ctx.controlSource).toBe('bob');
    expect(ctx.freedomThreat).toBeGreaterThan(0.3);
  });
});

describe('goals', () => {
  const goals = [
    { id: 'g-key', content: 'find the lost golden key', priority: 1, mutable: true, status: 'active' as const },
    { id: 'g-peace', content: 'keep peace with neighbours', priority: 0.8, mutable: false, status: 'active' as const },
    { id: 'g-boat', content: 'build a boat', priority: 0.5, mutable: true, status: 'dormant' },
  ];
  it('progress achieves a goal and activates a dormant one', () => {
    const { config, snap } = persona({ goals });
    let achieved: string[] = [], activated: string[] = [];
    for (let i = 0; i < 6 && !achieved.length; i++) {
      const r = psyche.perceive(snap, config, chat('Wonderful news, great joy: we found the golden key you lost! Amazing!', 'bob'));
      achieved = r.goalChanges.achieved; activated = r.goalChanges.activated;
    }
    expect(achieved).toEqual(['g-key']);
    expect(activated).toEqual(['g-boat']);
    expect(snap.goals.find((g) => g.id === 'g-key')!.status).toBe('achieved');
    expect(snap.goals.find((g) => g.id === 'g-boat')!.status).toBe('active');
  });

  it('setbacks abandon a mutable goal but never an immutable one', () => {
    const { config, snap } = persona({ goals });
    const abandoned: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = psyche.perceive(snap, config, chat('Terrible: the neighbours hate us, peace is ruined, the golden key is lost forever.', 'bob'));
      abandoned.push(...r.goalChanges.abandoned);
    }
    expect(abandoned).toContain('g-key');
    expect(abandoned).not.toContain('g-peace');
    expect(snap.goals.find((g) => g.id === 'g-peace')!.status).toBe('active');
  });
});

describe('self-esteem and terror management', () => {
  it('approval raises and disapproval lowers global self-esteem', () => {
    const a = persona(), b = persona();
    const g0 = a.snap.selfEsteem.global;
    psyche.perceive(a.snap, a.config, chat(PRAISE));
    psyche.perceive(b.snap, b.config, chat(INSULT));
    expect(a.snap.selfEsteem.global).toBeGreaterThan(g0);
    expect(b.snap.selfEsteem.global).toBeLessThan(g0);
  });

  it('a death reminder raises mortality salience; proximal then distal defenses; it fades', () => {
    const { config, snap } = persona();
    const r = psyche.perceive(snap, config, event('news', { text: 'A man was killed; the funeral is tomorrow and everyone will die someday.', timestamp: T0 + 1000 }));
    expect(snap.tmt.mortalitySalience).toBeGreaterThan(0.3);
    expect(snap.tmt.deathAnxiety).toBeGreaterThan(0);
    expect(snap.tmt.deathAnxiety).toBeLessThan(snap.tmt.mortalitySalience); // buffered by self-esteem
    expect(snap.tmt.proximalDefense).toBe(true);
    expect(snap.tmt.proximity).toBe('immediate');
    expect(snap.tmt.lastReminderTime).toBe(T0 + 1000);
    expect(psyche.contextState(snap).tmt.defenseMode).toBe('proximal');
    expect(r.maskExposure?.triggers ?? []).toContain('mortality_salience');
    psyche.elapse(snap, config, 600, T0 + 601_000);
    expect(snap.tmt.proximalDefense).toBe(false);
    expect(snap.tmt.distalDefense).toBe(true);
    expect(psyche.contextState(snap).tmt.defenseMode).toBe('distal');
    psyche.elapse(snap, config, 86400, T0 + 1e8);
    expect(snap.tmt.mortalitySalience).toBeLessThan(0.01);
    expect(snap.tmt.distalDefense).toBe(false);
  });

  it('distal defense amplifies trust toward the in-group', () => {
    const base = persona(), scared = persona();
    for (const p of [base, scared]) psyche.perceive(p.snap, p.config, chat(PRAISE, 'friend', { timestamp: T0 + 1 }));
    psyche.perceive(scared.snap, scared.config, event('news', { text: 'death death', timestamp: T0 + 2 }));
    psyche.elapse(scared.snap, scared.config, 600, T0 + 700_000);
    psyche.elapse(base.snap, base.config, 600, T0 + 700_000);
    expect(scared.snap.tmt.distalDefense).toBe(true);
    const gain = (p: typeof base) => {
      const u = psyche.perceive(p.snap, p.config, chat(NEUTRAL + ' Thanks.', 'friend', { timestamp: T0 + 800_000 })).socialUpdates.find((x) => x.field === 'trust')!;
      return u.newValue - u.oldValue;
    };
    expect(gain(scared)).toBeGreaterThan(gain(base));
  });
});
