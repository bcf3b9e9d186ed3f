// The canonical hub: types and pure helpers shared by every wire format. No I/O, no framework.
export type {
  HubAssistantContent,
  HubAssistantMessage,
  HubImagePart,
  HubImageSource,
  HubMessage,
  HubReasoningConfig,
  HubReasoningEffort,
  HubReasoningPart,
  HubRequest,
  HubResponseFormat,
  HubSystemMessage,
  HubTextPart,
  HubTool,
  HubToolCallPart,
  HubToolChoice,
  HubToolMessage,
  HubToolResultPart,
  HubUserContent,
  HubUserMessage,
} from './hub-request.ts';
export type { HubFinishReason, HubResponse, HubResponseContent, HubUnifiedFinishReason, HubUsage } from './hub-response.ts';
export { unreportedUsage } from './hub-response.ts';
export type { HubStreamPart, HubToStreamContext, SseEvent, StreamMachine, StreamToHubContext } from './hub-stream.ts';
export { machineToTransformStream, parseEventJson, defaultGenerateId } from './hub-stream.ts';
export type { HubWarning, WarningSink } from './hub-warnings.ts';
export { Warnings } from './hub-warnings.ts';
export type { InlineImage } from './hub-images.ts';
export { collectImageUrls, inlineImages, parseDataUrl } from './hub-images.ts';
export type { RenderedFormatError, UpstreamErrorInit } from './hub-errors.ts';
export { kindForStatus, upstreamStatusError, upstreamPayloadError } from './hub-errors.ts';
export { EFFORT_BUDGET_TOKENS, budgetForEffort, effortForBudget } from './hub-reasoning.ts';
export { toolNamesById } from './hub-tool-names.ts';
export { foldSystemMessages, systemMessageText } from './hub-system-messages.ts';
export { decodeToolCallId, encodeToolCallId } from './hub-tool-call-ids.ts';
export type { FormatConverters, HubToResponseContext, RequestToHubContext, ResponseToHubContext } from './hub-format.ts';
