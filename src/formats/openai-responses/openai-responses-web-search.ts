// Another provider's hosted web search (Anthropic's web_search server tool, Gemini's search grounding) as
// the Responses API shows OpenAI's own: a `web_search_call` output item (action `search` with its query and
// the sources found) and `url_citation` annotations on the answer's output_text. A hosted web fetch (Gemini's
// urlContext) is the same item with action `open_page`.
import type { HubCitation } from '../../hub/hub-request.ts';
import type { HubServerToolCallPart, HubWebSource } from '../../hub/hub-response.ts';

export const webSearchItemId = (base: string, outputIndex: number) => `ws_${base}_${outputIndex}`;

type WebSearchStatus = 'in_progress' | 'searching' | 'completed' | 'failed';

export function webSearchCallItem(id: string, call: Pick<HubServerToolCallPart, 'queries' | 'url'>, sources: readonly HubWebSource[], status: WebSearchStatus): Record<string, unknown> {
  if (call.url !== undefined) return { id, type: 'web_search_call', status, action: { type: 'open_page', url: call.url } };
  const [query = '', ...more] = call.queries;
  return {
    id,
    type: 'web_search_call',
    status,
    action: { type: 'search', query, ...(more.length > 0 ? { queries: call.queries } : {}), sources: sources.map((source) => ({ type: 'url', url: source.url })) },
  };
}

/** A url_citation annotation; the citation's span is shifted by where its text part starts in the message. */
export function urlCitation(citation: HubCitation, offset: number, partLength: number): Record<string, unknown> {
  return {
    type: 'url_citation',
    start_index: offset + (citation.startIndex ?? 0),
    end_index: offset + (citation.endIndex ?? partLength),
    title: citation.title ?? citation.url,
    url: citation.url,
  };
}
