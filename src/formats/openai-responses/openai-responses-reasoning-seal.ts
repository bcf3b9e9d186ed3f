// A reasoning item's encrypted_content, when the gateway wrote it: the upstream's own reasoning state (an
// Anthropic thinking signature, a redacted thinking block, a Gemini thought signature) sealed with AES-256-GCM
// under a key derived from GATEWAY_SECRET. Clients that keep their own history (Codex: store false, include
// reasoning.encrypted_content) send it back every turn; sealed, no client can read another provider's state
// out of it or forge a signature into it. What does not open (another gateway's, OpenAI's own encrypted
// content from an earlier turn on an OpenAI channel, a forgery) is dropped by the reader, its text kept.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface ReasoningSeal {
  signature?: string | undefined;
  redactedData?: string | undefined;
}

const PREFIX = 'gws1.';

// Until the gateway hands its secret over (start-gateway.ts), a key of this process: seals still cannot be
// read or forged by clients, they just do not survive a restart.
let key: Buffer = randomBytes(32);

/** Derives the sealing key from the gateway's secret; seals then open on every instance sharing it. */
export function useSecretForReasoningSeals(gatewaySecret: string): void {
  key = Buffer.from(hkdfSync('sha256', gatewaySecret, 'model-gateway', 'responses-reasoning-seal', 32));
}

/** The sealed form of an upstream's reasoning state, or undefined when there is none to carry. */
export function sealReasoning(seal: ReasoningSeal): string | undefined {
  const plain: Record<string, string> = {};
  if (seal.signature) plain.s = seal.signature;
  if (seal.redactedData !== undefined) plain.r = seal.redactedData;
  if (Object.keys(plain).length === 0) return undefined;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(plain), 'utf8'), cipher.final()]);
  return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The reasoning state inside a gateway seal; null for anything the gateway did not seal with its key. */
export function openReasoning(sealed: string): ReasoningSeal | null {
  if (!sealed.startsWith(PREFIX)) return null;
  const bytes = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (bytes.length < 29) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8')) as { s?: unknown; r?: unknown };
    const out: ReasoningSeal = {};
    if (typeof plain.s === 'string') out.signature = plain.s;
    if (typeof plain.r === 'string') out.redactedData = plain.r;
    return out;
  } catch {
    return null;
  }
}

/** Whether an encrypted_content is the gateway's own (it may still fail to open under another key). */
const isGatewaySeal = (sealed: unknown): boolean => typeof sealed === 'string' && sealed.startsWith(PREFIX);

/**
 * A request for an OpenAI channel: reasoning items the gateway sealed (another provider's reasoning, from
 * turns a translated channel answered) are left out, since OpenAI cannot open them and would refuse the
 * request. The same object when there are none.
 */
export function withoutGatewayReasoning<T extends Record<string, unknown>>(body: T): T {
  const input = body.input;
  if (!Array.isArray(input)) return body;
  const isSealed = (item: unknown) => (item as { type?: unknown } | null)?.type === 'reasoning' && isGatewaySeal((item as { encrypted_content?: unknown }).encrypted_content);
  return input.some(isSealed) ? { ...body, input: input.filter((item) => !isSealed(item)) } : body;
}
