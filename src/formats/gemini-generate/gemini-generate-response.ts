// Gemini GenerateContentResponse ⇄ the hub response. Only the first candidate is read.
import { upstreamPayloadError } from '../../hub/hub-errors.ts';
import type { HubToResponseContext, ResponseToHubContext } from '../../hub/hub-format.ts';
import type { HubResponse, HubResponseContent } from '../../hub/hub-response.ts';
import { defaultGenerateId } from '../../hub/hub-stream.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { hubFinishReasonToGemini, mapGeminiFinishReason } from './gemini-generate-finish-reason.ts';
import { geminiResponseSchema, type GeminiPart } from './gemini-generate-schema.ts';
import { geminiUsageToHub, hubUsageToGemini } from './gemini-generate-usage.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';
import { geminiGroundingToHub } from './gemini-generate-grounding.ts';
import { fetchCount, geminiUrlContextToHub } from './gemini-generate-url-context.ts';
import type { HubTextPart } from '../../hub/hub-request.ts';

/** One response part as hub content; Gemini names no call ids, so missing ones are generated. */
function geminiPartToHub(part: GeminiPart, generateId: () => string): HubResponseContent | undefined {
  if (part.functionCall) {
    return {
      type: 'tool-call',
      id: part.functionCall.id ?? generateId(),
      name: part.functionCall.name,
      argumentsJson: JSON.stringify(part.functionCall.args ?? {}),
      ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
    };
  }
  if (part.text === undefined) return undefined;
  if (part.thought) return { type: 'reasoning', text: part.text, ...(part.thoughtSignature ? { signature: part.thoughtSignature, signatureFamily: 'google' } : {}) };
  return { type: 'text', text: part.text };
}

export function geminiGenerateResponseToHub(json: unknown, ctx: ResponseToHubContext = {}): HubResponse {
  const parsed = geminiResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamPayloadError('Gemini', `${issue ? formatPath(issue.path) : ''} ${issue?.message ?? ''}`.trim());
  }
  const response = parsed.data;
  const generateId = ctx.generateId ?? (() => defaultGenerateId());
  const candidate = response.candidates?.[0];
  const content: HubResponseContent[] = [];
  for (const part of candidate?.content?.parts ?? []) {
    const hub = geminiPartToHub(part, generateId);
    if (hub) content.push(hub);
  }
  // Search grounding: the search as a hosted tool's call and result before the answer, its supports as
  // citations on the answer's first text part (Gemini answers a grounded question in one).
  const firstText = content.find((part): part is HubTextPart => part.type === 'text');
  const grounding = geminiGroundingToHub((candidate as { groundingMetadata?: unknown } | undefined)?.groundingMetadata, firstText?.text ?? '', generateId);
  // URL context: each page read as a hosted fetch's call and result, before the answer (after the search).
  const fetches = geminiUrlContextToHub((candidate as { urlContextMetadata?: unknown } | undefined)?.urlContextMetadata, generateId);
  content.unshift(...fetches);
  if (grounding) {
    if (firstText && grounding.citations.length > 0) firstText.citations = grounding.citations;
    content.unshift(grounding.call, grounding.result);
  }
  // A prompt blocked before generation has no candidate, only promptFeedback.blockReason.
  const blocked = !candidate && response.promptFeedback?.blockReason;
  const usage = geminiUsageToHub(response.usageMetadata);
  if (grounding) usage.webSearches = grounding.searches;
  if (fetches.length > 0) usage.webFetches = fetchCount(fetches);
  return {
    id: response.responseId ?? generateId(),
    model: response.modelVersion ?? '',
    content,
    finishReason: blocked
      ? { unified: 'content-filter', raw: response.promptFeedback?.blockReason ?? null }
      : mapGeminiFinishReason(candidate?.finishReason, content.some((p) => p.type === 'tool-call')),
    usage,
  };
}

function hubContentToGemini(part: HubResponseContent): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'reasoning':
      if (part.redactedData !== undefined) return undefined;
      return { text: part.text, thought: true, ...(part.signature ? { thoughtSignature: signatureForClient(part.signature, part.signatureFamily, 'google') } : {}) };
    case 'tool-call': {
      let args: unknown = {};
      try {
        args = part.argumentsJson.trim() === '' ? {} : JSON.parse(part.argumentsJson);
      } catch {
        args = { _raw_arguments: part.argumentsJson };
      }
      return { functionCall: { id: part.id, name: part.name, args }, ...(part.signature ? { thoughtSignature: part.signature } : {}) };
    }
  }
}

export function hubToGeminiGenerateResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown> {
  const parts = response.content.map(hubContentToGemini).filter((p): p is Record<string, unknown> => p !== undefined);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: hubFinishReasonToGemini(response.finishReason), index: 0 }],
    usageMetadata: hubUsageToGemini(response.usage),
    modelVersion: ctx.requestModel,
    responseId: response.id,
  };
}
