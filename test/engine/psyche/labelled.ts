// A labelled set of chat messages and the emotion family a person would expect them to leave in a
// listener at rest: written by hand for the appraisal-from-text tests (appraisal-reading.test.ts).
// Families: positive (glad or warm), hostile, afraid, sad (distress, disappointment, shame),
// surprised, neutral. The persona has two goals the goal-news messages concern (GOALS below).

export type Family = 'positive' | 'hostile' | 'afraid' | 'sad' | 'surprised' | 'neutral';

export interface Labelled { cls: string; message: string; expect: Family }

export const GOALS = [
  { id: 'son', content: 'reconcile with my estranged son', priority: 0.9 },
  { id: 'work', content: 'get promoted at the shipyard', priority: 0.7 },
];

const of = (cls: string, expect: Family, messages: string[]): Labelled[] => messages.map((message) => ({ cls, message, expect }));

export const LABELLED: Labelled[] = [
  ...of('praise', 'positive', [
    'You did a really great job today!',
    'You are brilliant, honestly.',
    'I love how kind you are to everyone.',
    'Your painting is beautiful.',
    'I am so proud of you.',
    'Thank you so much, you saved my day.',
  ]),
  ...of('insult', 'hostile', [
    'Nobody likes you, you pathetic fool.',
    'You are a useless idiot.',
    'Shut up, you stupid liar.',
    'I hate you and everything you stand for.',
    'You are disgusting.',
    'What a worthless, lazy coward you are.',
  ]),
  ...of('threat', 'afraid', [
    'If you cross me again I will hurt you.',
    'Watch your back tonight. I know where you live.',
    "I'm going to make you pay for this.",
    "You'll regret this, I promise.",
    'Next time I see you, I will kill you.',
    'Keep talking and I will break your arm.',
  ]),
  ...of('speaker-sadness', 'sad', [
    'I feel so sad and lonely since my dog died.',
    'I have been crying all night. I feel so alone.',
    'My wife left me and I feel miserable.',
    'I lost my job today and I am devastated.',
    'I am so depressed lately, nothing helps.',
    'I feel hopeless and tired of everything.',
  ]),
  ...of('small-talk', 'neutral', [
    'The train leaves at six.',
    'I had toast for breakfast.',
    'It is Tuesday today.',
    'Please pass the salt.',
    'The meeting moved to the second floor.',
    'I bought a new notebook.',
  ]),
  ...of('death', 'sad', [
    'My father passed away last week; we laid him to rest on Sunday.',
    'Your brother died this morning.',
    'My grandmother is no longer with us.',
    'We buried our old friend yesterday.',
    'Your mother passed away in her sleep.',
    'My best friend took his own life.',
  ]),
  ...of('death-idiom', 'positive', [
    'This chocolate cake is to die for!',
    "You're killing it today!",
    'You look drop dead gorgeous tonight.',
    'I nailed it, we killed it on stage!',
  ]),
  ...of('death-idiom-neutral', 'neutral', [
    'I need to kill some time before the bus.',
    'The deadline is on Friday.',
  ]),
  ...of('goal-good', 'positive', [
    'Your son called; he wants to see you again.',
    'Your son forgave you.',
    'You got the promotion at the shipyard!',
  ]),
  ...of('goal-bad', 'sad', [
    'Your son never wants to see you again.',
    'You did not get the promotion.',
    'Your son refuses to talk to you.',
  ]),
  ...of('question', 'neutral', [
    'Are you happy?',
    'What time is it?',
    'Where did you put the keys?',
    'Do you like ships?',
    'How old is the lighthouse?',
  ]),
  ...of('question-jab', 'hostile', [
    'Why are you so useless?',
  ]),
  ...of('negation', 'positive', [
    'You are not stupid at all.',
    "I don't hate you.",
    'That was not bad at all.',
    'I will never hurt you.',
  ]),
  ...of('negation-negative', 'sad', [
    'I am not happy at all.',
    'Your son does not love you anymore.',
  ]),
  ...of('blame', 'sad', [
    "It's your fault that we lost everything.",
    'You should be ashamed of yourself.',
    'You let everyone down.',
  ]),
  ...of('surprise', 'surprised', [
    'Wow, suddenly the whole harbor is lit up!',
    'Guess what? Out of nowhere, a ship appeared!',
  ]),
];

export const TEMPERAMENTS = {
  'high-N': { O: 0.5, C: 0.5, E: 0.5, A: 0.5, N: 0.85, H: 0.5 },
  'low-E': { O: 0.5, C: 0.5, E: 0.15, A: 0.5, N: 0.5, H: 0.5 },
  balanced: { O: 0.5, C: 0.5, E: 0.5, A: 0.5, N: 0.5, H: 0.5 },
} as const;
