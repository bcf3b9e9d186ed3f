// The converter set each wire format provides: to the hub and from it, for requests, responses, streams and
// errors. The relay only ever talks to this interface, so adding a format is adding a folder.
import type { GatewayError } from '../gateway-errors.ts';
import type { RenderedFormatError } from './hub-errors.ts';
import type { FormatName, HubRequest } from './hub-request.ts';
import type { HubResponse, HubUsage } from './hub-response.ts';
import type { HubStreamPart, HubToStreamContext, SseEvent, StreamMachine, StreamToHubContext } from './hub-stream.ts';
import type { HubWarning } from './hub-warnings.ts';

export interface RequestToHubContext {
  /** Where the model is named outside the body (Gemini: the URL path `models/{model}:generateContent`). */
  model?: string;
  /** Gemini: streamGenerateContent vs generateContent is the URL, not a body field. */
  stream?: boolean;
  /** Ids for tool calls the history leaves unnamed (Gemini); random when absent. */
  generateId?: () => string;
}

export interface ResponseToHubContext {
  generateId?: () => string;
}

export interface HubToResponseContext {
  /** The model the client asked for, named in the response instead of the upstream's id. */
  requestModel: string;
  /** Unix seconds for `created` (OpenAI); now when absent. */
  created?: number;
  /** The client's own request body, for formats whose answers echo the request's settings (Responses). */
  requestBody?: unknown;
}

export type StreamFraming = 'sse' | 'aws-event-stream';

/** Watches a stream passed through unchanged and finishes it when the upstream left off its terminator. */
export interface StreamCloser {
  observe(event: SseEvent): void;
  /** The events that finish the stream properly (none when it already finished). */
  close(outputTokens: number): SseEvent[];
}

/**
 * Everything the relay, the routes and the metering need to know about one wire format: converters both
 * ways, the usage reader, and capabilities declared as data, so that nothing outside src/formats/ compares
 * a format's name.
 */
export interface FormatConverters {
  name: FormatName;
  /** Where a request names its model: in the body's `model`, or only in the URL path (Gemini). */
  modelIn: 'body' | 'path';
  /** Whether this format takes images only as inline bytes, so image URLs are fetched before sending. */
  needsInlineImages: boolean;
  /** Whether this format takes documents (input_file, PDFs) only as inline bytes, so file URLs are fetched first. */
  needsInlineDocuments?: boolean;
  /**
   * How the format's streams are framed on the wire: server-sent events (the default) or AWS's binary event
   * stream (application/vnd.amazon.eventstream, Bedrock). The relay picks its decoder by this.
   */
  streamFraming?: StreamFraming;
  /** For formats whose streams end with a terminator a cut upstream stream may lack, one that adds it. */
  streamCloser?(): StreamCloser;
  requestToHub(body: unknown, ctx?: RequestToHubContext): { request: HubRequest; warnings: HubWarning[] };
  hubToRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] };
  responseToHub(json: unknown, ctx?: ResponseToHubContext): HubResponse;
  hubToResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown>;
  /**
   * The format's one usage reader: its wire `usage` object (whatever the answer or event carried, null when
   * none) → the hub's usage, with what it leaves out unknown. Passthrough and translated paths both use it.
   */
  usageToHub(wire: unknown): HubUsage;
  streamToHub(ctx?: StreamToHubContext): TransformStream<SseEvent, HubStreamPart>;
  hubToStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent>;
  /** The same converters as synchronous machines, for a relay that handles one event at a time. */
  streamToHubMachine(ctx?: StreamToHubContext): StreamMachine<SseEvent, HubStreamPart>;
  hubToStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent>;
  errorToHub(status: number, body: unknown): GatewayError;
  hubToError(error: GatewayError): RenderedFormatError;
  /** The event a stream in this format ends with when it fails after it started. */
  hubErrorToStreamEvent(error: GatewayError): SseEvent;
}
