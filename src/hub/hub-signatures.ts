// Whose thinking signatures are whose. Anthropic and Gemini verify the signatures of the thinking sent back to
// them and refuse a request holding one they did not make (a fallback to another provider, a model switch in
// the middle of an agent session). So a signature carries its family through the hub (`signatureFamily`: the
// apiFamily of the upstream that signed it; Claude's on Bedrock count as `anthropic`, since Anthropic accepts
// them across its platforms), a client of another family gets it marked
// (`gwsig:<family>:<signature>`, which no base64 signature starts with), the mark is read back when the client
// returns it, and an upstream is sent only the signatures of its own family: the others' thinking is left out.
import type { HubReasoningPart } from './hub-request.ts';

const MARK = 'gwsig:';
/** The family written for reasoning that no upstream signed (OpenAI chat's reasoning_content). */
const UNSIGNED_FAMILY = 'unsigned';

/** The signature as a client of `clientFamily` gets it: as is when its own family signed it, marked otherwise. */
export function signatureForClient(signature: string | undefined, family: string | undefined, clientFamily: string): string {
  if (family === clientFamily || (family === undefined && signature)) return signature ?? '';
  return `${MARK}${family ?? UNSIGNED_FAMILY}:${signature ?? ''}`;
}

/** A signature a client of `clientFamily` sent back: unmarked ones are that family's own. */
export function signatureFromClient(raw: string, clientFamily: string): { signature?: string; signatureFamily: string } {
  if (!raw.startsWith(MARK)) return raw === '' ? { signatureFamily: UNSIGNED_FAMILY } : { signature: raw, signatureFamily: clientFamily };
  const rest = raw.slice(MARK.length);
  const colon = rest.indexOf(':');
  const family = colon < 0 ? UNSIGNED_FAMILY : rest.slice(0, colon);
  const signature = colon < 0 ? '' : rest.slice(colon + 1);
  return signature === '' ? { signatureFamily: family } : { signature, signatureFamily: family };
}

/** Whether a signature (as a client sent it) was marked by the gateway as another family's. */
export function isMarkedSignature(raw: unknown): boolean {
  return typeof raw === 'string' && raw.startsWith(MARK);
}

/**
 * The signature an upstream of `family` may be sent for this reasoning: its own family's (or one of unknown
 * family, as before families were kept), never another's.
 */
export function ownSignature(part: Pick<HubReasoningPart, 'signature' | 'signatureFamily'>, family: string): string | undefined {
  if (!part.signature) return undefined;
  return part.signatureFamily === undefined || part.signatureFamily === family ? part.signature : undefined;
}
