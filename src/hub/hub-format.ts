// The converter set each wire format provides: to the hub and from it, for requests, responses, streams and
// errors. The relay only ever talks to this interface, so adding a format is adding a folder.
import type { GatewayError } from '../gateway-errors.ts';
import type { RenderedFormatError } from './hub-errors.ts';
import type { HubRequest } from './hub-request.ts';
import type { HubResponse, HubUsage } from './hub-response.ts';
import type { HubStreamPart, HubToStreamContext, SseEvent, StreamMachine, StreamToHubContext } from './hub-stream.ts';
import type { HubWarning } from './hub-warnings.ts';
import type { Operation } from './hub-operations.ts';
import type { Usage } from '../metering/usage.ts';
import type { FitToModel } from './hub-model-support.ts';

/** An upstream answer's headers as undici gives them (lower-case names). */
export type UpstreamErrorHeaders = Readonly<Record<string, string | string[] | undefined>>;

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

/** A model as the gateway lists it to clients (GET /v1/models and the like). */
export interface HubModelInfo {
  id: string;
  ownedBy: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/**
 * An upstream refusal the relay treats apart from other client errors: a prompt too long for the model (a
 * fallback model with a larger context may take it), or a refusal by the upstream's content policy (final:
 * neither another channel nor the channel's health is concerned). Each format recognises its own.
 */
export type FormatRefusal = 'context-length' | 'content-policy';

/**
 * Reads one event of a restarted stream in this format against the text the client already has: the event
 * with what was already delivered taken out (`keep`, null to drop it), or 'diverged' when the new answer
 * differs (src/relay/attempts-replay.ts). `skip(piece)` returns the piece's part the client does not have
 * yet, or null when the piece contradicts it; `caughtUp()` tells whether the delivered text was repeated whole.
 */
export type ReplayEventReader = (event: string | undefined, data: string, skip: (piece: string) => string | null, caughtUp: () => boolean) => { keep: string | null } | 'diverged';

/**
 * A format whose request can ask for several answers to one prompt (OpenAI chat `n`, Gemini
 * `candidateCount`). Only a channel of the same format gives them: the hub carries one answer, so a
 * translation would answer one and drop the rest (src/relay/hops/translated-chat-hop.ts refuses such calls).
 */
export interface SeveralAnswers {
  /** The request field, as an error names it. */
  param: string;
  /** How many answers a request body asks for; 1 when it does not say. */
  asked(body: Record<string, unknown>): number;
  /**
   * The text of every answer after the first in a whole answer or one stream event, which responseToHub
   * and the stream machine (the first answer only) leave out: a passthrough delivers them all, and counts
   * them when the upstream reports no usage. Absent when the format's passthrough hop reads every answer
   * itself (OpenAI chat's).
   */
  laterAnswersText?(json: unknown): string;
}

/** What a watcher is told about the call whose answer it watches. */
export interface WatchContext {
  /** The client's request body: what went upstream, but for the model id and the stream usage option. */
  body: Record<string, unknown>;
  /** Whether the client asked for the format's usage event itself (its streamUsageOption); true when it has none. */
  clientWantsUsage: boolean;
  /** The stream continues an answer the client already has (an assistant prefill on another channel). */
  continuing: boolean;
  /** The usage the answer is billed by so far (src/relay/attempt-usage.ts), for a usage event the watcher must write. */
  usage(): Usage;
  /** An event the watcher skipped, for the log. */
  onWarning(detail: string): void;
}

/**
 * How an answer ended and what it said, for its trace span (read only when tracing is on): the finish reason
 * of each answer (the provider's own value, `stop`, `end_turn`, `STOP`), and the text delivered.
 */
export interface AnswerReading {
  finishReasons: string[];
  text: string;
}

/**
 * Watches an answer in this format passed through unchanged (the identity case of the exchange): reads the
 * usage it reports, counts what it delivered and mends its framing (a missing terminator, a usage event the
 * gateway asked for and the client did not). One per attempt; streamed events go through event().
 */
export interface AnswerWatcher {
  /** A whole answer: the usage it reports (null when none) and the tokens of everything it delivered. */
  whole(text: string): { reported: HubUsage | null; outputTokens(): number; reading(): AnswerReading };
  /** One upstream event → the client's SSE text for it ('' drops it); throws MalformedEventError for an unreadable one. */
  event(event: SseEvent): string;
  /** The upstream stream ended: the SSE text that finishes the client's stream (a missing terminator). */
  end(): string;
  /** The usage the stream reported so far (null when none). */
  reported(): HubUsage | null;
  /** Tokens of everything the stream delivered: text, reasoning, tool names and arguments, every answer. */
  outputTokens(): number;
  /** The answer text the client has (a continuation's prefill), and whether tool calls were part of it. */
  delivered(): { text: string; toolCalls: boolean };
  /** How the streamed answer ended and its text (tracing only: may parse what was kept). */
  reading(): AnswerReading;
}

/**
 * What the pipeline must know about a request in a format before it is sent, read from the format's own
 * fields (src/formats/<format>/<format>-request-facts.ts), so metering and the relay name none of them.
 */
export interface RequestFacts {
  /**
   * The most output tokens the body lets an upstream produce (all the answers it asks for together), or
   * undefined when it states none. An estimated output count is capped by it (src/relay/attempt-usage.ts):
   * the upstream could not have produced more. A few property reads, made only when an estimate is needed.
   */
  outputLimit(body: unknown): number | undefined;
  /** Tokens of the prompt the body carries, estimated (only when an upstream reports no input count). */
  promptTokens(body: unknown): number;
}

/**
 * Everything the relay, the routes and the metering need to know about one wire format: converters both
 * ways, the usage reader, and capabilities declared as data, so that nothing outside src/formats/ compares
 * a format's name.
 */
export interface FormatConverters {
  /** Its name in the registry (src/formats/index.ts), which derives the union of names from these. */
  name: string;
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
  /**
   * How its clients present their key: the header (`authorization` with `bearer`: `Bearer <key>`), and a
   * query parameter some SDKs use instead (Gemini's `?key=`). The gateway accepts every format's
   * convention on every route (src/http/authenticate.ts), so a client's SDK works wherever it points.
   */
  clientKey: { header: string; bearer: boolean; query?: string };
  /** The provider operations its chat is sent to, whole and streamed (src/providers/*: a path for each). */
  chatOperations: { whole: Operation; stream: Operation };
  /**
   * The API family: channels whose formats share one speak the same dialect on every other endpoint
   * (embeddings, images, audio, uploads, realtime, the models list): the same envelope and auth header.
   */
  apiFamily: string;
  /** Whether an upstream speaking it continues a trailing assistant message natively (a channel default). */
  supportsPrefill: boolean;
  /** The watcher of an answer in this format passed through unchanged (src/relay/hops/passthrough-chat-hop.ts). */
  watch(ctx: WatchContext): AnswerWatcher;
  /**
   * For formats whose upstreams may continue a trailing assistant message: the client's body with the
   * delivered text appended as that message, asking to continue it (a passthrough continuation).
   */
  prefillBody?(body: Record<string, unknown>, prefill: string): Record<string, unknown>;
  /** What the pipeline reads from a request body in this format: its output limit and prompt size. */
  requestFacts: RequestFacts;
  /** For formats whose requests can ask for several answers. */
  severalAnswers?: SeveralAnswers;
  /**
   * For client formats: the body fitted to what its model declares it supports (src/hub/hub-model-support.ts),
   * before any channel is chosen; passthrough and translated channels alike get the fitted body.
   */
  fitToModel?: FitToModel;
  /**
   * The body fields that make an upstream report usage in a stream (OpenAI's stream_options); null when
   * its streams always carry usage. A client format with them is passed through by the hop that adds them.
   */
  streamUsageOption: Readonly<Record<string, unknown>> | null;
  /** The data line a stream in this format ends with ('[DONE]'), or null when its last event says so. */
  streamTerminator: string | null;
  /** Its model list's shape (src/http/routes/models-route.ts): the whole list, and one model object. */
  modelList(models: readonly HubModelInfo[]): Record<string, unknown>;
  modelEntry(model: HubModelInfo): Record<string, unknown>;
  /** The smallest valid chat request, for the channel tester (src/routing/channel-tester.ts). */
  probeBody(upstreamModel: string): Record<string, unknown>;
  /** Its error reader's verdict on refusals the relay routes differently (context length, content policy). */
  refusalOf(status: number, body: unknown): FormatRefusal | null;
  /** For client formats whose broken streams may be restarted elsewhere: reads the restarted events. */
  replayEvent?: ReplayEventReader;
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
  /**
   * An upstream error answer → the hub's error. `headers` are the answer's own (lower-case names), for
   * formats that name the error there rather than in the body (Bedrock's `x-amzn-errortype`).
   */
  errorToHub(status: number, body: unknown, headers?: UpstreamErrorHeaders): GatewayError;
  hubToError(error: GatewayError): RenderedFormatError;
  /** The event a stream in this format ends with when it fails after it started. */
  hubErrorToStreamEvent(error: GatewayError): SseEvent;
}
