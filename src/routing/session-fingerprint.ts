// A session for clients that name none (Gemini CLI on the API-key path sends no session id, header or body
// field; Cline, aider and other OpenAI-style clients often neither): a conversation's fingerprint. An agent
// resends its whole conversation every turn, so what starts it (the system prompt and the messages up to
// and including the first user turn) is the same on every call of one session, and differs between
// sessions that could not share a prompt cache anyway.
// Only prompts long enough to be cached are fingerprinted: every provider's prompt cache starts at about
// 1,024 tokens (OpenAI and Anthropic 1,024, Gemini's implicit cache 1,024 to 4,096), so a shorter start can
// never hit it, and pinning it would only take load balancing away. Identical long prompts from different
// sessions share a pin, which is where their shared cache is.
// Read from the fields the chat formats name their conversation by: Gemini's `contents` and
// `systemInstruction`, Anthropic's `messages` and `system`, OpenAI chat's `messages` (its system message is
// one of them). Responses clients name their session by prompt_cache_key (Codex does) and are not read here.
import { createHash } from 'node:crypto';

/** About 1,024 tokens of text: the smallest prompt any provider caches. */
const MIN_CACHEABLE_CHARS = 4096;

/** The entries of a conversation up to and including its first user turn (a Gemini content without a role is the user's). */
function opening(list: unknown[]): unknown[] {
  for (let i = 0; i < list.length; i++) {
    const role = (list[i] as { role?: unknown } | null)?.role;
    if (role === 'user' || role === undefined) return list.slice(0, i + 1);
  }
  return list;
}

/**
 * The fingerprint of the conversation a chat body continues, or null when the body holds no conversation or
 * its start is too short to be cached. `bodyBytes` (the raw body's length) skips short bodies without reading them.
 */
export function conversationFingerprint(body: Record<string, unknown>, bodyBytes: number): string | null {
  if (bodyBytes < MIN_CACHEABLE_CHARS) return null;
  const list = Array.isArray(body.contents) ? body.contents : Array.isArray(body.messages) ? body.messages : undefined;
  if (!list || list.length === 0) return null;
  const system = body.systemInstruction ?? body.system_instruction ?? body.system ?? null;
  const start = `${JSON.stringify(system)}\u0000${JSON.stringify(opening(list))}`;
  if (start.length < MIN_CACHEABLE_CHARS) return null;
  return `conversation:${createHash('sha256').update(start).digest('base64url')}`;
}
