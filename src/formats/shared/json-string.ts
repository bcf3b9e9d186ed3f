// JSON string literals on the stream writers' hot path. Most deltas are a few characters that need no
// escape; for them the literal is the text between quotes, written without the call into V8's serialiser
// (~600 instructions per call for a five-character text, callgrind, issue 16).

/**
 * True when JSON.stringify(text) is exactly the text between quotes: no quote, backslash or control
 * character (which it escapes) and no unpaired surrogate (which it writes as \u…; a pair, an emoji, it
 * leaves as it is). A loop, not a regular expression: deltas are a few characters and the RegExp call cost
 * more than the scan.
 */
export function isPlainJsonText(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return false;
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(at + 1);
      if (code >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      at++;
    }
  }
  return true;
}

