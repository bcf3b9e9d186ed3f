// Anthropic's hosted web search and web fetch in an answer ⇄ the hub's server-tool parts and citations:
// - `server_tool_use` (name web_search, input {query}) ⇄ a server-tool-call part;
// - `web_search_tool_result` (content: web_search_result blocks, or a web_search_tool_result_error) ⇄ a
//   server-tool-result part;
// - a text block's `citations` of type web_search_result_location ⇄ the text part's citations (a citation
//   covers its whole block).
// Written for an Anthropic client whose request another provider searched for (Gemini's grounding): blocks
// Anthropic itself would send, with empty encrypted fields (they only matter to Anthropic, which never
// gets them back: the gateway leaves server-tool blocks out of a request to another provider, and an
// Anthropic channel would refuse the empty ones only if the conversation moved there).
// A fetch another provider made (Gemini's urlContext) is written as Anthropic's web_fetch blocks:
// `server_tool_use` (name web_fetch, input {url}) and a `web_fetch_tool_result` holding a `web_fetch_result`
// whose document is empty text (Gemini tells which page it read and whether it could, never the page's
// text), or a `web_fetch_tool_result_error` with the closest of Anthropic's error codes.
import type { HubCitation, HubTextPart } from '../../hub/hub-request.ts';
import type { HubServerToolCallPart, HubServerToolResultPart } from '../../hub/hub-response.ts';

type Block = Record<string, unknown>;

const SERVER_TOOL_NAMES = { web_search: 'web-search', web_fetch: 'web-fetch' } as const;

/** A server_tool_use block as a hub call part; undefined for server tools the hub has no form of. */
export function anthropicServerToolCallToHub(block: Block): HubServerToolCallPart | undefined {
  const tool = SERVER_TOOL_NAMES[block.name as keyof typeof SERVER_TOOL_NAMES];
  if (tool !== 'web-search') return undefined;
  const query = (block.input as { query?: unknown } | null | undefined)?.query;
  return { type: 'server-tool-call', id: String(block.id), tool, queries: typeof query === 'string' ? [query] : [] };
}

/** A web_search_tool_result block as a hub result part. */
export function anthropicWebSearchResultToHub(block: Block): HubServerToolResultPart {
  const content = block.content;
  const part: HubServerToolResultPart = { type: 'server-tool-result', callId: String(block.tool_use_id), tool: 'web-search', sources: [] };
  if (Array.isArray(content)) {
    for (const result of content as Block[]) {
      if (typeof result?.url !== 'string') continue;
      part.sources.push({
        url: result.url,
        ...(typeof result.title === 'string' ? { title: result.title } : {}),
        ...(typeof result.page_age === 'string' ? { pageAge: result.page_age } : {}),
      });
    }
  } else if (content && typeof content === 'object' && typeof (content as Block).error_code === 'string') part.errorCode = String((content as Block).error_code);
  return part;
}

/** A citation Anthropic puts on a text block, when it is a web page's. */
export function anthropicCitationToHub(citation: unknown): HubCitation | undefined {
  const c = citation as Block | null | undefined;
  if (c?.type !== 'web_search_result_location' || typeof c.url !== 'string') return undefined;
  return { url: c.url, ...(typeof c.title === 'string' ? { title: c.title } : {}), ...(typeof c.cited_text === 'string' ? { citedText: c.cited_text } : {}) };
}

export function anthropicCitationsToHub(list: unknown): HubCitation[] {
  if (!Array.isArray(list)) return [];
  return list.map(anthropicCitationToHub).filter((c): c is HubCitation => c !== undefined);
}

/** A web_search_result_location citation for a hub citation of `text`. */
export function hubCitationToAnthropic(citation: HubCitation, text: string): Block {
  return {
    type: 'web_search_result_location',
    url: citation.url,
    title: citation.title ?? null,
    cited_text: citation.citedText ?? text.slice(citation.startIndex ?? 0, citation.endIndex ?? text.length),
    encrypted_index: '',
  };
}

