// POST /v1/responses of the OpenAI simulator, in OpenAI's shapes (checked against the `openai` SDK's
// Response types and the Open Responses ResponseResource schema): every Response field, the request's
// settings echoed and OpenAI's defaults otherwise; function calls when function tools are offered and the
// last user text mentions "weather" (one per city); after function_call_output items `The tool said: …`;
// a reasoning item when `reasoning.summary` is set (refused for gpt-4* models, which do not reason, as OpenAI does); `max_output_tokens` cuts the text (status incomplete).
// Stored like OpenAI's stored responses, for GET/DELETE /v1/responses/{id} and its input_items.
import { randomBytes } from 'node:crypto';
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { announcement, countWords, greeting, scriptedToolCall, shapeText, splitEvenly, splitIntoPieces, thinkingText, toolResultAnswer, weatherCities } from './simulator-answers.ts';

type Body = Record<string, unknown>;
type Item = Record<string, unknown>;

/** Responses kept as OpenAI keeps stored ones, for GET/DELETE /v1/responses/{id} and its input_items. */
export const storedResponses = new Map<string, { response: Record<string, unknown>; inputItems: object[] }>();

/** Output item ids of stored responses, which an item_reference may name (as OpenAI: only those). */
const knownItemIds = new Set<string>();

const textOfContent = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (typeof (p as Item).text === 'string' ? (p as Item).text : '')).join('') : '';

/** The last user text, and the outputs of function calls that follow it (a tool-loop continuation). */
function readInput(input: unknown): { said: string; results: string[] } {
  if (typeof input === 'string') return { said: input, results: [] };
  const items = Array.isArray(input) ? (input as Item[]) : [];
  const lastUser = items.findLastIndex((item) => item.role === 'user');
  const results = items.slice(lastUser + 1).filter((item) => item.type === 'function_call_output').map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)));
  return { said: lastUser >= 0 ? textOfContent(items[lastUser]!.content) : '', results };
}

/** What OpenAI repeats from the request, with its defaults (function tools are strict unless told not to be). */
function echo(body: Body): Body {
  const tools = Array.isArray(body.tools) ? (body.tools as Item[]).map((tool) => (tool.type === 'function' ? { description: null, strict: true, ...tool } : tool)) : [];
  const text = (body.text ?? {}) as Item;
  const reasoning = (body.reasoning ?? {}) as Item;
  return {
    background: false, instructions: body.instructions ?? null, max_output_tokens: body.max_output_tokens ?? null, max_tool_calls: body.max_tool_calls ?? null,
    parallel_tool_calls: body.parallel_tool_calls ?? true, previous_response_id: body.previous_response_id ?? null, prompt_cache_key: body.prompt_cache_key ?? null,
    prompt_cache_retention: body.prompt_cache_retention ?? null, reasoning: { effort: reasoning.effort ?? null, summary: reasoning.summary ?? null },
    safety_identifier: body.safety_identifier ?? null, service_tier: 'default', store: body.store ?? true, temperature: body.temperature ?? 1,
    text: { format: text.format ?? { type: 'text' }, verbosity: text.verbosity ?? 'medium' }, tool_choice: body.tool_choice ?? 'auto', tools,
    top_logprobs: body.top_logprobs ?? 0, top_p: body.top_p ?? 1, presence_penalty: body.presence_penalty ?? 0, frequency_penalty: body.frequency_penalty ?? 0,
    truncation: body.truncation ?? 'disabled', user: body.user ?? null, metadata: body.metadata ?? {},
  };
}

