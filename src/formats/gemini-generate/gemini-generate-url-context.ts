// Gemini's URL context (a candidate's `urlContextMetadata`, from the urlContext tool) as the hub's hosted web
// fetch: each URL Gemini read (urlMetadata[].retrievedUrl) is a server-tool call and its result, so an
// Anthropic client gets the web_fetch blocks Claude Code expects. Gemini tells which pages it read and how
// the retrieval went (urlRetrievalStatus), never their text: the result carries the URL only. A fetch costs
// nothing apart: Google bills the pages' text as input tokens (usageMetadata.toolUsePromptTokenCount, read
// into the input by gemini-generate-usage.ts), as Anthropic bills its own web fetch.
import type { HubServerToolCallPart, HubServerToolResultPart } from '../../hub/hub-response.ts';

type Obj = Record<string, unknown>;
const asObject = (value: unknown): Obj | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Obj : undefined);

/** Gemini's failed retrievals in the hub's vocabulary of fetch errors (Anthropic's error codes). */
const FETCH_ERRORS: Record<string, string> = {
  URL_RETRIEVAL_STATUS_ERROR: 'url_not_accessible',
  URL_RETRIEVAL_STATUS_PAYWALL: 'url_not_accessible',
  URL_RETRIEVAL_STATUS_UNSAFE: 'url_not_allowed',
};

/** The fetches of one candidate, a call and its result per URL; empty when it read none. */
export function geminiUrlContextToHub(metadata: unknown, newCallId: () => string): (HubServerToolCallPart | HubServerToolResultPart)[] {
  const list = asObject(metadata)?.urlMetadata;
  if (!Array.isArray(list)) return [];
  const parts: (HubServerToolCallPart | HubServerToolResultPart)[] = [];
  for (const entry of list) {
    const url = asObject(entry)?.retrievedUrl;
    if (typeof url !== 'string') continue;
    const status = asObject(entry)?.urlRetrievalStatus;
    const id = newCallId();
    parts.push({ type: 'server-tool-call', id, tool: 'web-fetch', queries: [], url });
    const result: HubServerToolResultPart = { type: 'server-tool-result', callId: id, tool: 'web-fetch', sources: [{ url }] };
    // Success, and an unspecified status (a retrieval Gemini did not judge), are a page read.
    if (typeof status === 'string' && status !== 'URL_RETRIEVAL_STATUS_SUCCESS' && status !== 'URL_RETRIEVAL_STATUS_UNSPECIFIED') {
      result.errorCode = FETCH_ERRORS[status] ?? 'unavailable';
    }
    parts.push(result);
  }
  return parts;
}

/** How many pages the parts read (each a call). */
export const fetchCount = (parts: readonly { type: string }[]): number => parts.filter((part) => part.type === 'server-tool-call').length;
