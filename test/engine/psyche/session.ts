// A realistic 200-turn session with one persona, as a person and the world would drive it over
// HTTP: chats of praise, insult, threat, the speaker's sadness, small talk and goal news from two
// people, world events with stimuli, ticks from 10 s to a day, and an emotion override. The script
// is fixed (a seeded generator picks the lines), so every run sees the same session.
import { psyche } from '../../../reference/engine/psyche/index.ts';
import type { Percept } from '../../../reference/engine/psyche/model.ts';
import type { PersonaConfig, PersonaSnapshot, StandalonePersonaState } from '../../../contract/resources.ts';
import { nextRandom } from '../../../reference/engine/psyche/util.ts';

export const SESSION_CONFIG = psyche.normalizeConfig({
  identity: { name: 'Mara', role: 'harbor keeper', speakingStyle: 'warm and plain', coreValues: ['honesty', 'family'] },
  personality: { O: 0.55, C: 0.6, E: 0.45, A: 0.6, N: 0.65, H: 0.6 },
  goals: [
    { id: 'son', content: 'reconcile with my estranged son', priority: 0.9 },
    { id: 'work', content: 'get promoted at the shipyard', priority: 0.6 },
    { id: 'boat', content: 'restore the old boat', priority: 0.5, status: 'dormant' },
  ],
} as Partial<PersonaConfig>, 'Mara');

const LINES: Record<string, string[]> = {
  praise: ['You did a really great job today!', 'Thank you, you are so kind.', 'I admire how you keep the harbor safe.', 'You are brilliant, honestly.'],
  blame: ["It's your fault that we lost everything.", 'You let everyone down.'],
  insult: ['You are a useless idiot.', 'Nobody likes you, you pathetic fool.', 'Shut up, you stupid liar.', 'You are disgusting.'],
  threat: ['If you cross me again I will hurt you.', 'Watch your back tonight. I know where you live.', "You'll regret this, I promise."],
  sadness: ['I feel so sad and lonely since my dog died.', 'I have been crying all night.', 'I lost my job today and I am devastated.'],
  small: ['The train leaves at six.', 'It is Tuesday today.', 'Please pass the salt.', 'How are you today?', 'Good morning!'],
  sonGood: ['Your son called; he wants to see you again.', 'Your son forgave you.', 'Your boy wants to make peace with you.'],
  sonBad: ['Your son never wants to see you again.', 'Your son refuses to talk to you.'],
  work: ['You got the promotion at the shipyard!', 'The shipyard manager praised your work.'],
  boat: ['The old boat could be restored, the wood is sound!', 'I found the parts to restore the old boat.'],
};

/** The session's phases: which kinds of line each stretch of turns draws from. */
const PHASES: Array<{ until: number; kinds: string[] }> = [
  { until: 30, kinds: ['small', 'praise', 'small', 'sadness'] },
  { until: 70, kinds: ['insult', 'threat', 'blame', 'sonBad', 'small'] },
  { until: 110, kinds: ['insult', 'threat', 'sadness', 'sonBad', 'insult'] },
  { until: 150, kinds: ['praise', 'small', 'sonGood', 'work', 'boat'] },
  { until: 200, kinds: ['praise', 'sonGood', 'work', 'small', 'boat', 'sadness'] },
];

export interface Sample { turn: number; snap: PersonaSnapshot; view: StandalonePersonaState; reflected?: string }

/** Runs the session; `sample` is called after every turn with a deep copy of the snapshot. */
export function runSession(sample: (s: Sample) => void): PersonaSnapshot {
  const config = SESSION_CONFIG;
  let now = Date.UTC(2026, 0, 1);
  const snap = psyche.create(config, 'session', now);
  let rng = 0x5eed;
  const pick = <T>(xs: T[]): T => {
    const r = nextRandom(rng);
    rng = r.state;
    return xs[Math.floor(r.value * xs.length)];
  };
  for (let turn = 1; turn <= 200; turn++) {
    const phase = PHASES.find((p) => turn <= p.until)!;
    let reflected: string | undefined;
    if (turn % 25 === 0) {
      // A world event with a stimulus now and then.
      const out = psyche.perceive(snap, config, {
        kind: 'event', type: turn % 50 === 0 ? 'storm' : 'festival', text: turn % 50 === 0 ? 'A storm wrecks boats in the harbor.' : 'The town holds a festival at the harbor.',
        timestamp: now, stimulus: turn % 50 === 0 ? { bodyBudgetDelta: -0.1 } : { needsDelta: { relatedness: 0.1 } },
      } as Percept);
      reflected = out.reflectionPrompt?.user;
    } else if (turn === 120) {
      psyche.override(snap, { V: 0.6, A: 0.2 }, now);
    } else {
      const kind = pick(phase.kinds);
      const source = kind === 'insult' || kind === 'threat' || kind === 'blame' ? 'dock_boss' : 'ana';
      const out = psyche.perceive(snap, config, { kind: 'chat', type: 'chat', source, sourceId: `id-${source}`, text: pick(LINES[kind]), timestamp: now });
      reflected = out.reflectionPrompt?.user;
    }
    // Ticks from 10 s to a day: most turns a few seconds or minutes apart, a night now and then.
    const seconds = turn % 40 === 0 ? 86_400 : turn % 10 === 0 ? 3_600 : turn % 3 === 0 ? 120 : 10;
    // As a world tick does it: steps of at most max(60 s, advance/100).
    const step = Math.max(60, seconds / 100);
    for (let done = 0; done < seconds; done += step) {
      const dt = Math.min(step, seconds - done);
      now += dt * 1000;
      psyche.elapse(snap, config, dt, now);
    }
    sample({ turn, snap: structuredClone(snap), view: psyche.view(snap), reflected });
  }
  return snap;
}
