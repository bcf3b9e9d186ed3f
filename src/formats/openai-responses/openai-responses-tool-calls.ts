// Calls of the client's own tools, both ways: a hub tool call written as the item its tool's kind has on
// the Responses wire (function_call with its namespace, custom_tool_call, local_shell_call, shell_call), and
// those items (and their outputs) read back from the history into hub calls and results.
import { invalidRequest } from '../../gateway-errors.ts';
import type { HubToolCallPart, HubToolResultPart } from '../../hub/hub-request.ts';
import { decodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import type { ItemStatus } from './openai-responses-items.ts';
import { qualifiedToolName, type ClientTool } from './openai-responses-tools.ts';

const ITEM_PREFIX: Record<ClientTool['kind'], string> = { function: 'fc', custom: 'ctc', local_shell: 'lsh', shell: 'sh' };

export const toolCallItemId = (tool: ClientTool | undefined, base: string, outputIndex: number) => `${ITEM_PREFIX[tool?.kind ?? 'function']}_${base}_${outputIndex}`;

function parsedArguments(args: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(args);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A custom tool's raw input: the `input` string the model filled, or its arguments as they came when it did not. */
export function customToolInput(args: string): string {
  const parsed = parsedArguments(args);
  return typeof parsed?.input === 'string' ? parsed.input : args;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Reads a custom tool's input as its JSON arguments (`{"input": "…"}`) stream in: each call to more() takes
 * the arguments so far and returns the input text decoded since the last call, so the client gets
 * custom_tool_call_input.delta events as the upstream writes. Arguments of another shape give nothing
 * here; the whole input then goes out when the call ends.
 */
export class CustomInputReader {
  private at = -1;
  private ended = false;
  /** The input text handed out so far. */
  text = '';

  more(args: string): string {
    if (this.ended) return '';
    if (this.at < 0) {
      const start = /^\s*\{\s*"input"\s*:\s*"/.exec(args);
      if (!start) return '';
      this.at = start[0].length;
    }
    let out = '';
    while (this.at < args.length) {
      const c = args[this.at]!;
      if (c === '"') {
        this.ended = true;
        break;
      }
      if (c !== '\\') {
        out += c;
        this.at++;
        continue;
      }
      const next = args[this.at + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = args.slice(this.at + 2, this.at + 6);
        if (hex.length < 4) break;
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
      } else {
        out += ESCAPES[next] ?? next;
        this.at += 2;
      }
    }
    this.text += out;
    return out;
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []);
const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The output item for a call of the hub tool `hubName` (arguments `args`, as far as they have come). */
export function clientToolCallItem(tool: ClientTool | undefined, id: string, callId: string, hubName: string, args: string, status: ItemStatus): Record<string, unknown> {
  switch (tool?.kind) {
    case 'custom':
      return { id, type: 'custom_tool_call', status, call_id: callId, name: tool.name, input: args === '' ? '' : customToolInput(args), ...(tool.namespace ? { namespace: tool.namespace } : {}) };
    case 'local_shell': {
      const action = parsedArguments(args) ?? {};
      return {
        id, type: 'local_shell_call', status, call_id: callId,
        action: { type: 'exec', command: strings(action.command), env: {}, timeout_ms: numberOrNull(action.timeout_ms), working_directory: stringOrNull(action.working_directory ?? action.workdir) },
      };
    }
    case 'shell': {
      const action = parsedArguments(args) ?? {};
      return { id, type: 'shell_call', status, call_id: callId, action: { commands: strings(action.commands), timeout_ms: numberOrNull(action.timeout_ms), max_output_length: numberOrNull(action.max_output_length) } };
    }
    default:
      return { id, type: 'function_call', status, arguments: args, call_id: callId, name: tool?.name ?? hubName, ...(tool?.namespace ? { namespace: tool.namespace } : {}) };
  }
}

// ---- the history: items of client-run tools → hub --------------------------------------------------------

const text = (value: unknown, at: string, field: string): string => {
  if (typeof value !== 'string' || value === '') throw invalidRequest(`Invalid value for '${at}.${field}': expected a non-empty string.`, `${at}.${field}`);
  return value;
};

function shellOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return output.map((chunk) => {
    const c = chunk as { stdout?: unknown; stderr?: unknown; outcome?: { type?: unknown; exit_code?: unknown } };
    const parts = [typeof c.stdout === 'string' ? c.stdout : '', typeof c.stderr === 'string' && c.stderr !== '' ? `stderr:\n${c.stderr}` : ''];
    if (c.outcome?.type === 'exit') parts.push(`exit code: ${String(c.outcome.exit_code)}`);
    else if (c.outcome?.type === 'timeout') parts.push('timed out');
    return parts.filter((p) => p !== '').join('\n');
  }).join('\n\n');
}

type ToolHistoryItem = { call: HubToolCallPart } | { result: HubToolResultPart };

/** A history item of a client-run tool other than function_call / function_call_output; null for other types. */
export function clientToolItemToHub(type: string, raw: Record<string, unknown>, at: string): ToolHistoryItem | null {
  switch (type) {
    case 'custom_tool_call': {
      const { id, signature } = decodeToolCallId(text(raw.call_id, at, 'call_id'));
      const name = qualifiedToolName(typeof raw.namespace === 'string' ? raw.namespace : undefined, text(raw.name, at, 'name'));
      const input = typeof raw.input === 'string' ? raw.input : '';
      return { call: { type: 'tool-call', id, name, argumentsJson: JSON.stringify({ input }), ...(signature ? { signature } : {}) } };
    }
    case 'local_shell_call': {
      const { id, signature } = decodeToolCallId(text(raw.call_id ?? raw.id, at, 'call_id'));
      const action = (raw.action ?? {}) as Record<string, unknown>;
      const args = { command: strings(action.command), ...(typeof action.working_directory === 'string' ? { working_directory: action.working_directory } : {}), ...(typeof action.timeout_ms === 'number' ? { timeout_ms: action.timeout_ms } : {}) };
      return { call: { type: 'tool-call', id, name: 'local_shell', argumentsJson: JSON.stringify(args), ...(signature ? { signature } : {}) } };
    }
    case 'shell_call': {
      const { id, signature } = decodeToolCallId(text(raw.call_id, at, 'call_id'));
      const action = (raw.action ?? {}) as Record<string, unknown>;
      return { call: { type: 'tool-call', id, name: 'shell', argumentsJson: JSON.stringify({ commands: strings(action.commands) }), ...(signature ? { signature } : {}) } };
    }
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
    case 'shell_call_output': {
      // local_shell_call_output names its call by `id` in OpenAI's types, by call_id in practice: either.
      const callId = text(raw.call_id ?? raw.id, at, 'call_id');
      const output = type === 'custom_tool_call_output' && Array.isArray(raw.output)
        ? raw.output.map((p) => (typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('')
        : shellOutputText(raw.output);
      return { result: { type: 'tool-result', toolCallId: decodeToolCallId(callId).id, content: output, isError: false } };
    }
    default:
      return null;
  }
}
