// Finds the last top-level-looking `"usage": {...}` object in a JSON text and parses just that object.
// Upstreams put usage at the end of the body, so this reads a few hundred bytes instead of the whole answer.
export function readUsageObjectFromTail(json: string): unknown {
  const at = json.lastIndexOf('"usage"');
  if (at < 0) return null;
  const open = json.indexOf('{', at);
  if (open < 0) return null;
  // Anything other than whitespace and one colon between the key and the brace means `"usage": null` or similar.
  let colons = 0;
  for (let i = at + 7; i < open; i++) {
    const ch = json.charCodeAt(i);
    if (ch === 58 /* : */) colons++;
    else if (ch !== 32 && ch !== 10 && ch !== 13 && ch !== 9) return null;
  }
  if (colons !== 1) return null;
  const close = matchingBrace(json, open);
  if (close < 0) return null;
  try {
    return JSON.parse(json.slice(open, close + 1));
  } catch {
    return null;
  }
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) return i;
  }
  return -1;
}
