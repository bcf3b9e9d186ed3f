// A hop is how one call's bodies cross between the client's wire format and a channel's: passthrough when
// they are the same format, translation through the hub otherwise. The attempt loop is the same for both.
import type { EventSourceMessage } from 'eventsource-parser';
import type { GatewayError } from '../gateway-errors.ts';
import type { Usage } from '../metering/usage.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { AnswerReading, UpstreamErrorHeaders } from '../hub/hub-format.ts';
import type { AttemptUsage } from './attempt-usage.ts';
import type { ResponsesTurnSender } from '../upstream/responses-upstream-sockets.ts';

export interface UpstreamCallShape {
  /** Path below the channel's base URL. */
  path: string;
  headers: Record<string, string>;
  /** A factory for bodies that can only be read once (uploads), so a retry gets a fresh one. */
  body: string | Buffer | (() => AsyncIterable<Uint8Array>);
  /**
   * The output limit the body states (its format's requestFacts), set by a hop that wrote the body itself (a
   * translation, whose limit can differ from the client's: Anthropic's default max_tokens); null when that
   * body states none. It caps an estimated output count (attempt-usage.ts). Passthrough hops leave it out:
   * the client's body went upstream, and its limit is read only when needed.
   */
  outputLimit?: number | null;
  /** Sends the call over the upstream's own Responses WebSocket (a turn of the gateway's WebSocket mode) instead of a POST. */
  socket?: ResponsesTurnSender;
}

export interface WholeAnswer {
  body: string;
  contentType: string;
  usage: Usage;
  /** How the answer ended and its text, for the call's trace (called only when tracing is on). */
  reading?(): AnswerReading;
}

export interface RelayHop {
  /** Whether this hop can call the channel (its wire format and operations, and what the call asks for). */
  supports(channel: RoutedChannel): boolean;
  /**
   * When supports() turned channels down for what the call asks rather than for their format (several
   * answers, which a translation cannot give), the client's error for a model left without a channel.
   */
  refusal?(): GatewayError | null;
  /** May be async: a translation can need to fetch image URLs first. */
  request(channel: RoutedChannel, upstreamModel: string): UpstreamCallShape | Promise<UpstreamCallShape>;
  /**
   * A 2xx non-stream answer, converted for the client, with its usage (reported or estimated). `sent` is
   * what this attempt's request() returned (the hop itself may serve several attempts at once: hedging);
   * `usage` resolves what the answer reports into what it is billed by (chat hops; others meter themselves).
   */
  whole(text: string, channel: RoutedChannel, sent: UpstreamCallShape, usage: AttemptUsage): WholeAnswer;
  /** An upstream error answer as a gateway error (status, message and code kept). */
  error(channel: RoutedChannel, status: number, text: string, headers?: UpstreamErrorHeaders): GatewayError;
  /** A converter for one streamed attempt (endpoints that stream); `sent` as for whole(). */
  stream?(channel: RoutedChannel, sent: UpstreamCallShape, usage: AttemptUsage): StreamConverter;
  /**
   * The same call continued after `deliveredText` reached the client, as an assistant prefill, for a
   * channel that accepts one; its stream must read as the rest of the same answer (chat only).
   */
  continuation?(deliveredText: string): RelayHop;
  /** Set for binary answers (speech): the bytes go to the client as they arrive, metered by this usage. */
  passBytes?: { usage(): Usage };
}

export interface StreamConverter {
  /** Client SSE text for one upstream event ('' to drop it). */
  event(event: EventSourceMessage): string;
  /** The upstream ended: whatever finishes the client's stream (a missing terminator). */
  end(): string;
  /** The stream failed after the client saw part of it: an error event in the client's format. */
  failure(error: GatewayError): string;
  /** Usage as reported, or counted from what was delivered. */
  usage(): Usage;
  /** The answer text the client has received so far, and whether tool calls were part of it. */
  delivered(): { text: string; toolCalls: boolean };
  /** How the answer ended and its text, for the call's trace (called only when tracing is on). */
  reading?(): AnswerReading;
}

/** Thrown by a converter for an event it cannot read; the pump logs and skips it (declared with the hub's stream types). */
export { MalformedEventError } from '../hub/hub-stream.ts';
