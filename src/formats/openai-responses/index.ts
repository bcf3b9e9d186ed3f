// OpenAI /v1/responses: every converter to and from the hub. Inbound, a Responses client is served from
// chat-type upstreams (Anthropic, Gemini, OpenAI chat); outbound, a Responses-only upstream can be used.
import { hubMachineWatcher } from '../shared/hub-machine-watcher.ts';
import { openaiResponsesRequestFacts } from './openai-responses-request-facts.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { fitResponsesRequestToModel } from './openai-responses-model-support.ts';
import { openaiModelEntry, openaiModelList } from '../openai-chat/openai-chat-models.ts';
import { openaiRefusalOf } from '../openai-chat/openai-chat-refusal.ts';
import { openaiResponsesUsageToHub } from './openai-responses-usage.ts';
import { hubErrorToOpenaiResponses, hubErrorToOpenaiResponsesStreamEvent, openaiResponsesErrorToHub } from './openai-responses-error.ts';
import { hubToOpenaiResponsesRequest, openaiResponsesRequestToHub } from './openai-responses-request.ts';
import { hubToOpenaiResponsesResponse, openaiResponsesResponseToHub } from './openai-responses-response.ts';
import {
  createHubToOpenaiResponsesStreamMachine,
  createOpenaiResponsesStreamToHubMachine,
  hubToOpenaiResponsesStream,
  openaiResponsesStreamToHub,
} from './openai-responses-stream.ts';

export { responseEnvelope } from './openai-responses-items.ts';

export const openaiResponsesFormat: FormatConverters = {
  fitToModel: fitResponsesRequestToModel,
  name: 'openai-responses',
  modelIn: 'body',
  needsInlineImages: false,
  clientKey: { header: 'authorization', bearer: true },
  // One endpoint whole and streamed: `stream` is a body field.
  chatOperations: { whole: 'responses', stream: 'responses' },
  apiFamily: 'openai',
  supportsPrefill: false,
  watch: (ctx) => hubMachineWatcher(openaiResponsesFormat, ctx),
  requestFacts: openaiResponsesRequestFacts,
  streamUsageOption: null,
  streamTerminator: null,
  modelList: openaiModelList,
  modelEntry: openaiModelEntry,
  // 16 is the smallest max_output_tokens the Responses API accepts.
  probeBody: (upstreamModel) => ({ model: upstreamModel, input: 'ping', max_output_tokens: 16 }),
  // The same envelope as OpenAI chat's, so the same reader.
  refusalOf: openaiRefusalOf,
  requestToHub: (body) => openaiResponsesRequestToHub(body),
  hubToRequest: hubToOpenaiResponsesRequest,
  responseToHub: (json) => openaiResponsesResponseToHub(json),
  hubToResponse: hubToOpenaiResponsesResponse,
  usageToHub: openaiResponsesUsageToHub,
  streamToHub: openaiResponsesStreamToHub,
  hubToStream: hubToOpenaiResponsesStream,
  streamToHubMachine: createOpenaiResponsesStreamToHubMachine,
  hubToStreamMachine: createHubToOpenaiResponsesStreamMachine,
  errorToHub: openaiResponsesErrorToHub,
  hubToError: hubErrorToOpenaiResponses,
  hubErrorToStreamEvent: (error) => hubErrorToOpenaiResponsesStreamEvent(error),
};
