// The OpenAI simulator's endpoints for images, speech and responses, in OpenAI's shapes (checked by
// pointing the official openai SDK at them in the end-to-end tests).
import { randomBytes } from 'node:crypto';
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { announcement, countWords, splitIntoPieces, toolResultAnswer, weatherCities } from './simulator-answers.ts';

type Body = Record<string, unknown>;

export function imagesGenerations(exchange: SimulatorExchange): void {
  const body = exchange.recorded.body as Body;
  const n = typeof body.n === 'number' ? body.n : 1;
  const data = Array.from({ length: n }, (_, i) => (body.response_format === 'b64_json' ? { b64_json: Buffer.from(`image ${i} of ${String(body.prompt)}`).toString('base64') } : { url: `https://images.simulator.test/${i}.png`, revised_prompt: String(body.prompt) }));
  sendJson(exchange.response, 200, { created: Math.floor(Date.now() / 1000), data });
}

/** Audio bytes: a recognisable header then the input text, sent in several chunks. */
export async function speech(exchange: SimulatorExchange): Promise<void> {
  const body = exchange.recorded.body as Body;
  const format = String(body.response_format ?? 'mp3');
  const types: Record<string, string> = { mp3: 'audio/mpeg', opus: 'audio/opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };
  exchange.response.writeHead(200, { 'content-type': types[format] ?? 'application/octet-stream', 'transfer-encoding': 'chunked' });
  exchange.response.write(Buffer.from(`SIMAUDIO:${format}:`));
  for (const piece of splitIntoPieces(String(body.input))) exchange.response.write(Buffer.from(piece));
  exchange.response.end();
}

export function responses(exchange: SimulatorExchange): void | Promise<void> {
  const body = exchange.recorded.body as Body;
  const input = typeof body.input === 'string' ? body.input : JSON.stringify(body.input ?? '');
  const items = Array.isArray(body.input) ? (body.input as Body[]) : [];
  // As OpenAI: a reference must name an item of a stored response.
  const missing = items.find((item) => item.type === 'item_reference' && !knownItemIds.has(String(item.id)));
  if (missing) return sendJson(exchange.response, 404, { error: { message: `Item with id '${String(missing.id)}' not found.`, type: 'invalid_request_error', param: 'input', code: null } });
  const said = lastUserText(body.input);
  const results = items.filter((item) => item.type === 'function_call_output').map((item) => String(item.output));
  const tools = Array.isArray(body.tools) ? (body.tools as Body[]).filter((tool) => tool.type === 'function') : [];
  const cities = exchange.step.reply === undefined && results.length === 0 && tools.length > 0 ? weatherCities(said) : null;
  const text = exchange.step.reply ?? (results.length > 0 ? toolResultAnswer(results) : `Hello from the OpenAI simulator: you said "${input}"`);
  // Unique like OpenAI's: two responses in the same millisecond must not share an id.
  const id = `resp_sim${randomBytes(12).toString('hex')}`;
  const itemId = (prefix: string) => `${prefix}_sim${randomBytes(8).toString('hex')}`;
  const createdAt = Math.floor(Date.now() / 1000);
  const message = (messageId: string, content: string, status: string) => ({ type: 'message', id: messageId, status, role: 'assistant', content: [{ type: 'output_text', text: content, annotations: [], logprobs: [] }] });
  const output: Body[] = [];
  if (cities) {
    const preface = announcement(said);
    if (preface !== null) output.push(message(itemId('msg'), preface, 'completed'));
    const name = String(tools[0]!.name);
    cities.forEach((city, i) => output.push({ type: 'function_call', id: itemId('fc'), call_id: `call_sim_${i}_${city.toLowerCase().replace(/\W+/g, '')}`, name, arguments: JSON.stringify({ city }), status: 'completed' }));
  } else {
    output.push(message(itemId('msg'), text, 'completed'));
  }
  const outputText = output.map((item) => (item.type === 'message' ? (item.content as { text: string }[])[0]!.text : String(item.arguments))).join(' ');
  const usage = { input_tokens: countWords(input), input_tokens_details: { cached_tokens: exchange.step.cachedTokens ?? 0, ...(exchange.step.cacheWriteTokens ? { cache_write_tokens: exchange.step.cacheWriteTokens } : {}) }, output_tokens: countWords(outputText), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: countWords(input) + countWords(outputText) };
  const response = (status: string, out: unknown[], withUsage: boolean) => ({
    id, object: 'response', created_at: createdAt, status, error: null, incomplete_details: null, instructions: null,
    max_output_tokens: body.max_output_tokens ?? null, model: body.model, output: out, parallel_tool_calls: true,
    previous_response_id: body.previous_response_id ?? null, reasoning: { effort: null, summary: null }, store: true,
    temperature: 1, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], top_p: 1, truncation: 'disabled',
    usage: withUsage && !exchange.step.omitUsage ? usage : null, user: null, metadata: {},
  });
  const inputItems = [{ id: `msg_in${randomBytes(6).toString('hex')}`, type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: input }] }];
  storedResponses.set(id, { response: response('completed', output, true), inputItems });
  if (body.store !== false) for (const item of output) knownItemIds.add(String(item.id));
  if (!body.stream) return sendJson(exchange.response, 200, response('completed', output, true));
  let sequence = 0;
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const itemEvents = (item: Body, output_index: number): string[] => {
    const item_id = String(item.id);
    if (item.type === 'function_call') {
      const args = String(item.arguments);
      return [
        event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }),
        event('response.function_call_arguments.delta', { item_id, output_index, delta: args }),
        event('response.function_call_arguments.done', { item_id, output_index, arguments: args }),
        event('response.output_item.done', { output_index, item }),
      ];
    }
    const content = (item.content as { text: string }[])[0]!.text;
    return [
      event('response.output_item.added', { output_index, item: { ...message(item_id, '', 'in_progress'), content: [] } }),
      event('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }),
      ...splitIntoPieces(content).map((delta) => event('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] })),
      event('response.output_text.done', { item_id, output_index, content_index: 0, text: content, logprobs: [] }),
      event('response.content_part.done', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: content, annotations: [], logprobs: [] } }),
      event('response.output_item.done', { output_index, item }),
    ];
  };
  const events = [
    event('response.created', { response: response('in_progress', [], false) }),
    event('response.in_progress', { response: response('in_progress', [], false) }),
    ...output.flatMap(itemEvents),
    event('response.completed', { response: response('completed', output, true) }),
  ];
  return sendEventStream(exchange.response, exchange.step, events, { terminator: null, malformed: 'event: response.output_text.delta\ndata: {"broken": \n\n' });
}

