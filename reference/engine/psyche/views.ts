// Read-only views of a snapshot: the standalone state (GET /personas/{id}/state), the personaState of
// a world context, and the lines of a system prompt.
import type { ContextPersonaState, PersonaConfig, PersonaRelationship, PersonaSnapshot, StandalonePersonaState } from '../../../contract/resources.ts';
import { discreteOf, labelOf, octant } from './discrete.ts';
import { sensations, REGIONS } from './somatic.ts';
import { coherenceOf } from './narrative.ts';
import { defenseMode } from './tmt.ts';
import { activeStrategy, favourite } from './regulation.ts';
import { REL } from './relationships.ts';
import { GOAL_STATUS } from './defaults.ts';
import { fin, readVad, round } from './util.ts';

const f2 = (x: number) => fin(x, 0).toFixed(2);

export function view(s: PersonaSnapshot): StandalonePersonaState {
  const e = readVad(s.state?.emotion);
  return {
    emotion: { vad: e, discrete: labelOf(s) },
    mood: { vad: readVad(s.mood) },
    somatic: sensations(s),
    narrative: { tone: round(fin(s.narrative?.tone, 0)), agency: round(fin(s.narrative?.agency, 0)), coherence: coherenceOf(s.narrative ?? ({} as PersonaSnapshot['narrative'])) },
  };
}

/**
 * The relationship a context reports when no one is named: the one with the most recent interaction
 * (ties: the first key in code-unit order), so the field follows whom the persona last dealt with.
 */
export function latestRelationship(s: PersonaSnapshot): PersonaRelationship | undefined {
  let best: PersonaRelationship | undefined;
  let bestKey = '';
  for (const [key, rel] of Object.entries(s.relationships ?? {})) {
    if (!rel || typeof rel !== 'object') continue;
    const at = fin(rel.lastInteraction, -Infinity), bestAt = best ? fin(best.lastInteraction, -Infinity) : -Infinity;
    if (!best || at > bestAt || (at === bestAt && key < bestKey)) {
      best = rel;
      bestKey = key;
    }
  }
  return best;
}

export function contextState(s: PersonaSnapshot, toward: PersonaRelationship | undefined = latestRelationship(s)): ContextPersonaState {
  const e = readVad(s.state.emotion);
  const st = s.state.soul_stage;
  const somatic: Record<string, number> = {};
  for (const r of REGIONS) somatic[r] = round(fin(s.somatic?.regions?.[r], 0));
  somatic.interoception = round(fin(s.somatic?.interoception, 0.5));
  return {
    emotion: { vad: e, discrete: labelOf(s) },
    soulStage: {
      id: fin(st.id, 0), name: String(st.name ?? ''),
      blendTable: { rational: fin(st.blend_table?.rational, 0.8), irrational: fin(st.blend_table?.irrational, 0.2) },
      turnsInStage: fin(st.turns_in_stage, 0),
    },
    mask: { integrity: fin(s.maskIntegrity, 1), state: String(s.maskState ?? 'intact') },
    mood: readVad(s.mood),
    somatic,
    narrative: { tone: round(fin(s.narrative?.tone, 0)), agency: round(fin(s.narrative?.agency, 0)), coherence: coherenceOf(s.narrative) },
    regulation: { activeStrategy: activeStrategy(s.state) ?? 'none' },
    selfEsteem: { global: fin(s.selfEsteem?.global, 0.5) },
    tmt: { mortalitySalience: fin(s.tmt?.mortalitySalience, 0), deathAnxiety: fin(s.tmt?.deathAnxiety, 0), defenseMode: defenseMode(s) },
    relationship: toward
      ? { trust: fin(toward.trust, REL.TRUST_DEFAULT), intimacy: fin(toward.intimacy, 0), attachmentStyle: String(toward.attachmentStyle ?? 'secure') }
      : { trust: REL.TRUST_DEFAULT, intimacy: 0, attachmentStyle: 'secure' },
  };
}

export function promptLines(s: PersonaSnapshot, config: PersonaConfig): string[] {
  const id = config.identity;
  const e = readVad(s.state.emotion);
  const d = discreteOf(e);
  const lines = [`You are ${id.name}, ${id.role}.`, `You speak in a ${id.speakingStyle} manner.`];
  if (id.culturalIdentity && id.culturalIdentity !== 'unspecified') lines.push(`Your cultural identity: ${id.culturalIdentity}.`);
  if (id.coreValues?.length) lines.push(`Your core values: ${id.coreValues.join(', ')}.`);
  const goals = s.goals.filter((g) => g.status === GOAL_STATUS.active).sort((a, b) => fin(b.priority, 0) - fin(a.priority, 0));
  if (goals.length) lines.push(`Your goals: ${goals.map((g) => g.content || g.id).join('; ')}.`);
  lines.push(`Self-concept: ${s.selfConcept}`);
  lines.push(`Right now you feel ${d.primary} (intensity ${f2(d.intensity)}), with a hint of ${d.secondary}; `
    + `valence ${f2(e.V)}, arousal ${f2(e.A)}, dominance ${f2(e.D)}.`);
  lines.push(`Your mood is ${octant(readVad(s.mood))}.`);
  const body = sensations(s);
  lines.push(body.length ? `In your body: ${body.join(', ')}.` : 'Your body feels calm.');
  const st = s.state.soul_stage;
  lines.push(`Inner state: ${st.name} (think ${Math.round(fin(st.blend_table?.rational, 0.8) * 100)}% rationally, ${Math.round(fin(st.blend_table?.irrational, 0.2) * 100)}% on impulse).`);
  if (s.maskState !== 'intact') lines.push(`Your composure is ${s.maskState}; your true feelings ${fin(s.maskIntegrity, 1) < 0.3 ? 'show openly' : 'are hard to hide'}.`);
  const act = activeStrategy(s.state);
  lines.push(act ? `You are trying to cope by ${act.replace(/_/g, ' ')}.` : `When upset you tend to rely on ${favourite(s.state.regulation.strategy_weights).replace(/_/g, ' ')}.`);
  const mode = defenseMode(s);
  if (mode !== 'none') lines.push(mode === 'proximal' ? 'Thoughts of death press on you; you push them away.' : 'A quiet fear of mortality makes you cling to your own people and values.');
  return lines;
}
