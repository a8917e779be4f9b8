// The default reply without an LLM: it answers what was said. The message's reading (language.ts)
// names the act (a threat, an insult, praise, the speaker's sorrow, news, a question, a greeting…);
// the act and the persona's felt emotion family pick a set of templates, one is drawn (seeded, and
// never the one used just before), its slots are filled (the person the message was about, the
// speaker's name when the relationship is warm, the persona's feeling when asked), a repeat of a
// hostile act is noticed, and the speaking style shapes the sentence (formal: no contractions;
// casual: relaxed opener, "I" kept capital; terse: first sentence only; poetic: an image; warm: a
// kind close). The same snapshot and percept give the same text.
import type { DiscreteEmotion, PersonaConfig, PersonaSnapshot } from '../../../contract/resources.ts';
import { draw, internals } from './internals.ts';
import type { Reading } from './language.ts';
import { memoize } from './util.ts';

export const FAMILY: Record<string, string> = {
  anger: 'hostile', hate: 'hostile', reproach: 'hostile', disliking: 'hostile',
  fear: 'afraid',
  // Fears confirmed is despair (low arousal, helpless): sadness, not the alarm of fear.
  fears_confirmed: 'sad', distress: 'sad', disappointment: 'sad', shame: 'sad',
  joy: 'glad', gratification: 'glad', happy_for: 'glad', satisfaction: 'glad', pride: 'glad', relief: 'glad', gloating: 'glad',
  gratitude: 'warm', admiration: 'warm', love: 'warm', liking: 'warm', hope: 'warm',
  surprise: 'surprised', neutral: 'neutral', calm: 'neutral',
};

type Family = 'hostile' | 'afraid' | 'sad' | 'glad' | 'warm' | 'surprised' | 'neutral';
/** Templates of an act: by felt family, `any` for the others. {topic}, {name}, {feeling} are slots. */
type Table = Partial<Record<Family | 'any', string[]>>;

/** What a message does, from its reading, in order of precedence: the move the reply makes. */
export function actOf(r: Reading | undefined): string {
  if (!r) return 'presence';
  if (r.threat > 0) return 'threat';
  if (r.blame > 0) return 'blame';
  if (r.sarcasm) return 'sarcasm';
  if (r.deathCues > 0 && r.loss > 0 && (r.news < 0 || r.listener < 0)) return 'grief';
  if (r.deathCues > 0 && r.loss > 0) return 'condolence';
  if (r.listener <= -0.25) return 'insult';
  if (r.asksListener) return 'asked';
  if (r.listener >= 0.15 && !r.question) return 'praise';
  if (r.speaker <= -0.25) return 'sorrow';
  if (r.speaker >= 0.25) return 'shared_joy';
  if (r.news <= -0.15) return 'bad_news';
  if (r.news >= 0.15) return 'good_news';
  if (r.surprise > 0) return 'surprise';
  if (r.apology) return 'apology';
  if (r.thanks) return 'thanks';
  // A question is answered by what it asks (a time, a place, a favour…); a request is agreed to.
  if (r.asks) return r.asks === 'other' ? 'question' : `ask_${r.asks}`;
  if (r.request) return 'request';
  if (r.world >= 0.3) return 'pleasant';
  if (r.world <= -0.3) return 'unpleasant';
  if (r.greeting) return 'greeting';
  return 'small_talk';
}

/** Acts after which a casual "Hey," or a warm close would be out of place (grief, threats, blame…). */
const GRAVE = new Set(['threat', 'blame', 'grief', 'condolence', 'insult', 'sorrow', 'bad_news', 'unpleasant']);
/** Acts of another's pain: a warm speaker stays with them. */
const CONSOLING = new Set(['grief', 'condolence', 'sorrow', 'bad_news']);

