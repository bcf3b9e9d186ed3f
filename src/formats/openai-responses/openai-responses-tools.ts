// Responses tools the client runs itself, as hub function tools, and the way back. Coding agents (Codex)
// send more than function tools:
// - `namespace`: a group of function/custom tools; flattened into one function per tool, named
//   `<namespace>__<name>`, and a call comes back as the inner name with its `namespace`.
// - `custom`: free-form input (Codex's apply_patch, a grammar or plain text); a function taking one string
//   argument `input`, and a call comes back as a custom_tool_call whose input is that string.
// - `local_shell` / `shell`: the client runs commands; a function with the action's fields, and a call
//   comes back as local_shell_call / shell_call.
// Hosted web search runs on OpenAI's servers: carried as the hub's web search, which Anthropic (its web_search
// server tool) and Gemini (search grounding) serve; other providers leave it out with a warning the client
// sees (x-gateway-warnings). Other hosted tools are refused with a 400 naming them. The mapping is a pure function of the request's
// tools, so the writers of answers (whole and streamed) rebuild it from the request body.
import { invalidRequest } from '../../gateway-errors.ts';
import type { HubTool } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import { parseAt } from './openai-responses-parts.ts';
import { responsesFunctionToolSchema } from './openai-responses-schema.ts';

/** What a hub tool name stands for on the client's side. */
export type ClientTool =
  | { kind: 'function'; name: string; namespace?: string }
  | { kind: 'custom'; name: string; namespace?: string }
  | { kind: 'local_shell' }
  | { kind: 'shell' };

export const qualifiedToolName = (namespace: string | undefined, name: string): string => (namespace ? `${namespace}__${name}` : name);

const HOSTED_SEARCH = /^web_search/;

interface ReadTools {
  tools: HubTool[];
  byHubName: Map<string, ClientTool>;
  /** Whether a hosted web search tool was asked for. */
  webSearch: boolean;
}

const objectSchema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

function customInputDescription(format: unknown): string {
  const f = format as { type?: unknown; syntax?: unknown; definition?: unknown } | null | undefined;
  if (f?.type === 'grammar' && typeof f.definition === 'string') {
    return `The tool's whole input as raw text, exactly in this ${typeof f.syntax === 'string' ? f.syntax : ''} grammar (not JSON-encoded inside):\n${f.definition}`;
  }
  return "The tool's whole input as free-form text.";
}

function functionTool(raw: Record<string, unknown>, at: string, namespace: string | undefined): HubTool {
  const tool = parseAt(responsesFunctionToolSchema, raw, at);
  return {
    name: qualifiedToolName(namespace, tool.name),
    ...(tool.description != null ? { description: tool.description } : {}),
    parameters: tool.parameters ?? { type: 'object', properties: {} },
    ...(tool.strict != null ? { strict: tool.strict } : {}),
  };
}

function customTool(raw: Record<string, unknown>, at: string, namespace: string | undefined): HubTool {
  if (typeof raw.name !== 'string' || raw.name === '') throw invalidRequest(`Invalid value for '${at}.name': a custom tool needs a name.`, `${at}.name`);
  return {
    name: qualifiedToolName(namespace, raw.name),
    ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    parameters: objectSchema({ input: { type: 'string', description: customInputDescription(raw.format) } }, ['input']),
  };
}

const LOCAL_SHELL_TOOL: HubTool = {
  name: 'local_shell',
  description: "Runs a command on the user's machine and returns its output.",
  parameters: objectSchema({
    command: { type: 'array', items: { type: 'string' }, description: 'The program and its arguments, e.g. ["bash", "-lc", "ls"].' },
    working_directory: { type: 'string' },
    timeout_ms: { type: 'integer' },
  }, ['command']),
};

const SHELL_TOOL: HubTool = {
  name: 'shell',
  description: "Runs shell commands on the user's machine and returns their output.",
  parameters: objectSchema({
    commands: { type: 'array', items: { type: 'string' }, description: 'Shell commands to run in order.' },
    timeout_ms: { type: 'integer' },
    max_output_length: { type: 'integer' },
  }, ['commands']),
};

function readTools(tools: readonly Record<string, unknown>[] | null | undefined, warnings: Warnings | null): ReadTools {
  let webSearch = false;
  const out: HubTool[] = [];
  const byHubName = new Map<string, ClientTool>();
  const add = (tool: HubTool, client: ClientTool) => {
    out.push(tool);
    byHubName.set(tool.name, client);
  };
  (tools ?? []).forEach((raw, i) => {
    const at = `tools[${i}]`;
    const type = String(raw.type);
    if (type === 'function') add(functionTool(raw, at, undefined), { kind: 'function', name: String(raw.name) });
    else if (type === 'custom') add(customTool(raw, at, undefined), { kind: 'custom', name: String(raw.name) });
    else if (type === 'namespace') {
      const namespace = typeof raw.name === 'string' && raw.name !== '' ? raw.name : null;
      if (namespace === null || !Array.isArray(raw.tools)) throw invalidRequest(`Invalid value for '${at}': a namespace tool needs a name and a list of tools.`, at);
      (raw.tools as Record<string, unknown>[]).forEach((inner, j) => {
        const innerAt = `${at}.tools[${j}]`;
        if (inner?.type === 'function') add(functionTool(inner, innerAt, namespace), { kind: 'function', name: String(inner.name), namespace });
        else if (inner?.type === 'custom') add(customTool(inner, innerAt, namespace), { kind: 'custom', name: String(inner.name), namespace });
        else throw invalidRequest(`Invalid value for '${innerAt}.type': a namespace holds function and custom tools only.`, `${innerAt}.type`);
      });
    } else if (type === 'local_shell') add(LOCAL_SHELL_TOOL, { kind: 'local_shell' });
    else if (type === 'shell') add(SHELL_TOOL, { kind: 'shell' });
    else if (HOSTED_SEARCH.test(type)) {
      webSearch = true;
      // Its settings (allowed domains, user location, context size) are OpenAI's own.
      const settings = Object.keys(raw).filter((key) => key !== 'type' && raw[key] !== null && raw[key] !== undefined);
      if (settings.length > 0) warnings?.dropped(`${at}.${settings[0]}`, `the settings of '${type}' (${settings.join(', ')}) are OpenAI's; another provider's search runs with its own.`);
    } else {
      throw invalidRequest(
        `Invalid value for '${at}.type': '${type}' tools run on OpenAI's servers and cannot be served by this model's provider; function, custom, namespace and shell tools can.`,
        `${at}.type`,
      );
    }
  });
  return { tools: out, byHubName, webSearch };
}

/** The request's tools as hub tools, and whether it asked for hosted web search. */
export function responsesToolsToHub(tools: readonly Record<string, unknown>[] | null | undefined, warnings: Warnings): { tools: HubTool[]; webSearch: boolean } {
  const read = readTools(tools, warnings);
  return { tools: read.tools, webSearch: read.webSearch };
}

const maps = new WeakMap<object, Map<string, ClientTool>>();

/** Hub tool name → client tool, from the client's request body (memoised per body). */
export function clientToolsOf(requestBody: unknown): Map<string, ClientTool> {
  if (requestBody === null || typeof requestBody !== 'object') return new Map();
  let map = maps.get(requestBody);
  if (!map) {
    const tools = (requestBody as { tools?: unknown }).tools;
    try {
      map = readTools(Array.isArray(tools) ? (tools as Record<string, unknown>[]) : [], null).byHubName;
    } catch {
      map = new Map();
    }
    maps.set(requestBody, map);
  }
  return map;
}
