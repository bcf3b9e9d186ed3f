// POST /v1/messages and /v1/messages/count_tokens of the Anthropic simulator (behaviour documented in
// anthropic-simulator.ts).
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import {
  announcement, asksForSearch, countWords, greeting, scriptedToolCall, shapeText, splitEvenly, splitIntoPieces, thinkingSignature, thinkingText, toolResultAnswer, weatherCities, webSearchFinding,
} from './simulator-answers.ts';
import { anthropicError } from './anthropic-simulator-errors.ts';

interface Block { type?: string; text?: string; content?: unknown; input?: unknown; thinking?: string }
interface AnthropicMessage { role?: string; content?: string | Block[] }
interface MessagesBody {
  model?: unknown;
  messages?: AnthropicMessage[];
  system?: string | Block[];
  max_tokens?: number;
  stream?: boolean;
  tools?: { name?: string; type?: string }[];
  stop_sequences?: string[];
  thinking?: { type?: string; budget_tokens?: number };
}

type Citation = { type: 'web_search_result_location'; url: string; title: string; cited_text: string; encrypted_index: string };
type ContentBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string; citations: null | Citation[] }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; caller: { type: 'direct' } }
  | { type: 'server_tool_use'; id: string; name: 'web_search'; input: { query: string }; caller: { type: 'direct' } }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: { type: 'web_search_result'; url: string; title: string; encrypted_content: string; page_age: string | null }[]; caller: { type: 'direct' } };

const STREAM_FORMAT = { terminator: null, malformed: 'event: content_block_delta\ndata: {"type": not json\n\n' };

let sequence = 0;

function invalid(exchange: SimulatorExchange, message: string): void {
  sendJson(exchange.response, 400, anthropicError('invalid_request_error', message));
}

