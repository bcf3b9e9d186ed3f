// Tools a provider runs on its own servers (Anthropic's server tools, Gemini's googleSearch and the like),
// as a translation to another provider tells the client it left them out. Web search and web fetch are in
// the hub (HubRequest.webTools) and served by every target that has them; each target without them names
// them with warnUnservedWebTools, so the client reads the tool's name, not the extension's.
import type { HubRequest, HubWebTool } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';

/** The server tools that are the hub's web tools, in each format's own spelling. */
const WEB_TOOL = /^(?:web_search|web_fetch)|^(?:googleSearch|google_search|googleSearchRetrieval|google_search_retrieval|urlContext|url_context)$/;

const WEB_TOOL_NAMES: Record<HubWebTool, string> = { 'web-search': 'web_search', 'web-fetch': 'web_fetch' };

/** A server tool's name: Anthropic's `type`, else the single key of a Gemini tool entry. */
export function serverToolName(tool: unknown): string {
  if (tool === null || typeof tool !== 'object') return String(tool);
  const type = (tool as { type?: unknown }).type;
  return typeof type === 'string' ? type : Object.keys(tool).join('+');
}

/** Whether a server tool is a web search or fetch, which the hub carries as a web tool. */
export const isWebServerTool = (tool: unknown): boolean => WEB_TOOL.test(serverToolName(tool));

/** For a target without web tools: each web tool the client asked for is named as removed. */
export function warnUnservedWebTools(request: HubRequest, warnings: Warnings, target: string): void {
  for (const tool of request.webTools ?? []) {
    warnings.dropped(WEB_TOOL_NAMES[tool], `removed: the provider runs this tool on its own servers, and ${target} has no ${tool === 'web-search' ? 'search' : 'fetch'} tool the gateway serves it with.`);
  }
}
