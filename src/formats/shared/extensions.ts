// The extensions bag: fields a format could not map travel with the request, keyed by their format. The
// same format puts them back; another format warns that they were left out.
import type { HubRequest } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import { isWebServerTool, serverToolName } from './server-tools.ts';

/** Fields of the target's own extensions that the converter did not set itself. */
export function restoreExtensions(body: Record<string, unknown>, request: HubRequest, format: string): void {
  const own = request.extensions[format];
  if (!own) return;
  for (const [key, value] of Object.entries(own)) if (!(key in body)) body[key] = value;
}

/**
 * Extension fields the gateway honours itself whatever the channel, so leaving them out of another
 * provider's request changes nothing the client asked for: a Responses client's `store` and `include` (the
 * gateway keeps the response and writes what include asks for) and `prompt_cache_key` (it keeps the
 * session on one channel: src/routing/session-affinity.ts).
 */
const HONOURED_BY_THE_GATEWAY: Partial<Record<string, ReadonlySet<string>>> = {
  'openai-responses': new Set(['store', 'include', 'prompt_cache_key']),
};

export function warnForeignExtensions(request: HubRequest, format: string, warnings: Warnings): void {
  for (const [source, fields] of Object.entries(request.extensions)) {
    if (source === format || !fields) continue;
    const honoured = HONOURED_BY_THE_GATEWAY[source];
    for (const [key, value] of Object.entries(fields)) {
      if (honoured?.has(key)) continue;
      if (key === 'server_tools' && Array.isArray(value)) warnServerTools(value, source, format, warnings);
      else warnings.dropped(key, `'${key}' from the ${source} request has no equivalent in ${format}; it was not sent.`);
    }
  }
}

/** Server tools by name; web tools are the hub's, served or named by the target itself (server-tools.ts). */
function warnServerTools(tools: unknown[], source: string, format: string, warnings: Warnings): void {
  for (const tool of tools) {
    if (isWebServerTool(tool)) continue;
    const name = serverToolName(tool);
    warnings.dropped(name, `removed: a server tool of the ${source} request, which ${format} has no equivalent of.`);
  }
}

/** Sets a field only when the value is defined, so bodies carry no `undefined` or `null` noise. */
export function setIfDefined(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined && value !== null) body[key] = value;
}