/** Validates the body; sends the error and returns null when it is not a valid Messages request. */
function validBody(exchange: SimulatorExchange, needsMaxTokens: boolean): MessagesBody | null {
  const body = exchange.recorded.body as MessagesBody | undefined;
  if (!body || typeof body !== 'object') return invalid(exchange, 'There was an issue with your request: the body is not valid JSON.'), null;
  if (typeof body.model !== 'string') return invalid(exchange, 'model: Field required'), null;
  if (!Array.isArray(body.messages)) return invalid(exchange, 'messages: Field required'), null;
  if (needsMaxTokens && typeof body.max_tokens !== 'number') return invalid(exchange, 'max_tokens: Field required'), null;
  const thinking = body.thinking;
  if (needsMaxTokens && thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens ?? 0;
    if (budget < 1024) return invalid(exchange, 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'), null;
    if ((body.max_tokens ?? 0) <= budget) return invalid(exchange, '`max_tokens` must be greater than `thinking.budget_tokens`.'), null;
  }
  const thinkingProblem = needsMaxTokens ? toolTurnThinkingProblem(body) : null;
  if (thinkingProblem) return invalid(exchange, thinkingProblem), null;
  return body;
}

/**
 * Anthropic's rule for a tool loop while thinking: the assistant turn whose tool_use the request answers
 * must start with a thinking block (a client that drops it, or a gateway that loses it in translation, gets
 * this 400 from the real API). The signature is not verified here: tests send fixture signatures.
 */
function toolTurnThinkingProblem(body: MessagesBody): string | null {
  if (body.thinking?.type !== 'enabled' && body.thinking?.type !== 'adaptive') return null;
  const messages = body.messages ?? [];
  const index = messages.length - 2;
  const assistant = messages[index];
  const answered = messages.at(-1);
  if (assistant?.role !== 'assistant' || !Array.isArray(assistant.content) || !assistant.content.some((block) => block.type === 'tool_use')) return null;
  if (!Array.isArray(answered?.content) || !answered.content.some((block) => block.type === 'tool_result')) return null;
  const first = assistant.content[0] as Block;
  if (first.type === 'redacted_thinking') return null;
  if (first.type !== 'thinking') {
    return `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
  }
  return null;
}

export function countMessageTokens(exchange: SimulatorExchange): void {
  const body = validBody(exchange, false);
  if (body) sendJson(exchange.response, 200, { input_tokens: inputTokens(body) });
}

export function messages(exchange: SimulatorExchange): void | Promise<void> {
  const body = validBody(exchange, true);
  if (!body) return;
  const { step } = exchange;
  const blocks: ContentBlock[] = [];
  const last = body.messages?.at(-1);
  const said = last?.role === 'user' ? textOf(last.content) : '';
  if (body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive') {
    const thinking = thinkingText(said);
    blocks.push({ type: 'thinking', thinking, signature: thinkingSignature(thinking) });
  }
  let stopReason = 'end_turn';
  let stopSequence: string | null = null;
  const results = last?.role === 'user' ? toolResultsOf(last.content) : [];
  const scripted = scriptedToolCall(step.toolCall, (body.tools ?? []).map((tool) => tool.name ?? ''));
  const cities = step.reply === undefined && scripted === null && results.length === 0 && body.tools && body.tools.length > 0 ? weatherCities(said) : null;
  const searches = step.reply === undefined && scripted === null && results.length === 0 && asksForSearch(said) && (body.tools ?? []).some((tool) => tool.type?.startsWith('web_search_'));
  let webSearchRequests = 0;
  if (searches) {
    // The hosted web search: the server tool's call, its result, and an answer citing the page found.
    const found = webSearchFinding(said);
    const id = `srvtoolu_sim${(sequence + 1).toString(36)}`;
    blocks.push({ type: 'server_tool_use', id, name: 'web_search', input: { query: found.query }, caller: { type: 'direct' } });
    blocks.push({ type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', url: found.url, title: found.title, encrypted_content: 'sim-encrypted-page', page_age: '2 days ago' }], caller: { type: 'direct' } });
    blocks.push({ type: 'text', text: found.answer, citations: [{ type: 'web_search_result_location', url: found.url, title: found.title, cited_text: found.answer, encrypted_index: 'sim-index' }] });
    webSearchRequests = 1;
  } else if (scripted !== null && 'name' in scripted) {
    blocks.push({ type: 'tool_use', id: `toolu_sim_script${(sequence + 1).toString(36)}`, name: scripted.name, input: scripted.arguments, caller: { type: 'direct' } });
    stopReason = 'tool_use';
  } else if (cities) {
    const name = body.tools?.[0]?.name ?? 'get_weather';
    const preface = announcement(said);
    if (preface !== null) blocks.push({ type: 'text', text: preface, citations: null });
    cities.forEach((city, i) => blocks.push({ type: 'tool_use', id: `toolu_sim_${i}_${city.toLowerCase().replace(/\W+/g, '')}`, name, input: { city }, caller: { type: 'direct' } }));
    stopReason = 'tool_use';
  } else {
    const wanted = step.reply ?? scripted?.text ?? (results.length > 0 ? toolResultAnswer(results) : greeting('Anthropic', said));
    const shaped = shapeText(wanted, body.stop_sequences, body.max_tokens);
    if (shaped.stopSequence !== null) {
      stopReason = 'stop_sequence';
      stopSequence = shaped.stopSequence;
    }
    if (shaped.truncated) stopReason = 'max_tokens';
    blocks.push({ type: 'text', text: shaped.text, citations: null });
  }
  let outputTokens = 0;
  for (const block of blocks) {
    if (block.type === 'web_search_tool_result') continue;
    outputTokens += countWords(block.type === 'text' ? block.text : block.type === 'thinking' ? block.thinking : JSON.stringify(block.input));
  }
  // Anthropic's input_tokens leaves out the tokens read from or written to the cache.
  const uncachedInput = Math.max(0, inputTokens(body) - (step.cachedTokens ?? 0) - (step.cacheWriteTokens ?? 0));
  const usage = (output: number) => step.omitUsage ? undefined : {
    input_tokens: uncachedInput, output_tokens: output,
    cache_creation_input_tokens: step.cacheWriteTokens ?? 0, cache_read_input_tokens: step.cachedTokens ?? 0, cache_creation: { ephemeral_5m_input_tokens: (step.cacheWriteTokens ?? 0) - (step.cacheWrite1hTokens ?? 0), ephemeral_1h_input_tokens: step.cacheWrite1hTokens ?? 0 },
    inference_geo: null, output_tokens_details: null, server_tool_use: webSearchRequests > 0 ? { web_search_requests: webSearchRequests, web_fetch_requests: 0 } : null, service_tier: 'standard', speed: null,
  };
  const message = (content: ContentBlock[], reason: string | null, sequenceHit: string | null, output: number) => ({
    id: `msg_sim${(++sequence).toString(36).padStart(6, '0')}`, type: 'message', role: 'assistant', model: body.model, content,
    stop_reason: reason, stop_sequence: sequenceHit, stop_details: null, container: null, diagnostics: null, usage: usage(output),
  });
  if (!body.stream) return sendJson(exchange.response, 200, message(blocks, stopReason, stopSequence, outputTokens), { 'request-id': `req_sim${sequence}`, ...step.headers });

  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const events = [event('message_start', { message: message([], null, null, 1) })];
  blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      events.push(event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const piece of splitIntoPieces(block.thinking)) events.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
      events.push(event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }));
    } else if (block.type === 'web_search_tool_result') {
      events.push(event('content_block_start', { index, content_block: block }));
    } else if (block.type === 'text') {
      events.push(event('content_block_start', { index, content_block: { type: 'text', text: '', citations: null } }));
      // A cited block's citations come first, one citations_delta each, then its text.
      for (const citation of block.citations ?? []) events.push(event('content_block_delta', { index, delta: { type: 'citations_delta', citation } }));
      if (block.text !== '') {
        for (const piece of splitIntoPieces(block.text)) events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      }
    } else {
      events.push(event('content_block_start', { index, content_block: { ...block, input: {} } }));
      for (const piece of ['', ...splitEvenly(JSON.stringify(block.input), 3)]) {
        events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    }
    events.push(event('content_block_stop', { index }));
  });
  events.splice(2, 0, event('ping', {})); // after the first content_block_start, as Anthropic sends it
  const deltaUsage = step.omitUsage ? undefined : {
    input_tokens: uncachedInput, output_tokens: outputTokens, cache_creation_input_tokens: step.cacheWriteTokens ?? 0, cache_read_input_tokens: step.cachedTokens ?? 0,
    output_tokens_details: null, server_tool_use: webSearchRequests > 0 ? { web_search_requests: webSearchRequests, web_fetch_requests: 0 } : null,
  };
  events.push(event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: stopSequence, stop_details: null, container: null }, usage: deltaUsage }));
  if (!step.omitTerminator) events.push(event('message_stop', {}));
  return sendEventStream(exchange.response, step, events, STREAM_FORMAT);
}

function inputTokens(body: MessagesBody): number {
  let tokens = countWords(textOf(body.system));
  for (const message of body.messages ?? []) {
    tokens += countWords(textOf(message.content));
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (block.type === 'tool_use') tokens += countWords(JSON.stringify(block.input ?? {}));
        if (block.type === 'tool_result') tokens += countWords(textOf(block.content as string | Block[]));
      }
    }
  }
  return tokens;
}

/** The text of a content: a string, or its text blocks joined by spaces. */
function textOf(content: string | Block[] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter((block) => block.type === 'text').map((block) => block.text ?? '').join(' ').trim();
}

function toolResultsOf(content: string | Block[] | undefined): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((block) => block.type === 'tool_result').map((block) => textOf(block.content as string | Block[]));
}
