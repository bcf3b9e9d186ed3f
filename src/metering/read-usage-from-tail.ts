// Finds the last top-level-looking `"usage": {...}` object in a JSON text and parses just that object.
// Upstreams put usage at the end of the body, so this reads a few hundred bytes instead of the whole answer.
export function readUsageObjectFromTail(json: string): unknown {
  const at = json.lastIndexOf('"usage"');
  if (at < 0) return null;
  const open = json.indexOf('{', at);
  if (open < 0) return null;
  // Anything other than whitespace and a colon between the key and the brace means `"usage": null` or similar.
  if (!/^"usage"\s*:\s*$/.test(json.slice(at, open))) return null;
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
