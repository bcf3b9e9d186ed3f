// Chat between different wire formats: the client's request (already in the hub) is written in the
// channel's format, and the answer, whole or streamed, is read back into the hub and written in the
// client's format. Warnings for what could not be carried are logged, and told to the client (ClientWarnings)
// when the channel whose request dropped them answers. A request for several answers (`n`,
// `candidateCount`) is not translated: the hub carries one answer, so the client would get one of the n it
// asked for; such a call goes only to channels of its own format, or is refused with a 400.
import { finishReasonName } from '../../hub/hub-response.ts';
import type { Logger } from 'pino';
import type { FormatConverters, UpstreamErrorHeaders } from '../../hub/hub-format.ts';
import type { HubRequest } from '../../hub/hub-request.ts';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import type { HubStreamPart, SseEvent, StreamMachine } from '../../hub/hub-stream.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { RelayCall } from '../relay-types.ts';
import type { RelayHop, StreamConverter, UpstreamCallShape, WholeAnswer } from '../relay-hop.ts';
import { invalidRequest, type GatewayError } from '../../gateway-errors.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import type { AttemptUsage } from '../attempt-usage.ts';
import { hubStreamConverter } from './hub-stream-converter.ts';
import { collectDocumentUrls, collectImageUrls, inlineDocuments, inlineImages, type InlineImage } from '../../hub/hub-images.ts';
import { fetchDocuments, fetchImages } from '../../upstream/fetch-images.ts';
import { estimateHubResponseTokens } from '../../metering/estimate-tokens.ts';
import { describeHubWarnings, type ClientWarnings } from '../client-warnings.ts';

/** The client's request in the hub, and what its conversion could not carry (a format's requestToHub). */
export interface ClientRequestInHub {
  request: HubRequest;
  warnings: readonly HubWarning[];
}

interface TranslatedHopOptions {
  call: RelayCall;
  client: FormatConverters;
  /** The client's request in the hub; computed on first use, since a passthrough channel may answer first. */
  request: () => ClientRequestInHub;
  /** Where the changes made for the answering channel are told to the client (x-gateway-warnings). */
  warnings?: ClientWarnings;
  logger: Logger;
  imageFetchAllowPrivate: boolean;
  /** How many answers the request asks for (`severalAnswers`), when the caller has read it already. */
  answersAsked?: number;
  /** For a continuation: the text already delivered, and the client-side machine to keep writing into. */
  continuation?: { prefill: string; clientMachine: StreamMachine<HubStreamPart, SseEvent> | undefined };
}

export function translatedChatHop(options: TranslatedHopOptions): RelayHop {
  return new TranslatedChatHop(options);
}

/**
 * A class, not an object of closures: built for every chat call (a passthrough channel may answer
 * first) and kept as long as the call's stream is open, so its methods should cost nothing per call.
 */
class TranslatedChatHop implements RelayHop {
  private readonly options: TranslatedHopOptions;
  private memo: HubRequest | undefined;
  private clientWarnings: readonly HubWarning[] = [];
  /** What each channel's request left out or changed, for the client once that channel answers. */
  private readonly changes = new Map<RoutedChannel['id'], readonly HubWarning[]>();
  private lastMachine: StreamMachine<HubStreamPart, SseEvent> | undefined;
  private inlined: Promise<HubRequest> | undefined;
  /** Document URLs (Responses input_file file_url), fetched once per call however many channels are tried. */
  private documents: Promise<Map<string, InlineImage>> | undefined;
  /** How many answers the client asked for: more than one, and this hop serves no channel. */
  private readonly answersAsked: number;
  /** Whether supports() turned a channel down only because of answersAsked. */
  private turnedDownForAnswers = false;

  constructor(options: TranslatedHopOptions) {
    this.options = options;
    this.lastMachine = options.continuation?.clientMachine;
    this.answersAsked = options.answersAsked ?? options.client.severalAnswers?.asked(options.call.body) ?? 1;
  }

  private hubRequest(): HubRequest {
    const { options } = this;
    if (this.memo) return this.memo;
    const converted = options.request();
    this.clientWarnings = converted.warnings;
    return (this.memo = options.continuation ? withPrefill(converted.request, options.continuation.prefill) : converted.request);
  }

  /** The answering channel's changes hold: the client is told them. */
  private answeredBy(channel: RoutedChannel): void {
    const warnings = this.options.warnings;
    if (!warnings) return;
    const changes = this.changes.get(channel.id) ?? [];
    warnings.answered(describeHubWarnings(this.clientWarnings.length === 0 ? changes : [...this.clientWarnings, ...changes]));
  }

  private withInlineImages(): Promise<HubRequest> {
    return (this.inlined ??= (async () => {
      const request = this.hubRequest();
      const urls = collectImageUrls(request);
      return urls.length === 0 ? request : inlineImages(request, await fetchImages(urls, this.options.imageFetchAllowPrivate));
    })());
  }

