// Anthropic's most frequent stream event, a text delta, read without parsing it into objects. Anthropic
// (and every compatible server seen) writes it in one fixed form:
//   {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"…"}}
// For exactly that form the text is the string between the fixed head and tail; anything else (other key
// order, spaces, other delta types) answers undefined and takes the general path (JSON.parse and the
// checks of anthropic-messages-stream.ts), so what the machine emits does not depend on which path ran.
//
// The form is checked by one regular expression: irregexp's native code reads the sliced string the SSE
// parser hands over in place. startsWith/endsWith were inlined by TurboFan as a character loop that cost
// ~3,400 instructions per event on such strings, and substring comparisons (`===`) ~1,100 (callgrind,
// issue 16); the expression costs a third of the latter.

/** A block index is 1 to 9 digits without a leading zero (JSON refuses one); the text has no escape. */
const PLAIN = /^\{"type":"content_block_delta","index":(?:0|[1-9]\d{0,8}),"delta":\{"type":"text_delta","text":"[^"\\\u0000-\u001f]*"\}\}$/;
/** The same form whose text has escapes: the literal is then read by JSON.parse, which judges them. */
const ESCAPED = /^\{"type":"content_block_delta","index":(?:0|[1-9]\d{0,8}),"delta":\{"type":"text_delta","text":"(?:[^"\\\u0000-\u001f]|\\.)*"\}\}$/;
const HEAD_LENGTH = '{"type":"content_block_delta","index":'.length;
const DELTA_LENGTH = ',"delta":{"type":"text_delta","text":"'.length;
const TAIL_LENGTH = '"}}'.length;
const COMMA = 0x2c;

/** The delta's text when `data` is exactly a text delta event in Anthropic's form, else undefined. */
export function anthropicTextDeltaOf(data: string): string | undefined {
  const plain = PLAIN.test(data);
  if (!plain && !ESCAPED.test(data)) return undefined;
  let at = HEAD_LENGTH + 1;
  while (data.charCodeAt(at) !== COMMA) at++;
  const start = at + DELTA_LENGTH;
  const end = data.length - TAIL_LENGTH;
  if (plain) return data.slice(start, end);
  // The literal alone, quotes included, is parsed: one JSON string, or the event is not in the fixed form.
  try {
    const value: unknown = JSON.parse(data.slice(start - 1, end + 1));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
