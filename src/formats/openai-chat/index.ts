// OpenAI /v1/chat/completions: every converter to and from the hub.
import { openaiChatPrefillBody, openaiChatWatcher } from './openai-chat-watcher.ts';
import { openaiChatRequestFacts } from './openai-chat-request-facts.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { fitOpenAIChatRequestToModel } from './openai-chat-model-support.ts';
import { openaiModelEntry, openaiModelList } from './openai-chat-models.ts';
import { openaiRefusalOf } from './openai-chat-refusal.ts';
import { openaiChatReplayEvent } from './openai-chat-replay.ts';
import { openaiUsageToHub } from './openai-chat-usage.ts';
import { hubErrorToOpenaiChat, hubErrorToOpenaiStreamEvent, openaiErrorToHub } from './openai-chat-error.ts';
import { hubToOpenaiChatRequest, openaiChatRequestToHub } from './openai-chat-request.ts';
import { hubToOpenaiChatResponse, openaiChatResponseToHub } from './openai-chat-response.ts';
import {
  createHubToOpenaiChatStreamMachine,
  createOpenaiChatStreamToHubMachine,
  hubToOpenaiChatStream,
  openaiChatStreamToHub,
} from './openai-chat-stream.ts';
import { answerCount } from '../shared/answer-count.ts';


export const openaiChatFormat: FormatConverters = {
  fitToModel: fitOpenAIChatRequestToModel,
  name: 'openai-chat',
  modelIn: 'body',
  needsInlineImages: false,
  needsInlineDocuments: true,
  clientKey: { header: 'authorization', bearer: true },
  chatOperations: { whole: 'chat', stream: 'chat-stream' },
  apiFamily: 'openai',
  // Only some OpenAI-compatible servers continue a trailing assistant message (vLLM): a channel declares it.
  supportsPrefill: false,
  // `n` choices; the chat passthrough hop reads every choice when it counts an answer.
  severalAnswers: { param: 'n', asked: (body) => answerCount(body.n) },
  watch: openaiChatWatcher,
  prefillBody: openaiChatPrefillBody,
  requestFacts: openaiChatRequestFacts,
  streamUsageOption: { stream_options: { include_usage: true } },
  streamTerminator: '[DONE]',
  modelList: openaiModelList,
  modelEntry: openaiModelEntry,
  probeBody: (upstreamModel) => ({ model: upstreamModel, max_tokens: 8, messages: [{ role: 'user', content: 'ping' }] }),
  refusalOf: openaiRefusalOf,
  replayEvent: openaiChatReplayEvent,
  requestToHub: (body) => openaiChatRequestToHub(body),
  hubToRequest: hubToOpenaiChatRequest,
  responseToHub: (json) => openaiChatResponseToHub(json),
  hubToResponse: hubToOpenaiChatResponse,
  usageToHub: openaiUsageToHub,
  streamToHub: openaiChatStreamToHub,
  hubToStream: hubToOpenaiChatStream,
  streamToHubMachine: createOpenaiChatStreamToHubMachine,
  hubToStreamMachine: createHubToOpenaiChatStreamMachine,
  errorToHub: openaiErrorToHub,
  hubToError: hubErrorToOpenaiChat,
  hubErrorToStreamEvent: hubErrorToOpenaiStreamEvent,
};
