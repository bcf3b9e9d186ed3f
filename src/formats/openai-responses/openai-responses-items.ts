// Output items and the Response envelope, shared by the whole response and the stream writer so both
// produce the same objects (the stream's response.completed equals the non-streamed answer). Item ids are
// derived from the response id and the output index: stable, unique within a response, and testable.
import type { HubUsage } from '../../hub/hub-response.ts';
import { sealReasoning, type ReasoningSeal } from './openai-responses-reasoning-seal.ts';
import type { ResponsesStatus } from './openai-responses-finish-reason.ts';
import { hubUsageToOpenaiResponses } from './openai-responses-usage.ts';
import { responseEchoFields } from './openai-responses-echo.ts';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export function responsesId(hubId: string): string {
  return hubId.startsWith('resp_') ? hubId : `resp_${hubId}`;
}

/** The part of a response id that item ids are built from: letters, digits and underscores only. */
export function itemIdBase(responseId: string): string {
  return responseId.replace(/^resp_/, '').replace(/[^A-Za-z0-9_]/g, '');
}

export const reasoningItemId = (base: string, outputIndex: number) => `rs_${base}_${outputIndex}`;
export const messageItemId = (base: string, outputIndex: number) => `msg_${base}_${outputIndex}`;

export const outputTextPart = (text: string, annotations: readonly Record<string, unknown>[] = []) => ({ type: 'output_text', annotations, logprobs: [], text });

export function messageItem(id: string, text: string | null, status: ItemStatus, annotations: readonly Record<string, unknown>[] = []): Record<string, unknown> {
  return { id, type: 'message', status, role: 'assistant', content: text === null ? [] : [outputTextPart(text, annotations)] };
}

export type { ReasoningSeal } from './openai-responses-reasoning-seal.ts';

/**
 * A reasoning item: its text as one summary part. A thinking signature (or a redacted block) rides in
 * encrypted_content, sealed with the gateway's key (openai-responses-reasoning-seal.ts); clients send it back
 * unchanged with the item and the input reader opens it.
 */
export function reasoningItem(id: string, summaryText: string, seal: ReasoningSeal = {}): Record<string, unknown> {
  const item: Record<string, unknown> = { id, type: 'reasoning', summary: summaryText === '' ? [] : [{ type: 'summary_text', text: summaryText }] };
  const sealed = sealReasoning(seal);
  if (sealed !== undefined) item.encrypted_content = sealed;
  return item;
}

interface EnvelopeInit {
  id: string;
  createdAt: number;
  model: string;
  status: 'in_progress' | 'failed' | ResponsesStatus['status'];
  incompleteDetails: ResponsesStatus['incomplete_details'];
  output: Record<string, unknown>[];
  usage: HubUsage | null;
  /** Why a failed response failed (response.failed); null otherwise. */
  error?: { code: string; message: string } | null;
  /** The client's request body: its settings are echoed, the API's defaults stand in for what it left out. */
  requestBody?: unknown;
}

/**
 * A whole Response object with every field of the Responses schema, `id` first (the relay reads it from the
 * head of the answer). The request's settings come from responseEchoFields.
 */
export function responseEnvelope(init: EnvelopeInit): Record<string, unknown> {
  const echo = responseEchoFields(init.requestBody);
  return {
    id: init.id,
    object: 'response',
    created_at: init.createdAt,
    status: init.status,
    completed_at: init.status === 'completed' ? init.createdAt : null,
    error: init.error ?? null,
    incomplete_details: init.incompleteDetails,
    ...echo.head,
    model: init.model,
    output: init.output,
    ...echo.tail,
    usage: init.usage ? hubUsageToOpenaiResponses(init.usage) : null,
  };
}
