// Amazon Bedrock's Converse and ConverseStream: every converter to and from the hub. Upstream only (no
// client route): the gateway speaks it to `bedrock` channels. Its streams are binary AWS event streams,
// declared by `streamFraming` and decoded by the relay into one event per message.
import { hubMachineWatcher } from '../shared/hub-machine-watcher.ts';
import { bedrockConverseRequestFacts } from './bedrock-converse-request-facts.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { converseErrorToHub, hubErrorToConverse, hubErrorToConverseStreamEvent } from './bedrock-converse-error.ts';
import { converseRequestToHub, hubToConverseRequest } from './bedrock-converse-request.ts';
import { converseResponseToHub, hubToConverseResponse } from './bedrock-converse-response.ts';
import { converseStreamToHub, createConverseStreamToHubMachine, createHubToConverseStreamMachine, hubToConverseStream } from './bedrock-converse-stream.ts';
import { converseUsageToHub } from './bedrock-converse-usage.ts';
import { converseRefusalOf } from './bedrock-converse-refusal.ts';
import { openaiModelEntry, openaiModelList } from '../openai-chat/openai-chat-models.ts';


export const bedrockConverseFormat: FormatConverters = {
  name: 'bedrock-converse',
  modelIn: 'path',
  // Converse takes image bytes only.
  needsInlineImages: true,
  needsInlineDocuments: true,
  streamFraming: 'aws-event-stream',
  // Bedrock's own API keys are bearer tokens; no client route speaks Converse, so this only joins the set.
  clientKey: { header: 'authorization', bearer: true },
  chatOperations: { whole: 'chat', stream: 'chat-stream' },
  apiFamily: 'aws',
  // Only some models behind Converse continue a trailing assistant turn: a channel declares it.
  supportsPrefill: false,
  // ConverseStream always ends with a metadata event carrying usage, and has no terminator line.
  watch: (ctx) => hubMachineWatcher(bedrockConverseFormat, ctx),
  requestFacts: bedrockConverseRequestFacts,
  streamUsageOption: null,
  streamTerminator: null,
  // No client lists models in Converse's shape (upstream only): OpenAI's list shape, as the Responses format.
  modelList: openaiModelList,
  modelEntry: openaiModelEntry,
  probeBody: (upstreamModel) => hubToConverseRequest({
    model: upstreamModel, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }], tools: [],
    maxOutputTokens: 8, stopSequences: [], stream: false, extensions: {},
  }, upstreamModel).body as Record<string, unknown>,
  refusalOf: converseRefusalOf,
  requestToHub: converseRequestToHub,
  hubToRequest: hubToConverseRequest,
  responseToHub: converseResponseToHub,
  hubToResponse: hubToConverseResponse,
  usageToHub: converseUsageToHub,
  streamToHub: converseStreamToHub,
  hubToStream: hubToConverseStream,
  streamToHubMachine: createConverseStreamToHubMachine,
  hubToStreamMachine: createHubToConverseStreamMachine,
  errorToHub: converseErrorToHub,
  hubToError: hubErrorToConverse,
  hubErrorToStreamEvent: hubErrorToConverseStreamEvent,
};