/** The text of the last user message of a Responses input (a string, or message items). */
function lastUserText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  const last = (input as Body[]).filter((item) => item.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return Array.isArray(last.content) ? (last.content as Body[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join(' ').trim() : '';
}

/** Output item ids of stored responses, which an item_reference may name. */
const knownItemIds = new Set<string>();

/** Responses kept as OpenAI keeps stored ones, for GET/DELETE /v1/responses/{id} and its input_items. */
const storedResponses = new Map<string, { response: Record<string, unknown>; inputItems: object[] }>();

/** GET /v1/responses/{id}, DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items, POST /v1/responses/{id}/cancel. */
export function storedResponse(exchange: SimulatorExchange): void {
  const { method, path } = exchange.recorded;
  const [, , , rawId, action] = path.split('/');
  const id = decodeURIComponent(rawId ?? '');
  const stored = storedResponses.get(id);
  if (!stored) return sendJson(exchange.response, 404, { error: { message: `Response with id '${id}' not found.`, type: 'invalid_request_error', param: null, code: null } });
  if (method === 'GET' && action === undefined) return sendJson(exchange.response, 200, stored.response);
  if (method === 'DELETE' && action === undefined) {
    storedResponses.delete(id);
    return sendJson(exchange.response, 200, { id, object: 'response.deleted', deleted: true });
  }
  if (method === 'GET' && action === 'input_items') return sendJson(exchange.response, 200, { object: 'list', data: stored.inputItems, first_id: (stored.inputItems[0] as { id: string }).id, last_id: (stored.inputItems.at(-1) as { id: string }).id, has_more: false });
  if (method === 'POST' && action === 'cancel') return sendJson(exchange.response, 400, { error: { message: 'Only responses created with background set to true can be cancelled.', type: 'invalid_request_error', param: null, code: null } });
  return sendJson(exchange.response, 404, { error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null } });
}

/** Multipart bodies arrive as text here; tests upload ASCII-only files so the text is the exact bytes. */
async function formOf(exchange: SimulatorExchange): Promise<FormData> {
  return new Response(String(exchange.recorded.body ?? ''), { headers: { 'content-type': String(exchange.request.headers['content-type']) } }).formData();
}

export async function imagesEdits(exchange: SimulatorExchange): Promise<void> {
  const form = await formOf(exchange);
  const images = [...form.getAll('image'), ...form.getAll('image[]')].filter((entry) => typeof entry !== 'string');
  if (images.length === 0) return sendJson(exchange.response, 400, { error: { message: "Missing required parameter: 'image'.", type: 'invalid_request_error', param: 'image', code: null } });
  const n = Number(form.get('n') ?? 1);
  const data = Array.from({ length: n }, (_, i) => ({ url: `https://images.simulator.test/edit-${i}.png`, revised_prompt: String(form.get('prompt')) }));
  sendJson(exchange.response, 200, { created: Math.floor(Date.now() / 1000), data });
}

export async function transcriptions(exchange: SimulatorExchange): Promise<void> {
  const form = await formOf(exchange);
  const file = form.get('file');
  if (!file || typeof file === 'string') return sendJson(exchange.response, 400, { error: { message: "Missing required parameter: 'file'.", type: 'invalid_request_error', param: 'file', code: null } });
  const text = `Transcribed ${file.name} (${file.size} bytes) in ${String(form.get('language') ?? 'auto')} for ${String(form.get('model'))}`;
  const format = String(form.get('response_format') ?? 'json');
  if (format === 'text') {
    exchange.response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    exchange.response.end(text);
    return;
  }
  if (format === 'verbose_json') return sendJson(exchange.response, 200, { task: 'transcribe', language: 'english', duration: 2.5, text, segments: [] });
  sendJson(exchange.response, 200, { text, usage: { type: 'duration', seconds: 3 } });
}
