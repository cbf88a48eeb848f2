// Text for details: quoted values and sentences that never hold a control character (the Problem schema forbids them).

/** Text with every control character (U+0000–U+001F, U+007F) written as a `\uXXXX` escape. */
export const printable = (text: string) =>
  text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A value quoted as JSON, printable. */
export const quote = (value: unknown) => printable(JSON.stringify(value) ?? String(value));

/** A phrase as a sentence: capitalised, ending with a full stop. */
export const sentence = (text: string) =>
  `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;

/** Text cut to at most `max` characters, an ellipsis marking the cut. */
export const bounded = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
