// Chat between different wire formats: the client's request (already in the hub) is written in the
// channel's format, and the answer, whole or streamed, is read back into the hub and written in the
// client's format. Warnings for what could not be carried are logged.
import type { Logger } from 'pino';
import type { FormatConverters } from '../../hub/hub-format.ts';
import type { HubRequest } from '../../hub/hub-request.ts';
import type { HubStreamPart, SseEvent, StreamMachine } from '../../hub/hub-stream.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import type { RelayCall } from '../relay-types.ts';
import type { RelayHop } from '../relay-hop.ts';
import { gatewayErrorFromUpstream, redactUpstreamError } from '../upstream-error.ts';
import { refusesCredential } from '../redact-credentials.ts';
import { hubStreamConverter } from './hub-stream-converter.ts';
import { getFormat } from '../../formats/index.ts';
import { collectDocumentUrls, collectImageUrls, inlineDocuments, inlineImages, type InlineImage } from '../../hub/hub-images.ts';
import { fetchDocuments, fetchImages } from '../../upstream/fetch-images.ts';
import { estimateHubResponseTokens, estimatePromptTokens } from '../../metering/estimate-tokens.ts';
import { resolveUsage } from '../../metering/resolve-usage.ts';

export interface TranslatedHopOptions {
  call: RelayCall;
  client: FormatConverters;
  /** The client's request in the hub; computed on first use, since a passthrough channel may answer first. */
  request: () => HubRequest;
  logger: Logger;
  imageFetchAllowPrivate: boolean;
  /** For a continuation: the text already delivered, and the client-side machine to keep writing into. */
  continuation?: { prefill: string; clientMachine: StreamMachine<HubStreamPart, SseEvent> | undefined };
}

export function translatedChatHop(options: TranslatedHopOptions): RelayHop {
  const { call, client, logger } = options;
  const target = (channel: RoutedChannel) => getFormat(channel.chatFormat);
  let memo: HubRequest | undefined;
  const hubRequest = () => (memo ??= options.continuation ? withPrefill(options.request(), options.continuation.prefill) : options.request());
  let lastMachine: StreamMachine<HubStreamPart, SseEvent> | undefined = options.continuation?.clientMachine;
  let inlined: Promise<HubRequest> | undefined;
  const withInlineImages = () => (inlined ??= (async () => {
    const request = hubRequest();
    const urls = collectImageUrls(request);
    return urls.length === 0 ? request : inlineImages(request, await fetchImages(urls, options.imageFetchAllowPrivate));
  })());
  // Document URLs (Responses input_file file_url) are fetched the same way for targets that need bytes,
  // once per call however many channels are tried.
  let documents: Promise<Map<string, InlineImage>> | undefined;
  const withInlineDocuments = async (request: HubRequest) => {
    const urls = collectDocumentUrls(request);
    if (urls.length === 0) return request;
    return inlineDocuments(request, await (documents ??= fetchDocuments(urls, options.imageFetchAllowPrivate)));
  };
  const warn = (channel: RoutedChannel, warnings: { feature: string; detail: string }[]) => {
    for (const warning of warnings) logger.warn({ requestId: call.requestId, channel: channel.name, feature: warning.feature, detail: warning.detail }, 'conversion dropped a feature');
  };
  return {
    supports: (channel) => channel.chatFormat !== client.name && supportsOperation(channel, target(channel).chatOperations.whole),
    async request(channel, upstreamModel) {
      const withImages = target(channel).needsInlineImages ? await withInlineImages() : hubRequest();
      const source = target(channel).needsInlineDocuments ? await withInlineDocuments(withImages) : withImages;
      const { body, warnings } = target(channel).hubToRequest({ ...source, stream: call.stream }, upstreamModel);
      warn(channel, warnings);
      return {
        path: operationPath(channel, call.stream ? target(channel).chatOperations.stream : target(channel).chatOperations.whole, upstreamModel),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
    },
    whole(text, channel) {
      const hub = target(channel).responseToHub(JSON.parse(text));
      // What the upstream left unreported is counted, and the client is shown the usage it is billed by.
      const usage = resolveUsage(hub.usage, { prompt: () => estimatePromptTokens(call.body), output: () => estimateHubResponseTokens(hub) });
      const answer = client.hubToResponse({ ...hub, usage }, { requestModel: call.model, requestBody: call.body });
      return { body: JSON.stringify(answer), contentType: 'application/json', usage };
    },
    error(channel, status, text, headers) {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the converter falls back to the text
      }
      const converted = target(channel).errorToHub(status, body, headers);
      // A refusal of the channel's own credentials is the gateway's problem, not the client's key; the
      // format's reading names the refusal when the body does not (Bedrock's InvalidSignatureException).
      if (status === 401 || status === 403 || refusesCredential(text)) return gatewayErrorFromUpstream(channel, status, text, converted.code);
      return redactUpstreamError(converted, channel.apiKeys);
    },
    stream(channel) {
      const converter = hubStreamConverter({
        upstream: target(channel),
        client,
        requestModel: call.model,
        includeUsage: hubRequest().streamIncludeUsage === true,
        requestBody: call.body,
        logger,
        continuing: options.continuation !== undefined,
        ...(lastMachine ? { clientMachine: lastMachine } : {}),
      });
      lastMachine = converter.clientMachine;
      return converter;
    },
    continuation(deliveredText) {
      return translatedChatHop({ ...options, continuation: { prefill: (options.continuation?.prefill ?? '') + deliveredText, clientMachine: lastMachine } });
    },
  };
}

/** The request with the delivered text as a trailing assistant message for the upstream to continue. */
function withPrefill(request: HubRequest, prefill: string): HubRequest {
  return {
    ...request,
    messages: [...request.messages, { role: 'assistant', content: [{ type: 'text', text: prefill }] }],
    continuesLastMessage: true,
  };
}