export function responses(exchange: SimulatorExchange): void | Promise<void> {
  const body = exchange.recorded.body as Body;
  const { step } = exchange;
  const inputText = typeof body.input === 'string' ? body.input : JSON.stringify(body.input ?? '');
  const { said, results } = readInput(body.input);
  const missing = Array.isArray(body.input) ? (body.input as Item[]).find((item) => item.type === 'item_reference' && !knownItemIds.has(String(item.id))) : undefined;
  if (missing) return sendJson(exchange.response, 404, { error: { message: `Item with id '${String(missing.id)}' not found.`, type: 'invalid_request_error', param: 'input', code: null } });
  // Like OpenAI, a model without reasoning (the gpt-4 family) refuses reasoning settings.
  const reasoningAsked = body.reasoning as Item | null | undefined;
  if (/^gpt-4/.test(String(body.model)) && reasoningAsked && (reasoningAsked.summary || reasoningAsked.effort)) {
    const param = reasoningAsked.summary ? 'reasoning.summary' : 'reasoning.effort';
    return sendJson(exchange.response, 400, { error: { message: `Unsupported parameter: '${param}' is not supported with this model.`, type: 'invalid_request_error', param, code: 'unsupported_parameter' } });
  }
  const id = `resp_sim${randomBytes(12).toString('hex')}`;
  const base = id.slice(8, 24);
  const createdAt = Math.floor(Date.now() / 1000);
  const functionTool = Array.isArray(body.tools) ? (body.tools as Item[]).find((tool) => tool.type === 'function') : undefined;
  const functionNames = Array.isArray(body.tools) ? offeredFunctionNames(body.tools as Item[]) : [];
  const scripted = step.reply === undefined ? scriptedToolCall(step.toolCall, functionNames) : null;
  const cities = step.reply === undefined && scripted === null && results.length === 0 && functionTool ? weatherCities(said) : null;

  const output: Item[] = [];
  const summary = (body.reasoning as Item | undefined)?.summary;
  if (summary) output.push({ id: `rs_${base}`, type: 'reasoning', summary: [{ type: 'summary_text', text: thinkingText(said) }] });
  let incomplete = false;
  if (scripted !== null && 'name' in scripted) {
    // A function of a namespace tool is called by its own name, the namespace beside it (as Codex's MCP tools).
    const [namespace, name] = scripted.name.includes('.') ? scripted.name.split('.', 2) as [string, string] : [undefined, scripted.name];
    output.push({ id: `fc_${base}_script`, type: 'function_call', status: 'completed', arguments: JSON.stringify(scripted.arguments), call_id: `call_sim_script_${base}`, name, ...(namespace ? { namespace } : {}) });
  } else if (cities) {
    // Some models say what they are about to do before calling tools (the ai SDK keeps both in step one).
    const preface = announcement(said);
    if (preface !== null) output.push({ id: `msg_${base}_pre`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: preface, annotations: [], logprobs: [] }] });
    cities.forEach((city, i) => output.push({ id: `fc_${base}_${i}`, type: 'function_call', status: 'completed', arguments: JSON.stringify({ city }), call_id: `call_sim_${i}_${city.toLowerCase().replace(/\W+/g, '')}`, name: functionTool!.name }));
  } else {
    const shaped = shapeText(step.reply ?? scripted?.text ?? (results.length > 0 ? toolResultAnswer(results) : greeting('OpenAI', said)), undefined, typeof body.max_output_tokens === 'number' ? body.max_output_tokens : undefined);
    incomplete = shaped.truncated;
    output.push({ id: `msg_${base}`, type: 'message', status: incomplete ? 'incomplete' : 'completed', role: 'assistant', content: [{ type: 'output_text', text: shaped.text, annotations: [], logprobs: [] }] });
  }
  const itemText = (item: Item) => String(((item.content ?? item.summary) as Item[])[0]?.text ?? '');
  const outputTokens = output.reduce((sum, item) => sum + (item.type === 'function_call' ? countWords(String(item.arguments)) + 3 : countWords(itemText(item))), 0);
  const usage = { input_tokens: countWords(inputText), input_tokens_details: { cached_tokens: step.cachedTokens ?? 0, ...(step.cacheWriteTokens ? { cache_write_tokens: step.cacheWriteTokens } : {}) }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: countWords(inputText) + outputTokens };
  const status = incomplete ? 'incomplete' : 'completed';
  const response = (state: string, items: Item[], withUsage: boolean) => ({
    id, object: 'response', created_at: createdAt, status: state, completed_at: state === 'completed' ? createdAt : null, error: null,
    incomplete_details: state === 'incomplete' ? { reason: 'max_output_tokens' } : null, model: body.model, output: items, ...echo(body),
    usage: withUsage && !step.omitUsage ? usage : null,
  });
  const inputItems = [{ id: `msg_in${randomBytes(6).toString('hex')}`, type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: inputText }] }];
  storedResponses.set(id, { response: response(status, output, true), inputItems });
  if (body.store !== false) for (const item of output) knownItemIds.add(String(item.id));
  if (!body.stream) return sendJson(exchange.response, 200, response(status, output, true));

  let sequence = 0;
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const events = [event('response.created', { response: response('in_progress', [], false) }), event('response.in_progress', { response: response('in_progress', [], false) })];
  output.forEach((item, index) => events.push(...itemEvents(item, index, event)));
  events.push(event(`response.${status}`, { response: response(status, output, true) }));
  return sendEventStream(exchange.response, step, events, { terminator: null, malformed: 'event: response.output_text.delta\ndata: {"broken": \n\n' });
}

/**
 * The function names a scripted tool call may name: function tools by name, the functions of a namespace tool
 * (Codex groups an MCP server's tools in one) as `namespace.name` (a dot is not allowed in either name).
 */
function offeredFunctionNames(tools: Item[]): string[] {
  return tools.flatMap((tool) => {
    if (tool.type === 'function') return [String(tool.name)];
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) return (tool.tools as Item[]).filter((inner) => inner.type === 'function').map((inner) => `${String(tool.name)}.${String(inner.name)}`);
    return [];
  });
}

/** The events of one output item, from output_item.added to output_item.done. */
function itemEvents(item: Item, index: number, event: (type: string, data: object) => string): string[] {
  const at = { item_id: item.id, output_index: index };
  if (item.type === 'function_call') {
    const args = String(item.arguments);
    return [
      event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } }),
      ...splitEvenly(args, 3).map((delta) => event('response.function_call_arguments.delta', { ...at, delta })),
      event('response.function_call_arguments.done', { ...at, name: item.name, arguments: args }),
      event('response.output_item.done', { output_index: index, item }),
    ];
  }
  if (item.type === 'reasoning') {
    const text = (item.summary as Item[])[0]!.text as string;
    const part = { ...at, summary_index: 0 };
    return [
      event('response.output_item.added', { output_index: index, item: { ...item, summary: [] } }),
      event('response.reasoning_summary_part.added', { ...part, part: { type: 'summary_text', text: '' } }),
      event('response.reasoning_summary_text.delta', { ...part, delta: text }),
      event('response.reasoning_summary_text.done', { ...part, text }),
      event('response.reasoning_summary_part.done', { ...part, part: { type: 'summary_text', text } }),
      event('response.output_item.done', { output_index: index, item }),
    ];
  }
  const text = ((item.content as Item[])[0]!.text as string);
  const part = { ...at, content_index: 0 };
  return [
    event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }),
    event('response.content_part.added', { ...part, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }),
    ...splitIntoPieces(text).map((delta) => event('response.output_text.delta', { ...part, delta, logprobs: [] })),
    event('response.output_text.done', { ...part, text, logprobs: [] }),
    event('response.content_part.done', { ...part, part: { type: 'output_text', text, annotations: [], logprobs: [] } }),
    event('response.output_item.done', { output_index: index, item }),
  ];
}
