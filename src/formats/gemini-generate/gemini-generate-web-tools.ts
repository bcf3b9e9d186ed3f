// Gemini's own web tools ⇄ the hub's web tools: googleSearch (search grounding) serves a web search,
// urlContext a web fetch. Read into the hub so an Anthropic upstream can serve them with its server tools;
// written for a Gemini upstream when another client asked for them (Claude Code's web_search and web_fetch).
import type { HubRequest, HubWebTool } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';

/** The hub web tools a Gemini tool entry (without its functionDeclarations) turns on. */
export function geminiWebTools(tool: Record<string, unknown>): HubWebTool[] {
  const out: HubWebTool[] = [];
  if ('googleSearch' in tool || 'google_search' in tool || 'googleSearchRetrieval' in tool || 'google_search_retrieval' in tool) out.push('web-search');
  if ('urlContext' in tool || 'url_context' in tool) out.push('web-fetch');
  return out;
}

const BEFORE_GEMINI_3 = /^gemini-(?:1|2)(?:\.|-)/;

const GEMINI_WEB_TOOLS: Record<HubWebTool, Record<string, unknown>> = {
  'web-search': { googleSearch: {} },
  'web-fetch': { urlContext: {} },
};

/**
 * The Gemini tools for web tools another client asked for (a Gemini client's own are restored as sent). The
 * answer is grounded in what Google found; its grounding metadata comes back as the client's own search
 * results (gemini-generate-grounding.ts).
 */
export function geminiWebToolsToAdd(request: HubRequest, upstreamModel: string, warnings: Warnings): Record<string, unknown>[] {
  if (request.extensions['gemini-generate']?.server_tools || !request.webTools?.length) return [];
  // Gemini 3 combines its own tools with function calling in one request; earlier models refuse the mix.
  if (request.tools.length > 0 && BEFORE_GEMINI_3.test(upstreamModel.slice(upstreamModel.indexOf('/') + 1))) {
    warnings.dropped('tools', `${request.webTools.join(' and ')} left out: ${upstreamModel} cannot use Google's own tools together with function calling.`);
    return [];
  }
  return request.webTools.map((tool) => GEMINI_WEB_TOOLS[tool]);
}
