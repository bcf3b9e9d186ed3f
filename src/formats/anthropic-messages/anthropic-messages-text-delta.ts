// Anthropic's most frequent stream event, a text delta, read without parsing it into objects. Anthropic
// (and every compatible server seen) writes it in one fixed form:
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}
// For exactly that form the text is the string between the fixed head and tail; anything else (other key
// order, spaces, other delta types) answers undefined and takes the general path (JSON.parse and the
// checks of anthropic-messages-stream.ts), so what the machine emits does not depend on which path ran.

const HEAD = '{"type":"content_block_delta","index":';
const DELTA = ',"delta":{"type":"text_delta","text":"';
const TAIL = '"}}';
/** A quote, a backslash or a control character: the literal needs JSON's own reading. */
const NEEDS_JSON = /["\\\u0000-\u001f]/;

/** The delta's text when `data` is exactly a text delta event in Anthropic's form, else undefined. */
export function anthropicTextDeltaOf(data: string): string | undefined {
  if (!data.startsWith(HEAD) || !data.endsWith(TAIL)) return undefined;
  let at = HEAD.length;
  const digits = at;
  while (at < data.length && data.charCodeAt(at) >= 48 && data.charCodeAt(at) <= 57) at++;
  // A block index: 1 to 9 digits, no leading zero (which JSON refuses).
  if (at === digits || at - digits > 9 || (data.charCodeAt(digits) === 48 && at - digits > 1)) return undefined;
  if (!data.startsWith(DELTA, at)) return undefined;
  const start = at + DELTA.length;
  const end = data.length - TAIL.length;
  if (end < start) return undefined;
  const text = data.slice(start, end);
  if (!NEEDS_JSON.test(text)) return text;
  // Escapes: the literal alone is parsed; it must be exactly one JSON string (an unescaped quote is not).
  try {
    const value: unknown = JSON.parse(data.slice(start - 1, end + 1));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
