// Text and numbers that both engines store as given. PostgreSQL refuses a NUL character in text (`invalid
// byte sequence for encoding "UTF8": 0x00`) and a lone UTF-16 surrogate (which no UTF-8 can encode), and
// refuses a fraction or an out-of-range number for a bigint or integer column; SQLite stores all of these,
// so a row that works on one engine would jam the other. Whatever an upstream or a client sends ends up in
// such columns (an error echoing the request, a model name), so every value is made safe before writing.

/** NUL or a UTF-16 surrogate (paired ones are fine; toWellFormed() keeps them). */
export const UNSAFE = /[\u0000\uD800-\uDFFF]/;
const REPLACEMENT = '\uFFFD';

/**
 * The text with NUL and lone surrogates replaced by U+FFFD, cut to at most `maxLength` UTF-16 units (never
 * between the two halves of a pair), with a note of how much was cut.
 */
export function safeText(value: string, maxLength: number): string {
  let text = UNSAFE.test(value) ? value.replaceAll('\u0000', REPLACEMENT).toWellFormed() : value;
  if (text.length > maxLength) {
    const note = `… [${text.length - maxLength} more characters cut]`;
    let end = Math.max(0, maxLength - note.length);
    // Do not end on the first half of a surrogate pair.
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--;
    text = text.slice(0, end) + note;
  }
  return text;
}

/** JSON text that stays parseable when cut: too long, it becomes a JSON object holding the cut text. */
export function safeJsonText(json: string, maxLength: number): string {
  const text = safeText(json, Number.MAX_SAFE_INTEGER);
  if (text.length <= maxLength) return text;
  return JSON.stringify({ truncated: true, length: text.length, start: safeText(text, Math.max(0, maxLength - 100)) });
}

const INT32_MAX = 2_147_483_647;

/** A whole number every integer column can hold: non-finite becomes 0, fractions are rounded, ranges clamped. */
export function safeInteger(value: number, int32 = false): number {
  if (!Number.isFinite(value)) return 0;
  const limit = int32 ? INT32_MAX : Number.MAX_SAFE_INTEGER;
  return Math.max(-limit, Math.min(limit, Math.round(value)));
}
