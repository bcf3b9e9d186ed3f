// Anthropic content blocks the hub has no part for, translated for other providers as well as they can be:
// search results and text documents become text, a document of content blocks becomes those blocks, and the
// blocks of Anthropic's server tools (web search, web fetch, code execution, …) become a text summary of
// what they found (the other provider can neither rerun nor verify them) or are left out with a warning.
// An Anthropic channel never sees this: same-format calls are forwarded as sent.
import { invalidRequest } from '../../gateway-errors.ts';
import type { HubImagePart, HubTextPart } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';

type Block = Record<string, unknown>;
type ImageReader = (block: Block, at: string) => HubImagePart;

const textsOf = (blocks: unknown): string =>
  (Array.isArray(blocks) ? blocks : [])
    .filter((block): block is { type: 'text'; text: string } => typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');

/** A search_result block as text: its title and source, then its text blocks. */
export function searchResultText(block: Block): HubTextPart {
  return { type: 'text', text: `${String(block.title ?? '')} (${String(block.source ?? '')})\n${textsOf(block.content)}` };
}

/**
 * A document block whose source is content blocks, as its text and images (there is no file to carry).
 * Null for sources that stay documents (PDF bytes and URLs, plain text).
 */
export function documentAsParts(block: Block, at: string, image: ImageReader): Array<HubTextPart | HubImagePart> | null {
  const source = (block.source ?? {}) as { type?: string; content?: unknown };
  if (source.type !== 'content') return null;
  if (typeof source.content === 'string') return [{ type: 'text', text: source.content }];
  return (Array.isArray(source.content) ? (source.content as Block[]) : []).map((inner, k) =>
    inner.type === 'image' ? image(inner, `${at}.source.content[${k}]`) : { type: 'text', text: String(inner.text ?? '') },
  );
}

/** A block inside a tool_result besides text and image, as parts a hub tool result can hold. */
export function toolResultInnerParts(block: Block, at: string, image: ImageReader, warnings: Warnings): Array<HubTextPart | HubImagePart> {
  if (block.type === 'search_result') return [searchResultText(block)];
  if (block.type === 'document') {
    // A tool result carries no documents: plain text goes in as text.
    const source = (block.source ?? {}) as { type?: string; data?: unknown };
    if (source.type === 'text') return [{ type: 'text', text: String(source.data ?? '') }];
    const parts = documentAsParts(block, at, image);
    if (parts) return parts;
    throw invalidRequest(`'${at}': a PDF document inside a tool result cannot be translated for this model's provider; send it as a document block of the user turn.`, at);
  }
  warnings.dropped(at, `'${String(block.type)}' blocks inside a tool result have no equivalent at this model's provider; left out.`);
  return [];
}

/** What a web search found, as `title: url` lines. */
function webSearchText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const lines = (content as Block[]).map((result) => `- ${String(result.title ?? '')}: ${String(result.url ?? '')}`);
  return `Web search results:\n${lines.join('\n')}`;
}

/** What a web fetch returned: the URL and the fetched document's text, when it is text. */
function webFetchText(content: unknown): string | null {
  const result = (content ?? {}) as Block;
  if (result.type !== 'web_fetch_result') return null;
  const document = (result.content ?? {}) as Block;
  const source = (document.source ?? {}) as { type?: string; data?: unknown };
  const text = source.type === 'text' ? `\n${String(source.data ?? '')}` : '';
  return `Fetched ${String(result.url ?? '')}${text}`;
}

/**
 * An assistant block of Anthropic's server tools as text for another provider, or null (left out, with a
 * warning): the tool's call itself, failed calls, and the results of tools whose output is not text.
 */
export function serverToolBlockText(block: Block, at: string, warnings: Warnings): HubTextPart | null {
  let text: string | null = null;
  if (block.type === 'web_search_tool_result') text = webSearchText(block.content);
  else if (block.type === 'web_fetch_tool_result') text = webFetchText(block.content);
  if (text !== null) return { type: 'text', text };
  warnings.dropped(at, `'${String(block.type)}' blocks belong to Anthropic's server tools and have no equivalent at this model's provider; left out.`);
  return null;
}

/** The assistant-side block types of Anthropic's server tools. */
export const SERVER_TOOL_BLOCK_TYPES: ReadonlySet<string> = new Set([
  'server_tool_use', 'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result',
  'bash_code_execution_tool_result', 'text_editor_code_execution_tool_result', 'tool_search_tool_result',
  'mcp_tool_use', 'mcp_tool_result', 'container_upload',
]);
