// The second held-out set (issue 36), written by another method than the first: not sentences one
// author wrote, but templates of common message forms, each labelled once, whose slots are filled
// from small word lists by a seeded draw (generate.ts). The generated set is committed as data
// (generated.ts) and frozen: it was scored before any tuning and is never read to tune the engine.
// Slots name the persona's people and things (Rosa of labels.ts: her inn, Lucia, Tomas), the
// speaker's people, performers, dishes, places and times; a slot named in capitals is filled in capitals.
import type { Family } from './labels.ts';

export const SLOTS: Readonly<Record<string, readonly string[]>> = {
  her: ['your daughter', 'your son', 'Lucia', 'Tomas', 'your husband', 'your sister', 'your mother', 'your cousin Ana'],
  mine: ['my grandmother', 'my dad', 'my uncle', 'my mum', 'my grandfather', 'my aunt', 'my best friend', 'my brother'],
  pet: ['the dog', 'our old cat', 'my horse', 'our dog', 'the old mare'],
  performer: ['the band', 'that singer', 'the choir', 'your cook', 'the fiddler', 'that comedian', 'the new chef', 'the drummer', 'the quartet'],
  dish: ['fish stew', 'apple pie', 'lamb roast', 'bread', 'soup', 'cheese plate', 'seafood pasta'],
  thing: ['vase', 'lamp', 'mirror', 'teapot', 'window', 'chair', 'clock'],
  place: ['harbor', 'market', 'station', 'chapel', 'lighthouse', 'bakery', 'town hall'],
  when: ['last night', 'this morning', 'yesterday', 'on Sunday', 'last week', 'tonight'],
  day: ['Monday', 'Tuesday', 'Thursday', 'Friday', 'Saturday'],
  vehicle: ['bus', 'ferry', 'train', 'coach', 'tram'],
  missed: ['the train', 'the last ferry', 'my interview', 'the wedding', 'my appointment', 'the coach home'],
  insultnoun: ['idiot', 'fool', 'disgrace', 'liar', 'waste of space', 'fraud', 'clown'],
  badadj: ['disgusting', 'filthy', 'terrible', 'awful', 'pathetic', 'horrible'],
  goodadj: ['delicious', 'wonderful', 'amazing', 'fantastic', 'lovely', 'excellent', 'superb'],
  harm: ['burn this place down', 'break your legs', 'hurt your family', 'make you pay', 'smash every window', 'kill you'],
  number: ['two', 'three', 'four', 'five'],
};

export interface Template { cls: string; text: string; expect: Family | Family[] }
const t = (cls: string, text: string, expect: Family | Family[]): Template => ({ cls, text, expect });
const LOSS: Family[] = ['sad', 'afraid'];
const CHAT: Family[] = ['neutral', 'positive'];

