// Emoji read as what they say when sent to someone (wink-nlp gives each its own token): anger and
// contempt are aimed at the reader, tears and broken hearts are the sender's own sadness, hearts
// and kisses are affection for the reader, weapons and skulls are menace (a threat with "you" or a
// time: "🔪🔪 see you tonight"), wide eyes and screams are surprise. Valence on AFINN's scale / 5.
import type { Target } from './language.ts';

export interface EmojiCue {
  valence: number;
  /** Whom the emoji speaks of when the words name no one. */
  about?: Target;
  menace?: true;
  surprise?: number;
  loss?: number;
  thanks?: true;
}

const cues = (chars: string, cue: EmojiCue): Array<[string, EmojiCue]> => [...chars].filter((c) => c.trim()).map((c) => [c, cue]);

export const EMOJI: ReadonlyMap<string, EmojiCue> = new Map<string, EmojiCue>([
  ...cues('😡😠🤬👿💢😤', { valence: -0.7, about: 'listener' }),
  ...cues('🙄😒🤡💩👎🐍', { valence: -0.6, about: 'listener' }),
  ...cues('🖕', { valence: -0.9, about: 'listener' }),
  ...cues('🤮🤢', { valence: -0.6, about: 'listener' }),
  ...cues('🔪🔫💣🗡⚔💀☠⚰🩸', { valence: -0.3, menace: true }),
  ...cues('😭😢😞😔😿💔🥺😩😫😥', { valence: -0.6, about: 'speaker', loss: 0.6 }),
  ...cues('😨😰', { valence: -0.5, about: 'speaker' }),
  ...cues('❤💕💖💗💓💞💘😍🥰😘😻💋🤗♥', { valence: 0.7, about: 'listener' }),
  ...cues('😂🤣😄😁😀😃😊🙂😆😹☺', { valence: 0.5, about: 'speaker' }),
  // Relish, delight and cool (Unicode's tongue, star-struck and sunglasses faces; not fire, which may be a threat).
  ...cues('😋😛😜😝🤪🤩😎😇😌🤤💯', { valence: 0.5, about: 'speaker' }),
  ...cues('😣😖😓🙁☹😟😕', { valence: -0.5, about: 'speaker', loss: 0.4 }),
  ...cues('🎉🥳🎊🏆🍾✨🌟', { valence: 0.6 }),
  ...cues('🙏', { valence: 0.5, about: 'listener', thanks: true }),
  ...cues('👍👌👏💪🙌', { valence: 0.4, about: 'listener' }),
  ...cues('😱😮😲😯🤯😳', { valence: 0, surprise: 1 }),
]);