/**
 * A cited hub text part as Anthropic text blocks: Anthropic puts citations on whole blocks, so a text whose
 * citations name spans (Gemini's grounding supports) is cut into blocks at their edges.
 */
export function hubTextToAnthropicBlocks(part: HubTextPart): Block[] {
  const citations = part.citations ?? [];
  if (citations.length === 0) return [{ type: 'text', text: part.text }];
  const text = part.text;
  const spans = citations.map((c) => ({ c, start: Math.max(0, c.startIndex ?? 0), end: Math.min(text.length, c.endIndex ?? text.length) })).sort((a, b) => a.start - b.start || a.end - b.end);
  const blocks: Block[] = [];
  let at = 0;
  let current: { start: number; end: number; citations: Block[] } | null = null;
  const flush = () => {
    if (!current) return;
    blocks.push({ type: 'text', text: text.slice(current.start, current.end), citations: current.citations });
    at = current.end;
    current = null;
  };
  for (const span of spans) {
    // A span that starts inside the current block (the same sentence, or an overlap) joins it.
    if (current && span.start < current.end) {
      current.citations.push(hubCitationToAnthropic(span.c, text));
      current.end = Math.max(current.end, span.end);
      continue;
    }
    flush();
    if (span.start > at) blocks.push({ type: 'text', text: text.slice(at, span.start) });
    current = { start: Math.max(span.start, at), end: Math.max(span.end, at), citations: [hubCitationToAnthropic(span.c, text)] };
  }
  flush();
  if (at < text.length) blocks.push({ type: 'text', text: text.slice(at) });
  return blocks.filter((block) => block.text !== '' || block.citations !== undefined);
}

export function hubServerToolCallToAnthropic(part: HubServerToolCallPart): Block {
  if (part.tool === 'web-fetch') return { type: 'server_tool_use', id: anthropicServerToolId(part.id), name: 'web_fetch', input: { url: part.url ?? '' } };
  return { type: 'server_tool_use', id: anthropicServerToolId(part.id), name: 'web_search', input: { query: part.queries.join(' | ') } };
}

/** The error codes of a web_fetch_tool_result_error (the SDK's WebFetchToolResultErrorCode). */
const WEB_FETCH_ERRORS: ReadonlySet<string> = new Set([
  'invalid_tool_input', 'url_too_long', 'url_not_allowed', 'url_not_in_prior_context', 'url_not_accessible',
  'unsupported_content_type', 'too_many_requests', 'max_uses_exceeded', 'unavailable', 'content_too_large',
]);

function hubWebFetchResultToAnthropic(part: HubServerToolResultPart): Block {
  const url = part.sources[0]?.url ?? '';
  return {
    type: 'web_fetch_tool_result',
    tool_use_id: anthropicServerToolId(part.callId),
    content: part.errorCode !== undefined
      ? { type: 'web_fetch_tool_result_error', error_code: WEB_FETCH_ERRORS.has(part.errorCode) ? part.errorCode : 'unavailable' }
      : { type: 'web_fetch_result', url, retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '' }, title: part.sources[0]?.title ?? null, citations: null } },
  };
}

export function hubServerToolResultToAnthropic(part: HubServerToolResultPart): Block {
  if (part.tool === 'web-fetch') return hubWebFetchResultToAnthropic(part);
  return {
    type: 'web_search_tool_result',
    tool_use_id: anthropicServerToolId(part.callId),
    content: part.errorCode !== undefined
      ? { type: 'web_search_tool_result_error', error_code: part.errorCode }
      : part.sources.map((source) => ({ type: 'web_search_result', url: source.url, title: source.title ?? source.url, encrypted_content: '', page_age: source.pageAge ?? null })),
  };
}

/** Anthropic's server tool ids start with srvtoolu_. */
const anthropicServerToolId = (id: string): string => (id.startsWith('srvtoolu_') ? id : `srvtoolu_${id.replace(/[^A-Za-z0-9_]/g, '')}`);
