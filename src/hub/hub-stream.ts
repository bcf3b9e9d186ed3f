// Canonical stream parts, the parsed SSE event the relay hands us, and the small synchronous machine each
// stream converter is written as (so the relay can drive it event by event, or pipe it as a TransformStream).
import type { GatewayError } from '../gateway-errors.ts';
import type { HubFinishReason, HubServerToolCallPart, HubServerToolResultPart, HubUsage } from './hub-response.ts';
import type { HubCitation } from './hub-request.ts';
import type { WarningSink } from './hub-warnings.ts';

/** One parsed server-sent event (eventsource-parser's shape, reduced to what converters read and write). */
/** Thrown by a stream converter or watcher for an event it cannot read; the relay's pump logs and skips it. */
export class MalformedEventError extends Error {}

export interface SseEvent {
  event?: string;
  data: string;
}

export type HubStreamPart =
  /**
   * `promptUsage`: the prompt's counts when the upstream reports them before the answer (Gemini's first chunk,
   * Anthropic's message_start), for clients whose format shows them at the start (Anthropic's message_start).
   */
  | { type: 'start'; id: string; model: string; promptUsage?: Pick<HubUsage, 'inputTokens' | 'cachedInputTokens' | 'cacheWriteTokens'> }
  | { type: 'text-delta'; delta: string }
  /**
   * Reasoning text. A part carrying `signature` closes the current reasoning block (the signature arrives
   * after its text); one carrying `redactedData` is a whole redacted block on its own.
   */
  | { type: 'reasoning-delta'; delta: string; signature?: string; redactedData?: string; signatureFamily?: string }
  /** index counts tool calls in this response from 0, as OpenAI's tool_calls[].index does. */
  | { type: 'tool-call-start'; index: number; id: string; name: string; signature?: string }
  | { type: 'tool-call-delta'; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; index: number }
  /** A hosted tool's call and result (web search), each whole: providers send them in one piece. */
  | HubServerToolCallPart
  | HubServerToolResultPart
  /** A source the text written so far cites (Anthropic's citations_delta, Gemini's grounding supports). */
  | { type: 'citation'; citation: HubCitation }
  | { type: 'finish'; finishReason: HubFinishReason; usage: HubUsage }
  | { type: 'error'; error: GatewayError };

/** A converter state machine: each input gives zero or more outputs; end() flushes what the input left open. */
export interface StreamMachine<I, O> {
  push(input: I): O[];
  end(): O[];
}

/**
 * A channel-side machine's fast lane for its format's most frequent event, a text delta (issue 16: the part
 * objects and arrays of push() were a good share of a translated stream's work). The delta's text when
 * `event` is one, exactly what push() would hand on as a single text-delta part (nothing when the text is
 * empty) and with the same effect on the machine, which is none; undefined for any other event, which then
 * goes to push().
 */
export interface TextDeltaReader {
  textDeltaOf(event: SseEvent): string | undefined;
}

/**
 * A client-side machine's fast lane for a text-delta part: the wire text (`data: …` and the blank line) that
 * push() and the relay's SSE framing would give for it, with the same effect on the machine; undefined when
 * the machine cannot say so (not started, ended, a text its shortcut does not cover), and the part then goes
 * to push().
 */
export interface TextDeltaWriter {
  textDeltaSse(delta: string): string | undefined;
}

export interface StreamToHubContext {
  /** Called for an event that cannot be read (bad JSON, unknown shape); the event is skipped. */
  onWarning?: WarningSink;
  /** Ids for tool calls the provider leaves unnamed (Gemini); random when absent. */
  generateId?: () => string;
}

export interface HubToStreamContext {
  /** The model name the client asked for: responses name it, not the upstream's id. */
  requestModel: string;
  /** OpenAI: send a usage chunk before [DONE] (stream_options.include_usage). */
  includeUsage?: boolean;
  onWarning?: WarningSink;
  /** Unix seconds for `created` fields; now when absent (tests pin it). */
  created?: number;
  /** The client's own request body, for formats whose events echo the request's settings (Responses). */
  requestBody?: unknown;
}

export function machineToTransformStream<I, O>(machine: StreamMachine<I, O>): TransformStream<I, O> {
  return new TransformStream<I, O>({
    transform(input, controller) {
      for (const output of machine.push(input)) controller.enqueue(output);
    },
    flush(controller) {
      for (const output of machine.end()) controller.enqueue(output);
    },
  });
}

/** Parses one event's JSON; a bad event is reported and skipped, never thrown mid-stream. */
export function parseEventJson(event: SseEvent, onWarning: WarningSink | undefined): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    onWarning?.({
      type: 'dropped',
      feature: event.event ? `event ${event.event}` : 'event',
      detail: `skipped an event whose data is not JSON: ${event.data.slice(0, 80)}`,
    });
    return undefined;
  }
}

let idCounter = 0;
/** A short unique id for things the provider did not name. */
export function defaultGenerateId(prefix = 'call'): string {
  idCounter = (idCounter + 1) % 1_000_000;
  return `${prefix}_${Date.now().toString(36)}${idCounter.toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