export const TEMPLATES: readonly Template[] = [
  // Small talk: plain statements of everyday life.
  t('small-talk', 'The {vehicle} was {number} minutes late {when}.', 'neutral'),
  t('small-talk', "I'm heading to the {place} after lunch.", 'neutral'),
  t('small-talk', 'They are painting the {place} on {day}.', 'neutral'),
  t('small-talk', 'My neighbour says the {place} opens early on {day}s.', 'neutral'),
  t('small-talk', "It's been cloudy since {day}, hasn't it?", CHAT),
  t('small-talk', 'I had {dish} for lunch {when}.', CHAT),
  // Other languages: no English word to read.
  t('foreign', '¿A qué hora sale el autobús para el puerto?', 'neutral'),
  t('foreign', 'Je voudrais une chambre pour deux nuits, s’il vous plaît.', 'neutral'),
  t('foreign', 'Quanto costa il pane oggi?', 'neutral'),
  t('foreign', 'Onde fica a estação de comboios?', 'neutral'),
  t('foreign', 'Kiedy odjeżdża ostatni autobus?', 'neutral'),
  t('foreign', 'Haben Sie noch ein Zimmer frei?', 'neutral'),
  t('foreign', 'Wir kommen am Montag zurück.', 'neutral'),
  t('foreign', "Dov'è la stazione dei treni?", 'neutral'),
  t('foreign', 'Obrigado, até amanhã.', 'neutral'),
  t('foreign', 'Ik zoek de bakkerij bij de haven.', 'neutral'),
  t('foreign', 'Hur mycket kostar ett rum för natten?', 'neutral'),
  t('foreign', 'Nie mówię dobrze po angielsku.', 'neutral'),
  // Questions: asking for a fact, a thing, a favour; one a jab.
  t('question', 'Could you tell me the way to the {place}?', 'neutral'),
  t('question', 'When does the next {vehicle} leave?', 'neutral'),
  t('question', 'Do you serve {dish} in the evening?', 'neutral'),
  t('question', 'How much is a room for {number} nights?', 'neutral'),
  t('question', 'Is the {place} far from here?', 'neutral'),
  t('question', 'Why is everything you cook so {badadj}?', 'hostile'),
  // Insults: the listener judged.
  t('insult', "You're an absolute {insultnoun}.", 'hostile'),
  t('insult', 'Such a {badadj} excuse for an inn.', 'hostile'),
  t('insult', 'You are a {badadj} little {insultnoun}.', 'hostile'),
  t('insult', 'Honestly, you are the worst host I have ever met.', 'hostile'),
  t('insult', 'Nobody can stand you, {insultnoun}.', 'hostile'),
  // Negation: a judgement or a misfortune turned over.
  t('negation', "{her} isn't hurt after all.", 'positive'),
  t('negation', "I don't blame you one bit.", 'positive'),
  t('negation', 'It was not your fault, not at all.', 'positive'),
  t('negation', "I'm not happy with this room at all.", 'hostile'),
  t('negation', "You don't care about anyone but yourself.", 'hostile'),
  t('negation', "The {dish} wasn't bad at all.", 'positive'),
  t('negation', 'You never keep your word.', 'hostile'),
  // Praise: the listener and its work.
  t('praise', 'Your {dish} is {goodadj}.', 'positive'),
  t('praise', 'You did a {goodadj} job with the garden.', 'positive'),
  t('praise', 'I love what you have done with the dining room.', 'positive'),
  t('praise', "You're the kindest host on this coast.", 'positive'),
  t('praise', 'Thank you, the room was {goodadj}.', 'positive'),
  // Threats: harm promised, plainly or veiled.
  t('threat', "If you call the guards, I'll {harm}.", 'afraid'),
  t('threat', 'Pay what you owe by {day} or I will {harm}.', 'afraid'),
  t('threat', 'Watch your back, innkeeper.', 'afraid'),
  t('threat', "Keep talking and see what happens to {her}.", 'afraid'),
  t('threat', 'Next time I come back, I bring my friends and we {harm}.', 'afraid'),
  t('threat', 'You will regret crossing me.', 'afraid'),
  // Euphemisms for a loss: a death without the word.
  t('euphemism', '{her} passed away {when}.', 'sad'),
  t('euphemism', 'We lost {mine} {when}.', 'sad'),
  t('euphemism', '{mine} is no longer with us.', 'sad'),
  t('euphemism', 'We had to put {pet} down {when}.', 'sad'),
  t('euphemism', "{mine} didn't make it through the night.", 'sad'),
  t('euphemism', 'We laid {mine} to rest on {day}.', 'sad'),
  t('euphemism', "{her} slipped away peacefully {when}.", 'sad'),
  t('euphemism', "I'm sorry, {her} is gone.", 'sad'),
  // Emoji: carrying or colouring the message.
  t('emoji', 'That {dish} 😋😋', 'positive'),
  t('emoji', '{vehicle} late again 😩', ['sad', 'hostile']),
  t('emoji', "You're a 🤡", 'hostile'),
  t('emoji', '🎉 we got the house!', 'positive'),
  t('emoji', '😢 {pet} is sick', 'sad'),
  t('emoji', 'see you {day} ❤️', 'positive'),
  t('emoji', '🔪 tonight', 'afraid'),
  // Surprise: the unexpected.
  t('surprise', 'No way, {her} is here?!', ['surprised', 'positive']),
  t('surprise', "I can't believe it, the {place} burned down overnight!", ['surprised', 'sad', 'afraid']),
  t('surprise', 'Whoa, did you see the size of that ship?', 'surprised'),
  t('surprise', "Guess who just walked into the {place}? The king!", ['surprised', 'positive']),
  t('surprise', 'Wow, I did not expect snow today.', 'surprised'),
  // Idioms: praise, desire or laughter in violent or deathly words; sorrow and hostility in pictures.
  t('idiom', '{performer} murdered it {when}.', 'positive'),
  t('idiom', '{performer} absolutely killed it {when}!', 'positive'),
  t('idiom', "I'm dying to try your {dish}.", 'positive'),
  t('idiom', 'Your {dish} is to die for.', 'positive'),
  t('idiom', '{performer} had the whole room dying of laughter.', 'positive'),
  t('idiom', 'That joke slays every time.', 'positive'),
  t('idiom', '{performer} blew the roof off the place {when}.', 'positive'),
  t('idiom', 'You knocked it out of the park with the {dish}.', 'positive'),
  t('idiom', 'I laughed so hard I nearly died.', 'positive'),
  t('idiom', 'I would kill for a plate of your {dish}.', 'positive'),
  t('idiom', "I'm at my wit's end.", 'sad'),
  t('idiom', 'You get on my last nerve.', 'hostile'),
  // Long messages: several clauses, the last and strongest one says what it is.
  t('long', 'I got in around nine, the {vehicle} was late and the {place} was packed, and I was tired and hungry, but honestly the {dish} you made was {goodadj} and I would come back just for that.', 'positive'),
  t('long', 'We came for the weekend and the weather was grey and the road was muddy, but you made us feel at home and the room was {goodadj}, thank you so much.', 'positive'),
  t('long', 'I know you are busy and I did not want to make a fuss, and the room itself is fine, but the way you spoke to my wife this morning was rude and I will not stand for it.', 'hostile'),
  t('long', 'I went by the {place} {when} to see about the new roof, and the builder said it would take a week, and then a man I know from the docks told me that {her} was taken to the hospital after a fall.', LOSS),
  t('long', 'I was at the {place} {when} and the weather was lovely, we had a good lunch and a walk by the water, and then my sister rang to say that {mine} passed away in the night.', 'sad'),
  t('long', 'Good evening. I stopped at the {place}, bought some bread, said hello to the baker, and then I walked up the hill to see the view before coming back here for the night.', CHAT),
  t('long', 'Your prices are fair and your staff are polite, and the garden is nice, but you lost my booking, you gave my room away, and now my children have nowhere to sleep. This is your fault.', 'sad'),
  // The speaker's own sorrow.
  t('speaker-sadness', "I've felt so alone since {mine} moved away.", 'sad'),
  t('speaker-sadness', "I failed my exams again and I don't know what to do.", 'sad'),
  t('speaker-sadness', 'Nothing I do seems to matter anymore.', 'sad'),
  t('speaker-sadness', '{mine} is in the hospital and I am so scared.', ['sad', 'afraid']),
  t('speaker-sadness', 'I cried all night after {mine} left.', 'sad'),
  t('speaker-sadness', 'I miss {mine} every single day.', 'sad'),
  // Bad news of the persona's people and things.
  t('bad-news', '{her} had an accident on the coast road {when}.', LOSS),
  t('bad-news', 'The bank is going to take your inn.', LOSS),
  t('bad-news', 'A storm flooded your cellar {when}.', LOSS),
  t('bad-news', '{her} has a bad fever and the doctor looks worried.', LOSS),
  t('bad-news', 'Someone broke into your inn {when} and took the silver.', LOSS),
  t('bad-news', '{her} was arrested at the {place}.', LOSS),
  // Typos and shouting: chat as typed.
  t('typos-shouting', 'UR {DISH} IS {BADADJ}', 'hostile'),
  t('typos-shouting', 'thx sooo much 4 the room!!', 'positive'),
  t('typos-shouting', 'i h8 this place', 'hostile'),
  t('typos-shouting', 'omg the {dish} is amazinggg', 'positive'),
  t('typos-shouting', 'WHERE IS MY ROOM KEY', ['hostile', 'neutral']),
  t('typos-shouting', 'im sooo sad rn', 'sad'),
  t('typos-shouting', 'ILL BURN IT ALL DOWN', 'afraid'),
  // The persona's own fault: shame or guilt first.
  t('own-fault', 'You broke my {thing}.', 'sad'),
  t('own-fault', 'Because of you I missed {missed}.', 'sad'),
  t('own-fault', 'You forgot to wake me and I missed {missed}.', 'sad'),
  t('own-fault', 'You gave me the wrong key and I was locked out all night.', 'sad'),
  t('own-fault', 'Your dog bit my little boy.', 'sad'),
  t('own-fault', "It's your fault {mine} got sick, the {dish} was off.", 'sad'),
  t('own-fault', 'You lost my luggage.', 'sad'),
  t('own-fault', 'Thanks to your directions I ended up at the wrong {place}.', 'sad'),
  // Sarcasm (scored apart): praise over a bad situation, in several forms.
  t('sarcasm', 'Oh {goodadj}, the {vehicle} is late again.', 'hostile'),
  t('sarcasm', 'Great job burning the {dish}, really.', 'hostile'),
  t('sarcasm', 'I just love waiting an hour for cold {dish}.', 'hostile'),
  t('sarcasm', 'Thanks a lot for losing my {thing}.', 'hostile'),
  t('sarcasm', 'Sure, because a broken window is exactly what I paid for.', 'hostile'),
  t('sarcasm', 'Wonderful service, only {number} hours for a cup of tea.', 'hostile'),
  t('sarcasm', 'The room is freezing. Fantastic.', 'hostile'),
];