  private async withInlineDocuments(request: HubRequest): Promise<HubRequest> {
    const urls = collectDocumentUrls(request);
    if (urls.length === 0) return request;
    return inlineDocuments(request, await (this.documents ??= fetchDocuments(urls, this.options.imageFetchAllowPrivate)));
  }

  private warn(channel: RoutedChannel, warnings: { feature: string; detail: string }[]): void {
    for (const warning of warnings) this.options.logger.warn({ requestId: this.options.call.requestId, channel: channel.name, feature: warning.feature, detail: warning.detail }, 'conversion dropped a feature');
  }

  supports(channel: RoutedChannel): boolean {
    if (channel.chatFormat === this.options.client || !supportsOperation(channel, target(channel).chatOperations.whole)) return false;
    if (this.answersAsked === 1) return true;
    this.turnedDownForAnswers = true;
    return false;
  }

  refusal(): GatewayError | null {
    if (!this.turnedDownForAnswers) return null;
    const { call, client } = this.options;
    const param = client.severalAnswers!.param;
    // Refused rather than dropped: one answer in place of several is not what the client asked for (its
    // code may read choices that never came), and a 400 costs it nothing.
    return invalidRequest(`Invalid value for '${param}': ${this.answersAsked} answers were asked for, but the model '${call.model}' is served only by channels whose format gives one answer per request. Ask for one (${param} = 1), or send the request ${this.answersAsked} times.`, param, 'unsupported_for_model');
  }

  async request(channel: RoutedChannel, upstreamModel: string): Promise<UpstreamCallShape> {
    const { call } = this.options;
    const format = target(channel);
    const withImages = format.needsInlineImages ? await this.withInlineImages() : this.hubRequest();
    const source = format.needsInlineDocuments ? await this.withInlineDocuments(withImages) : withImages;
    const { body, warnings } = format.hubToRequest({ ...source, stream: call.stream }, upstreamModel);
    this.warn(channel, warnings);
    if (this.options.warnings) this.changes.set(channel.id, warnings);
    return {
      path: operationPath(channel, call.stream ? format.chatOperations.stream : format.chatOperations.whole, upstreamModel),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      // Read from the body sent, not the client's: it is the upstream's real limit, and may be one the
      // channel's format added (Anthropic requires max_tokens; a chat client without one gets 4096).
      outputLimit: format.requestFacts.outputLimit(body) ?? null,
    };
  }

  whole(text: string, channel: RoutedChannel, _sent: UpstreamCallShape, attemptUsage: AttemptUsage): WholeAnswer {
    const { call, client } = this.options;
    this.answeredBy(channel);
    const hub = target(channel).responseToHub(JSON.parse(text));
    // What the upstream left unreported is counted, and the client is shown the usage it is billed by.
    const usage = attemptUsage.resolve(hub.usage, () => estimateHubResponseTokens(hub));
    const answer = client.hubToResponse({ ...hub, usage }, { requestModel: call.model, requestBody: call.body });
    return { body: JSON.stringify(answer), contentType: 'application/json', usage, reading: () => ({ finishReasons: [finishReasonName(hub.finishReason)], text: hub.content.map((part) => (part.type === 'text' ? part.text : '')).join('') }) };
  }

  error(channel: RoutedChannel, status: number, text: string, headers?: UpstreamErrorHeaders): GatewayError {
    return gatewayErrorFromUpstream(channel, status, text, headers);
  }

  stream(channel: RoutedChannel, _sent: UpstreamCallShape, usage: AttemptUsage): StreamConverter {
    const { options } = this;
    this.answeredBy(channel);
    const converter = hubStreamConverter({
      usage,
      upstream: target(channel),
      client: options.client,
      requestModel: options.call.model,
      includeUsage: this.hubRequest().streamIncludeUsage === true,
      requestBody: options.call.body,
      logger: options.logger,
      continuing: options.continuation !== undefined,
      ...(this.lastMachine ? { clientMachine: this.lastMachine } : {}),
    });
    this.lastMachine = converter.clientMachine;
    return converter;
  }

  continuation(deliveredText: string): RelayHop {
    const { options } = this;
    return new TranslatedChatHop({ ...options, continuation: { prefill: (options.continuation?.prefill ?? '') + deliveredText, clientMachine: this.lastMachine } });
  }
}

const target = (channel: RoutedChannel) => channel.chatFormat;

/** The request with the delivered text as a trailing assistant message for the upstream to continue. */
function withPrefill(request: HubRequest, prefill: string): HubRequest {
  return {
    ...request,
    messages: [...request.messages, { role: 'assistant', content: [{ type: 'text', text: prefill }] }],
    continuesLastMessage: true,
  };
}