const ACTS: Record<string, Table> = {
  threat: {
    afraid: ["Please, don't. I don't want any trouble.", "You're frightening me. Why would you say that?", 'I hear you. Just leave me alone.'],
    hostile: ["Is that a threat? I won't be bullied.", 'Try it, and see what happens.', "You don't scare me."],
    any: ["I'd rather you didn't talk like that.", "That sounds like a threat. I'm listening, carefully.", "Let's both calm down."],
  },
  blame: {
    sad: ["You're right. I'm ashamed of it.", 'I know. I should have done better.', "I'm sorry. I let you down."],
    hostile: ["That's not fair. I did what I could.", "Don't put all of this on me.", 'I won\'t carry the blame for everyone.'],
    any: ["Maybe. I'll think about what I did.", "I hear you. It's not easy to hear.", "Perhaps I could have done better."],
  },
  grief: {
    any: ["No... {topic}? I can't believe it.", "I... I need a moment. {Topic}, gone?", "That can't be true. Not {topic}."],
  },
  condolence: {
    any: ["I'm so sorry about {topic}. How are you holding up?", "That's terrible. I'm so sorry for your loss.", "I'm sorry. If you want to talk about {topic}, I'm here."],
  },
  sarcasm: {
    hostile: ['No need for sarcasm.', "Spare me the sarcasm. What's wrong?", 'Say it plainly, then.'],
    any: ["I'm sorry. Let me see what I can do about it.", "You're right to be annoyed. I'll fix it.", "Alright, I hear you. Let me make it right."],
  },
  insult: {
    hostile: ["I don't appreciate that.", "That's out of line, and you know it.", 'Watch your tone with me.'],
    sad: ['That hurts, you know.', 'Why would you say that to me?', "I didn't deserve that."],
    afraid: ['Please stop.', "I don't want to fight with you.", 'Why are you doing this?'],
    any: ['If you say so.', "I'll let that pass. This time.", "That wasn't kind."],
  },
  praise: {
    glad: ['Thank you, that means a lot to me.', "That's kind of you to say.", "You're making me blush."],
    warm: ['Thank you{, name}. I really appreciate it.', "That's so kind of you{, name}.", 'You always know what to say.'],
    any: ['Thanks, I suppose.', 'Kind words. Thank you.', "That's nice of you to say."],
  },
  sorrow: {
    any: ["I'm sorry you're going through this. I'm here.", 'That sounds really hard. Do you want to talk about it?', "Oh, I'm sorry. You don't have to carry that alone."],
  },
  shared_joy: {
    any: ["That's wonderful! I'm happy for you.", 'Good for you! Tell me more.', "That's great news!"],
  },
  good_news: {
    any: ["Really? That's wonderful news!", 'Truly? That makes me so happy.', "I hoped I'd hear that one day."],
  },
  bad_news: {
    hostile: ["That's not fair!", "How could this happen? It's wrong.", "I won't accept that."],
    any: ["Oh no. That's hard to hear.", "I... I don't know what to say.", "That hurts more than I'd like to admit."],
  },
  surprise: {
    any: ['Wow, really?', 'No way! Really?', "Now that's a surprise!"],
  },
  asked: {
    any: ['Honestly? I feel {feeling} right now.', "I'm {feeling}, thanks for asking.", '{Feeling}, if I am honest.'],
  },
  question: {
    hostile: ["Why should I answer that?", "That's my business.", 'Ask someone else.'],
    any: ["{Focus}? Let me think. I'll tell you what I know.", 'Let me find out for you.', "I'm not sure offhand. I'll ask around for you."],
  },
  ask_time: {
    hostile: ['Check the board by the door.', "When it's ready.", 'Ask someone else.'],
    any: ['{Focus}? Let me check the times for you.', "I'll look up the exact time for you.", "I'll find out when and tell you straight away."],
  },
  ask_place: {
    hostile: ['Find it yourself.', "It's not my job to guide you.", 'Ask someone else.'],
    any: ["It's not far. I'll show you the way.", "{Focus}? I'll point you there, it's easy to find.", 'I can draw you a little map.'],
  },
  ask_price: {
    hostile: ['More than you think.', "It's on the board.", "You'll pay what everyone pays."],
    any: ['Let me look up the price for you.', "{Focus}? I'll tell you the price, let me check.", "I'll write the prices down for you."],
  },
  ask_have: {
    hostile: ["We're full.", 'Not for you.', 'Maybe. Maybe not.'],
    any: ['Let me check what we have for you.', "{Focus}? I'll see what I can do.", "I'll look right now."],
  },
  ask_may: {
    hostile: ['No.', "I'd rather you didn't.", 'Not today.'],
    any: ['Of course.', 'Yes, please do.', 'Certainly, go ahead.'],
  },
  ask_favour: {
    hostile: ['Do it yourself.', "I'm not your servant.", "Why should I?"],
    sad: ["I'll try, if I can.", "Alright. I'll do it.", "I'll see what I can manage."],
    any: ["Of course, I'll see to it.", 'Certainly. Consider it done.', "Yes, I'll take care of it."],
  },
  ask_opinion: {
    hostile: ['Decide for yourself.', "Why ask me?", 'Whatever you like.'],
    any: ["If you ask me, I'd go for {focus}.", 'Honestly? I think you would enjoy it.', "{Focus}? It's a good choice, in my view."],
  },
  ask_reason: {
    hostile: ["That's my business.", 'Because I said so.', "I don't owe you an explanation."],
    any: ["It's a long story. Sit down and I'll tell you.", 'Because it seemed right at the time.', "I'll explain, if you have a moment."],
  },
  ask_who: {
    any: ["{Focus}? Let me think who that was.", "I'll tell you what I know about it.", "I'm not sure. I'll ask around."],
  },
  request: {
    hostile: ['Do it yourself.', "I'm not your servant.", "Why should I?"],
    sad: ["I'll try, if I can.", "Alright. I'll do it.", "I'll see what I can manage."],
    any: ["Of course, here you are.", 'Certainly. Right away.', "Yes, I'll take care of it."],
  },
  greeting: {
    hostile: ["Oh. It's you.", 'What do you want?', 'Hm. Hello.'],
    any: ['Hello{, name}! Good to see you.', 'Hi{, name}. How are you?', 'Good day to you{, name}.'],
  },
  thanks: { any: ["You're welcome.", 'Anytime.', 'Glad I could help.'] },
  apology: {
    hostile: ["Sorry doesn't fix it.", "Words are cheap.", "We'll see if you mean it."],
    any: ['Thank you for saying that.', "It's alright. Let's move on.", 'I appreciate the apology.'],
  },
  pleasant: {
    any: ['That sounds lovely.', 'How nice!', 'I like the sound of that.'],
  },
  unpleasant: {
    any: ["That's a shame.", 'What a pity.', "That's too bad."],
  },
  small_talk: {
    hostile: ['Is that so.', 'Fine.', 'Whatever you say.'],
    sad: ['I see.', 'Mm. Go on.', 'I suppose so.'],
    any: ['I see.', "Go on, I'm listening.", 'Is that so? Tell me more.'],
  },
  // Contagion and percepts without text: the felt family speaks for itself.
  presence: {
    hostile: ["I don't appreciate that.", "That's out of line, and you know it.", "I won't let that pass."],
    afraid: ["I'm not sure I feel safe with this.", "This worries me more than I'd like to admit.", 'Something about this frightens me.'],
    sad: ["That's hard to hear.", 'I feel a little lost right now.', 'I wish things were different.'],
    glad: ["That's wonderful to hear.", 'This makes me genuinely happy.', "I'm really pleased about this."],
    warm: ['Thank you, that means a lot to me.', "I'm grateful you're here.", 'I appreciate you more than you know.'],
    surprised: ["Oh! I didn't see that coming.", 'Well, that is unexpected.', "I'm surprised, I admit."],
    any: ['I see.', "Go on, I'm listening.", 'Alright, tell me more.'],
  },
};

