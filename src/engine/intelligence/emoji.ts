import { GENERAL_PAYMENT, INTENTS } from './lexicon.js';

/**
 * Emoji that carry a purpose, by meaning class. People send a cake for a birthday, a bouquet or a
 * heart as a present, a church for an offering, a receipt for a bill; the purpose is as plain as a
 * word's; thanks (🙏🏾, 👍) and money (💸, 💰) say a payment was meant, as "thanks" or "money" would.
 * Faces and fire say how the sender feels, not what the money is for: they are not here, and a
 * narration of them alone stays empty. The classes are listed from the most specific purpose down:
 * when emoji of two classes meet, the first listed wins.
 */
const MEANINGS: { intent: string; reading: string; emoji: string }[] = [
  { intent: 'donation', reading: 'a place or sign of worship: religious giving', emoji: '⛪🕌🛐🕋🕍✝☦☪✡📿' },
  { intent: 'medical', reading: 'medicine or a hospital', emoji: '💊💉🏥🩺🩹🚑⚕' },
  { intent: 'transport', reading: 'a fare or fuel', emoji: '⛽🚕🚖🚌🚍🛺✈' },
  { intent: 'gift', reading: 'a birthday gift', emoji: '🎂🍰🧁🕯' },
  { intent: 'gift', reading: 'a wedding gift', emoji: '💒💍👰🤵💑💏' },
  { intent: 'gift', reading: 'a gift for a new baby', emoji: '👶🍼🤰🫃🧸🚼👼' },
  { intent: 'gift', reading: 'a Christmas gift', emoji: '🎄🎅🤶' },
  { intent: 'gift', reading: 'a graduation gift', emoji: '🎓' },
  { intent: 'gift', reading: 'a celebration gift', emoji: '🎉🎊🥳🎈🍾🥂🪅🎆🎇🏆🥇👏' },
  { intent: 'gift', reading: 'flowers: a gift', emoji: '💐🌹🌸🌺🌷🌻' },
  { intent: 'gift', reading: 'a gift', emoji: '🎁🎀' },
  { intent: 'gift', reading: 'love: a gift', emoji: '❤🧡💛💚💙💜🖤🤍🤎💕💖💗💓💞💘💝💌♥😍🥰😘💋🫶' },
  { intent: 'payment', reading: 'a receipt: a payment', emoji: '🧾' },
  { intent: 'payment', reading: 'thanks: a payment', emoji: '🙏👍🤝' },
  { intent: 'payment', reading: 'money: a payment', emoji: '💸💰💵💴💶💷🤑' },
];

const MEANING_OF = new Map<string, { intent: string; reading: string; rank: number }>();
MEANINGS.forEach(({ intent, reading, emoji }, rank) => {
  for (const char of emoji) {
    if (MEANING_OF.has(char)) throw new Error(`emoji ${char} has two meanings`);
    MEANING_OF.set(char, { intent, reading, rank });
  }
});

const LABEL_OF = new Map<string, string>([
  ...INTENTS.map((i) => [i.intent, i.label] as const),
  [GENERAL_PAYMENT.intent, GENERAL_PAYMENT.label],
]);

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** Skin tones, variation selectors and the keycap mark change how an emoji looks, not what it means. */
const MODIFIERS = /[\u{1F3FB}-\u{1F3FF}\uFE0E\uFE0F\u20E3]/gu;
let segmenter: Intl.Segmenter | undefined;

/** The emoji a text holds, each as typed (with its skin tone, variation selector or joined parts). */
export function emojiIn(text: string): string[] {
  if (!/[^\x00-\x7f]/.test(text) || !PICTOGRAPHIC.test(text)) return [];
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  return [...segmenter.segment(text)].map((s) => s.segment).filter((s) => PICTOGRAPHIC.test(s));
}

/** What one emoji means: its own meaning, or in a joined sequence the first part that has one (👩‍❤️‍👨 is love, 🧑‍🍼 a baby). */
function meaningOf(emoji: string) {
  for (const part of emoji.replace(MODIFIERS, '').split('\u200D')) {
    const meaning = MEANING_OF.get(part);
    if (meaning) return meaning;
  }
  return undefined;
}

export interface EmojiReading {
  intent: string;
  label: string;
  /** What each emoji was read as, for the explanation: "🎂 read as a birthday gift, 🥳 as a celebration gift". */
  reads: string;
}

/**
 * What the emoji of a narration say, or undefined when none carries a purpose. The purpose of the
 * most specific class wins (a church before a heart, a heart before a receipt).
 * @example emojiReading('🎂🥳') // { intent: 'gift', label: 'Gift', reads: '🎂 read as a birthday gift, 🥳 as a celebration gift' }
 */
export function emojiReading(text: string): EmojiReading | undefined {
  const read = emojiIn(text).flatMap((emoji) => {
    const meaning = meaningOf(emoji);
    return meaning ? [{ emoji, ...meaning }] : [];
  });
  if (read.length === 0) return undefined;
  const best = read.reduce((a, b) => (b.rank < a.rank ? b : a));
  const byReading = new Map<string, Set<string>>();
  for (const { emoji, reading } of read) byReading.set(reading, (byReading.get(reading) ?? new Set()).add(emoji));
  const parts = [...byReading].map(
    ([reading, emoji], i) => `${[...emoji].join('')} ${i === 0 ? 'read ' : ''}as ${reading}`,
  );
  return { intent: best.intent, label: LABEL_OF.get(best.intent)!, reads: parts.join(', ') };
}
