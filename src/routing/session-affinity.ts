// Session affinity (issue 28): the calls of one agent session go to the channel and upstream key that took
// its first call, so the provider's prompt cache, which is per account and per machine, keeps hitting; a
// coding agent resends a long and growing prompt every turn. Only an order: when that channel's circuit is
// open or it fails, the attempt order moves on to the next channel as for any call.
// A session is named by the client: Claude Code's `x-claude-code-session-id` header, Anthropic's
// `metadata.user_id` (Claude Code puts the session in it), OpenAI's `prompt_cache_key`; a client that names
// none (Gemini CLI) is known by its conversation's fingerprint (session-fingerprint.ts). Scoped to the
// gateway key, so two users never share one. Kept in memory, bounded, forgotten after an idle hour.
import type { RoutedChannel } from './routing-table.ts';
import { conversationFingerprint } from './session-fingerprint.ts';

const MAX_SESSIONS = 10_000;
const IDLE_MS = 60 * 60 * 1000;

interface Pin {
  channelId: number;
  keyIndex: number;
  usedAt: number;
}

/** Insertion-ordered: the oldest pin is the first to go when the map is full. */
const pins = new Map<string, Pin>();
/** Per channel, the key the next new session gets, so sessions spread over a channel's keys. */
const nextKeyOfChannel = new Map<number, number>();

interface SessionSource {
  key: { id: number };
  body: Record<string, unknown>;
  /** The raw body, whose length spares short calls the fingerprint. */
  rawBody?: { length: number };
  forwardHeaders: Record<string, string>;
}

/** A call's session, read once: a call with fallback models asks once per model. */
const sessionOfCall = new WeakMap<SessionSource, string | null>();

/** The session a call belongs to, scoped to its gateway key; null when the client names none and its conversation is too short to cache. */
export function sessionOf(call: SessionSource): string | null {
  const known = sessionOfCall.get(call);
  if (known !== undefined) return known;
  const header = call.forwardHeaders['x-claude-code-session-id'];
  const metadata = call.body.metadata as { user_id?: unknown } | undefined;
  const named = header
    ?? (typeof metadata?.user_id === 'string' && metadata.user_id !== '' ? metadata.user_id : undefined)
    ?? (typeof call.body.prompt_cache_key === 'string' && call.body.prompt_cache_key !== '' ? call.body.prompt_cache_key : undefined)
    ?? conversationFingerprint(call.body, call.rawBody?.length ?? 0) ?? undefined;
  const session = named === undefined ? null : `${call.key.id}\u0000${named}`;
  sessionOfCall.set(call, session);
  return session;
}

/** The channel with one upstream key: every attempt on it authenticates with that key (nextUpstreamKey). */
function withOneKey(channel: RoutedChannel, keyIndex: number): RoutedChannel {
  if (channel.apiKeys.length <= 1) return channel;
  return { ...channel, apiKeys: [channel.apiKeys[keyIndex % channel.apiKeys.length]!] };
}

/**
 * The candidates in routing order with the session's channel first, on its key. A session's first call
 * pins the channel routing chose first for it (and the next of that channel's keys); later calls for the
 * same model keep it while routing still offers that channel.
 */
export function withSessionAffinity(channels: RoutedChannel[], session: string | null, model: string, now = Date.now()): RoutedChannel[] {
  if (session === null || channels.length === 0) return channels;
  const id = `${session}\u0000${model}`;
  let pin = pins.get(id);
  if (pin && now - pin.usedAt > IDLE_MS) pin = undefined;
  const at = pin ? channels.findIndex((channel) => channel.id === pin!.channelId) : -1;
  if (!pin || at < 0) {
    const first = channels[0]!;
    const keyIndex = nextKeyOfChannel.get(first.id) ?? 0;
    nextKeyOfChannel.set(first.id, keyIndex + 1);
    pin = { channelId: first.id, keyIndex, usedAt: now };
    remember(id, pin);
    channels[0] = withOneKey(first, keyIndex);
    return channels;
  }
  pin.usedAt = now;
  remember(id, pin);
  const [pinned] = channels.splice(at, 1);
  channels.unshift(withOneKey(pinned!, pin.keyIndex));
  return channels;
}

function remember(id: string, pin: Pin): void {
  pins.delete(id);
  pins.set(id, pin);
  if (pins.size > MAX_SESSIONS) pins.delete(pins.keys().next().value!);
}
