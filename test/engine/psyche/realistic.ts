// A realistic 200-step session, as issue 27 defines it: one persona with goals and family (Rosa, the
// innkeeper of heldout/labels.ts), 200 steps of which 107 chats, 33 world events, 9 actions and 51
// ticks (10 s to a day), in three phases: calm (steps 1–60: small talk, praise, questions, good
// news), trouble (61–130: insults, threats, bad news of her people, her own faults, storms and a
// fire, insulting and threatening acts) and recovery (131–200: comfort, praise, good news, nights).
// The script is fixed (a seeded generator picks the lines and the kinds), so every run sees the
// same session; each step records what the tests read.
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { Percept } from '../../../reference/engine/psyche/model.ts';
import type { Appraisal, PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { nextRandom } from '../../../reference/engine/psyche/util.ts';
import { ROSA, TEMPERAMENTS, type Temperament } from './heldout/labels.ts';

type Phase = 'calm' | 'trouble' | 'recovery';
export type StepKind = 'chat' | 'event' | 'action' | 'tick';

/** Lines by the act they do; the tests ask how the persona answered each kind. */
export const SAY: Record<string, string[]> = {
  small: ['The ferry is late again today.', 'I brought the flour you ordered.', 'Busy day at the market.', 'The lamps in the hall need oil.'],
  praise: ['Your stew is the best on the coast.', 'You keep this inn so warm and welcoming.', 'Thank you, you are very kind.', 'You handled that guest wonderfully.'],
  question: ['What time is supper tonight?', 'Is there a room free on Friday?', 'Where can I buy a map?'],
  goodNews: ['Lucia passed her anatomy exam with honours!', 'Tomas says he wants to visit you at the festival.', 'The inn is fully booked for the summer!'],
  insult: ['You are a stubborn old fool.', 'Your inn is a filthy dump.', 'Shut up, you useless hag.', 'Nobody in town can stand you.'],
  threat: ['Pay by Friday or your inn burns.', 'I know where your daughter lives.', 'Keep talking and you will regret it.', 'It would be a shame if something happened to Lucia.'],
  badNews: ['Lucia was hurt in an accident at the hospital.', 'Tomas was arrested at the docks last night.', 'The bank refused the loan for the inn.', 'The roof of your inn is leaking badly.'],
  fault: ['You forgot to order the wine and the wedding party left.', 'Because of you the guests got sick.', 'You promised to help me and you never came.'],
  sadness: ['I lost my job today and I feel terrible.', 'My father died last week.', 'I feel so alone since my wife left.'],
  comfort: ['I am so sorry for everything you went through. I am here for you.', 'You did nothing wrong, truly.', 'We are all proud of you, Rosa.'],
};

const PHASES: Record<Phase, { until: number; chats: string[]; events: Array<{ type: string; text: string; stimulus?: Percept['stimulus'] }>; actions: string[] }> = {
  calm: {
    until: 60,
    chats: ['small', 'praise', 'question', 'small', 'goodNews', 'praise', 'sadness'],
    events: [{ type: 'festival', text: 'The town holds a festival by the harbor.', stimulus: { needsDelta: { relatedness: 0.05 } } },
      { type: 'market', text: 'The market is busy and the weather is fine.' }],
    actions: ['compliment', 'greet'],
  },
  trouble: {
    until: 130,
    chats: ['insult', 'threat', 'badNews', 'fault', 'insult', 'threat', 'badNews', 'small'],
    events: [{ type: 'storm', text: 'A storm tears tiles off the roof of the inn.', stimulus: { bodyBudgetDelta: -0.05 } },
      { type: 'fire', text: 'A fire breaks out in the kitchen of the inn.', stimulus: { bodyBudgetDelta: -0.05 } },
      { type: 'robbery', text: 'Thieves break into the cellar of the inn and steal the wine.' }],
    actions: ['insult', 'threaten'],
  },
  recovery: {
    until: 200,
    chats: ['comfort', 'praise', 'goodNews', 'small', 'question', 'comfort', 'praise'],
    events: [{ type: 'repairs', text: 'Neighbours come to help repair the roof of the inn.', stimulus: { needsDelta: { relatedness: 0.05 } } },
      { type: 'market', text: 'The market is busy and the weather is fine.' }],
    actions: ['comfort', 'compliment'],
  },
};

/** The reference's default actions (reference/engine/world/actions.ts), as the world side would send them. */
const ACTIONS: Record<string, { text: string; appraisal: Appraisal; stimulus?: Percept['stimulus'] }> = {
  greet: { text: 'A friendly greeting.', appraisal: { goal_relevance: 0.3, goal_congruence: 0.3, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0.5 } },
  compliment: { text: 'Sincere praise.', appraisal: { goal_relevance: 0.6, goal_congruence: 0.7, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0.6 }, stimulus: { needsDelta: { competence: 0.1, relatedness: 0.1 } } },
  comfort: { text: 'Consolation and support.', appraisal: { goal_relevance: 0.6, goal_congruence: 0.6, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: 0.7 }, stimulus: { needsDelta: { relatedness: 0.15 } } },
  insult: { text: 'A personal insult.', appraisal: { goal_relevance: 0.8, goal_congruence: -0.8, expectedness: 0.5, controllability: 0.5, agency: -0.7, norm_compatibility: -0.8 }, stimulus: { needsDelta: { competence: -0.1, relatedness: -0.1 } } },
  threaten: { text: 'A threat of harm.', appraisal: { goal_relevance: 0.9, goal_congruence: -0.9, expectedness: 0.5, controllability: 0.1, agency: -0.7, norm_compatibility: -0.9 }, stimulus: { bodyBudgetDelta: -0.1 } },
};

/** Which steps are which: 107 chats, 33 events, 9 actions, 51 ticks, spread by a seeded shuffle. */
function plan(): StepKind[] {
  const kinds: StepKind[] = [...Array(107).fill('chat'), ...Array(33).fill('event'), ...Array(9).fill('action'), ...Array(51).fill('tick')];
  let rng = 0x2701;
  for (let i = kinds.length - 1; i > 0; i--) {
    const r = nextRandom(rng);
    rng = r.state;
    const j = Math.floor(r.value * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  return kinds;
}

export interface Step {
  step: number;
  phase: Phase;
  kind: StepKind;
  /** The line's kind for chats (insult, threat, …), the event type or the action name. */
  what: string;
  /** Who spoke or acted, for chats and actions. */
  source?: string;
  primary?: string;
  snap: PersonaSnapshot;
}

export const CONFIGS: Record<'steady' | 'volatile', PersonaConfig> = {
  steady: psyche.normalizeConfig({ ...ROSA, personality: { ...TEMPERAMENTS.steady } } as Partial<PersonaConfig>, 'Rosa'),
  volatile: psyche.normalizeConfig({ ...ROSA, personality: { ...TEMPERAMENTS.volatile } } as Partial<PersonaConfig>, 'Rosa'),
};

/** Runs the session for one temperament; every step is returned with a copy of the snapshot after it. */
export function realisticSession(temperament: Extract<Temperament, 'steady' | 'volatile'>): Step[] {
  const config = CONFIGS[temperament];
  let now = Date.UTC(2026, 4, 1, 8);
  const snap = psyche.create(config, `realistic-${temperament}`, now);
  let rng = 0x5e55;
  const pick = <T>(xs: T[]): T => {
    const r = nextRandom(rng);
    rng = r.state;
    return xs[Math.floor(r.value * xs.length)];
  };
  const steps: Step[] = [];
  let tick = 0;
  plan().forEach((kind, i) => {
    const step = i + 1;
    const phase: Phase = step <= PHASES.calm.until ? 'calm' : step <= PHASES.trouble.until ? 'trouble' : 'recovery';
    const p = PHASES[phase];
    let what = '';
    let primary: string | undefined;
    let source: string | undefined;
    if (kind === 'chat') {
      what = pick(p.chats);
      source = what === 'insult' || what === 'threat' || what === 'fault' ? 'dock_boss' : pick(['ana', 'marco']);
      primary = psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source, sourceId: `id-${source}`, text: pick(SAY[what]), timestamp: now }).discrete.primary;
    } else if (kind === 'event') {
      const e = pick(p.events);
      what = e.type;
      primary = psyche.perceive(snap, config, { kind: 'event', type: e.type, text: e.text, stimulus: e.stimulus, timestamp: now }).discrete.primary;
    } else if (kind === 'action') {
      what = pick(p.actions);
      source = 'dock_boss';
      const a = ACTIONS[what];
      primary = psyche.perceive(snap, config, { kind: 'action', type: what, source: 'dock_boss', sourceId: 'id-dock_boss', text: a.text, appraisal: a.appraisal, stimulus: a.stimulus, timestamp: now }).discrete.primary;
    } else {
      // Ticks from 10 s to a day, as a world tick moves: steps of at most max(60 s, advance/100).
      const seconds = [10, 60, 600, 3_600, 10, 120, 28_800, 86_400][tick++ % 8];
      what = `${seconds}s`;
      const stride = Math.max(60, seconds / 100);
      for (let done = 0; done < seconds; done += stride) {
        const dt = Math.min(stride, seconds - done);
        now += dt * 1000;
        psyche.elapse(snap, config, dt, now);
      }
    }
    steps.push({ step, phase, kind, what, source, primary, snap: structuredClone(snap) });
  });
  return steps;
}
