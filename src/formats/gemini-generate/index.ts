// Gemini generateContent / streamGenerateContent: every converter to and from the hub.
import { hubMachineWatcher } from '../shared/hub-machine-watcher.ts';
import { geminiGenerateRequestFacts } from './gemini-generate-request-facts.ts';
import type { FormatConverters } from '../../hub/hub-format.ts';
import { fitGeminiRequestToModel } from './gemini-generate-model-support.ts';
import { geminiModelEntry, geminiModelList } from './gemini-generate-models.ts';
import { geminiCandidates } from './gemini-generate-candidates.ts';
import { geminiRefusalOf } from './gemini-generate-refusal.ts';
import { geminiReplayEvent } from './gemini-generate-replay.ts';
import { geminiUsageToHub } from './gemini-generate-usage.ts';
import { geminiErrorToHub, hubErrorToGeminiGenerate, hubErrorToGeminiStreamEvent } from './gemini-generate-error.ts';
import { geminiGenerateRequestToHub, hubToGeminiGenerateRequest } from './gemini-generate-request.ts';
import { geminiGenerateResponseToHub, hubToGeminiGenerateResponse } from './gemini-generate-response.ts';
import {
  createGeminiGenerateStreamToHubMachine,
  createHubToGeminiGenerateStreamMachine,
  geminiGenerateStreamToHub,
  hubToGeminiGenerateStream,
} from './gemini-generate-stream.ts';


export const geminiGenerateFormat: FormatConverters = {
  fitToModel: fitGeminiRequestToModel,
  name: 'gemini-generate',
  modelIn: 'path',
  needsInlineImages: true,
  needsInlineDocuments: true,
  clientKey: { header: 'x-goog-api-key', bearer: false, query: 'key' },
  chatOperations: { whole: 'chat', stream: 'chat-stream' },
  apiFamily: 'google',
  supportsPrefill: false,
  severalAnswers: geminiCandidates,
  watch: (ctx) => hubMachineWatcher(geminiGenerateFormat, ctx),
  requestFacts: geminiGenerateRequestFacts,
  streamUsageOption: null,
  streamTerminator: null,
  modelList: geminiModelList,
  modelEntry: geminiModelEntry,
  // The model is in the URL path, not the body.
  probeBody: () => ({ contents: [{ role: 'user', parts: [{ text: 'ping' }] }], generationConfig: { maxOutputTokens: 8 } }),
  refusalOf: geminiRefusalOf,
  replayEvent: geminiReplayEvent,
  requestToHub: geminiGenerateRequestToHub,
  hubToRequest: hubToGeminiGenerateRequest,
  responseToHub: geminiGenerateResponseToHub,
  hubToResponse: hubToGeminiGenerateResponse,
  usageToHub: geminiUsageToHub,
  streamToHub: geminiGenerateStreamToHub,
  hubToStream: hubToGeminiGenerateStream,
  streamToHubMachine: createGeminiGenerateStreamToHubMachine,
  hubToStreamMachine: createHubToGeminiGenerateStreamMachine,
  errorToHub: geminiErrorToHub,
  hubToError: hubErrorToGeminiGenerate,
  hubErrorToStreamEvent: hubErrorToGeminiStreamEvent,
};
