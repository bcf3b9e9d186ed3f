// Gemini 3 wants each functionCall's thoughtSignature back with the call, but OpenAI and Anthropic tool
// calls have no field for it. Their converters carry it inside the tool call id the client sees and echoes
// (`<id>__ts_<signature as base64url>`), and take it out again when the id comes back, so no upstream ever
// sees the long form. base64url keeps the id within Anthropic's [a-zA-Z0-9_-] and is exactly reversible.
// Ids without a signature are left as they are.

const MARK = '__ts_';

const toBase64Url = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
const fromBase64Url = (value: string) => Buffer.from(value, 'base64url').toString('utf8');

export function encodeToolCallId(id: string, signature: string | undefined): string {
  return signature ? `${id}${MARK}${toBase64Url(signature)}` : id;
}

export function decodeToolCallId(encoded: string): { id: string; signature?: string } {
  const at = encoded.indexOf(MARK);
  if (at < 0) return { id: encoded };
  return { id: encoded.slice(0, at), signature: fromBase64Url(encoded.slice(at + MARK.length)) };
}
