// Anthropic's web server tools ⇄ the hub's web tools: `web_search_*` and `web_fetch_*` tools run at
// Anthropic. Read into the hub so a Gemini upstream can serve them with its own search and URL tools; written
// for an Anthropic upstream when another client asked for them (a Gemini client's googleSearch).
import type { HubRequest, HubWebTool } from '../../hub/hub-request.ts';

/** The hub web tool an Anthropic server tool type is, if any. */
export function anthropicWebTool(type: string): HubWebTool | undefined {
  if (type.startsWith('web_search_')) return 'web-search';
  if (type.startsWith('web_fetch_')) return 'web-fetch';
  return undefined;
}

const ANTHROPIC_WEB_TOOLS: Record<HubWebTool, Record<string, unknown>> = {
  'web-search': { type: 'web_search_20250305', name: 'web_search' },
  'web-fetch': { type: 'web_fetch_20250910', name: 'web_fetch' },
};

/** The Anthropic tools for web tools another client asked for (an Anthropic client's own are restored as sent). */
export function anthropicWebToolsToAdd(request: HubRequest): Record<string, unknown>[] {
  if (request.extensions['anthropic-messages']?.server_tools) return [];
  return (request.webTools ?? []).map((tool) => ANTHROPIC_WEB_TOOLS[tool]);
}
