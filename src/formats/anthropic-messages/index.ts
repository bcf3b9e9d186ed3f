// Anthropic /v1/messages: every converter to and from the hub.
import { hubMachineWatcher } from '../shared/hub-machine-watcher.ts';
import { anthropicMessagesRequestFacts } from './anthropic-messages-request-facts.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { fitAnthropicRequestToModel } from './anthropic-messages-model-support.ts';
import { anthropicModelEntry, anthropicModelList } from './anthropic-messages-models.ts';
import { anthropicRefusalOf } from './anthropic-messages-refusal.ts';
import { anthropicReplayEvent } from './anthropic-messages-replay.ts';
import { anthropicStreamCloser } from './anthropic-messages-stream-closer.ts';
import { anthropicUsageToHub } from './anthropic-messages-usage.ts';
import { anthropicErrorToHub, hubErrorToAnthropicMessages, hubErrorToAnthropicStreamEvent } from './anthropic-messages-error.ts';
import { anthropicMessagesRequestToHub, hubToAnthropicMessagesRequest } from './anthropic-messages-request.ts';
import { anthropicMessagesResponseToHub, hubToAnthropicMessagesResponse } from './anthropic-messages-response.ts';
import {
  anthropicMessagesStreamToHub,
  createAnthropicMessagesStreamToHubMachine,
  createHubToAnthropicMessagesStreamMachine,
  hubToAnthropicMessagesStream,
} from './anthropic-messages-stream.ts';


export const anthropicMessagesFormat: FormatConverters = {
  fitToModel: fitAnthropicRequestToModel,
  name: 'anthropic-messages',
  modelIn: 'body',
  needsInlineImages: false,
  clientKey: { header: 'x-api-key', bearer: false },
  chatOperations: { whole: 'chat', stream: 'chat-stream' },
  apiFamily: 'anthropic',
  // Anthropic continues a trailing assistant message natively.
  supportsPrefill: true,
  watch: (ctx) => hubMachineWatcher(anthropicMessagesFormat, ctx),
  requestFacts: anthropicMessagesRequestFacts,
  streamUsageOption: null,
  streamTerminator: null,
  modelList: anthropicModelList,
  modelEntry: anthropicModelEntry,
  probeBody: (upstreamModel) => ({ model: upstreamModel, max_tokens: 8, messages: [{ role: 'user', content: 'ping' }] }),
  refusalOf: anthropicRefusalOf,
  replayEvent: anthropicReplayEvent,
  streamCloser: anthropicStreamCloser,
  requestToHub: (body) => anthropicMessagesRequestToHub(body),
  hubToRequest: hubToAnthropicMessagesRequest,
  responseToHub: (json) => anthropicMessagesResponseToHub(json),
  hubToResponse: hubToAnthropicMessagesResponse,
  usageToHub: anthropicUsageToHub,
  streamToHub: anthropicMessagesStreamToHub,
  hubToStream: hubToAnthropicMessagesStream,
  streamToHubMachine: createAnthropicMessagesStreamToHubMachine,
  hubToStreamMachine: createHubToAnthropicMessagesStreamMachine,
  errorToHub: anthropicErrorToHub,
  hubToError: hubErrorToAnthropicMessages,
  hubErrorToStreamEvent: hubErrorToAnthropicStreamEvent,
};