/** How the persona names its feeling when asked. */
const FEELING: Record<Family, string> = {
  hostile: 'irritated', afraid: 'uneasy', sad: 'a bit low', glad: 'pretty good', warm: 'grateful', surprised: 'a little taken aback', neutral: 'alright',
};
const STRONG: Record<Family, string> = {
  hostile: "I'm furious.", afraid: "I'm really scared.", sad: 'It hurts.', glad: "I'm thrilled!", warm: 'Truly.', surprised: 'Goodness!', neutral: '',
};
const POETIC: Record<Family, string> = {
  hostile: 'A storm gathers behind my eyes.', afraid: 'The shadows feel longer tonight.', sad: 'It is like rain on a quiet window.',
  glad: 'It feels like sunlight after rain.', warm: 'It warms me like a hearth.', surprised: 'Like a bird startled from a hedge.', neutral: 'The day goes on, as days do.',
};
/** A hostile act said again is noticed. */
const AGAIN: Record<string, string> = { insult: 'Again?', threat: 'Another threat?', blame: 'You keep saying that.' };
const CONTRACTIONS: [RegExp, string][] = [
  [/\bI'm\b/g, 'I am'], [/\bI'll\b/g, 'I will'], [/\bI've\b/g, 'I have'], [/\bI'd\b/g, 'I would'], [/\bdon't\b/gi, 'do not'],
  [/\bwon't\b/gi, 'will not'], [/\bcan't\b/gi, 'cannot'], [/\bdidn't\b/gi, 'did not'], [/\bdoesn't\b/gi, 'does not'],
  [/\bThat's\b/g, 'That is'], [/\bthat's\b/g, 'that is'], [/\bIt's\b/g, 'It is'], [/\bit's\b/g, 'it is'], [/\bWhat's\b/g, 'What is'],
  [/\bYou're\b/g, 'You are'], [/\byou're\b/g, 'you are'], [/\bLet's\b/g, 'Let us'], [/\bWe'll\b/g, 'We will'], [/\bwasn't\b/g, 'was not'],
];

/** At or above this intensity the reply says so. */
export const STRONG_INTENSITY = 0.6;

interface StyleCues { terse: boolean; casual: boolean; poetic: boolean; warm: boolean; formal: boolean }

/**
 * What a speaking style asks of the reply (read once per style text). A cue is a word that starts
 * one of the style's words: "warmly" is warm, "unkind" is not kind, "informal" is not formal.
 */
const styleCues = memoize((speakingStyle: string): StyleCues => {
  const style = speakingStyle.toLowerCase();
  return Object.freeze({
    terse: /(?<![\p{L}\p{N}'])(terse|brief|laconic|curt)/u.test(style),
    casual: /(?<![\p{L}\p{N}'])(casual|informal|friendly)/u.test(style),
    poetic: /(?<![\p{L}\p{N}'])(poetic|lyrical|flowery)/u.test(style),
    warm: /(?<![\p{L}\p{N}'])(warm|gentle|kind)/u.test(style),
    formal: /(?<![\p{L}\p{N}'])(formal|polite|courtly)/u.test(style),
  });
});

/** The person a message named, from the persona's side: "your son" said to it is "my son". */
const SWAP: Record<string, string> = { your: 'my', my: 'your', our: 'our', his: 'his', her: 'her' };
function topicOf(r: Reading | undefined): string {
  if (!r?.topic) return 'them';
  const [own, who] = r.topic.split(' ');
  return `${SWAP[own] ?? own} ${who}`;
}

const capital = (x: string) => x.charAt(0).toUpperCase() + x.slice(1);
/** Starts with the pronoun I ("I", "I'm", "I'll"…), which stays capital whatever the style. */
const startsWithI = (x: string) => /^I(?![\p{L}\p{N}])/u.test(x);

export interface ReplyContext {
  reading?: Reading;
  /** Who spoke (the relationship's key), when someone did. */
  speaker?: string;
  /** Trust toward the speaker, [0, 1]. */
  trust?: number;
}

export function reply(s: PersonaSnapshot, config: PersonaConfig, d: DiscreteEmotion, ctx: ReplyContext = {}): string {
  const family = (FAMILY[d.primary] ?? 'neutral') as Family;
  const act = actOf(ctx.reading);
  const table = ACTS[act];
  const options = table[family] ?? table.any ?? ACTS.presence.any!;
  const inn = internals(s);
  const last = inn.conversation[inn.conversation.length - 1];
  let i = Math.floor(draw(s) * options.length) % options.length;
  // Never the same sentence twice in a row.
  if (last && options.length > 1 && last.replied.includes(fill(options[i], family, ctx, ''))) i = (i + 1) % options.length;
  let text = fill(options[i], family, ctx, warmName(ctx));
  if (last && last.act === act && last.from === ctx.speaker && AGAIN[act]) text = `${AGAIN[act]} ${text}`;
  else if (d.intensity >= STRONG_INTENSITY && STRONG[family] && (act === 'presence' || act === 'threat' || act === 'insult' || act === 'grief')) text = `${STRONG[family]} ${text}`;
  // Greeted, the persona greets back before it answers (and only then: "morning" said as a time is no greeting).
  const greetBack = ctx.reading?.greeting && act !== 'greeting' && family !== 'hostile' && !GRAVE.has(act) ? ctx.reading.greetWord : undefined;
  if (greetBack) text = `${capital(greetBack)}! ${text}`;
  const style = styleCues(config.identity?.speakingStyle ?? '');
  if (style.terse) text = text.split(/(?<=[.!?])\s/)[0];
  // Style colours the reply where it fits: no "Hey," to a threat or a death, no cheerful close to grief.
  if (style.casual && !GRAVE.has(act) && family !== 'hostile') text = `Hey, ${startsWithI(text) ? text : text.charAt(0).toLowerCase() + text.slice(1)}`;
  if (style.poetic) text = `${text} ${POETIC[family]}`;
  if (style.warm && family !== 'hostile') {
    if (CONSOLING.has(act)) { if (!/I'm here/.test(text)) text = `${text} I'm here for you.`; }
    else if (!GRAVE.has(act)) text = `${text} I'm glad we can talk.`;
  }
  if (style.formal) for (const [re, full] of CONTRACTIONS) text = text.replace(re, (m) => (m[0] === m[0].toUpperCase() ? capital(full) : full));
  return text;
}

/** The speaker's name, used only when the persona trusts them. */
const warmName = (ctx: ReplyContext): string => (ctx.speaker && (ctx.trust ?? 0) >= 0.6 ? ctx.speaker : '');

function fill(template: string, family: Family, ctx: ReplyContext, name: string): string {
  const topic = topicOf(ctx.reading);
  const focus = ctx.reading?.focus ?? 'that';
  return template
    .replace('{focus}', focus).replace('{Focus}', capital(focus))
    .replace('{, name}', name ? `, ${name}` : '')
    .replace('{topic}', topic).replace('{Topic}', capital(topic))
    .replace('{feeling}', FEELING[family]).replace('{Feeling}', capital(FEELING[family]));
}
