// The OpenAI simulator's endpoints for images, speech and stored responses (POST /v1/responses is in
// openai-simulator-responses.ts), in OpenAI's shapes (checked by
// pointing the official openai SDK at them in the end-to-end tests).
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { splitIntoPieces } from './simulator-answers.ts';
import { storedResponses } from './openai-simulator-responses.ts';

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
  const contentType = types[format] ?? 'application/octet-stream';
  // transfer-encoding is HTTP/1's framing: node:http2 refuses it (an h2 answer is framed by its DATA frames).
  exchange.response.writeHead(200, exchange.request.httpVersionMajor === 2 ? { 'content-type': contentType } : { 'content-type': contentType, 'transfer-encoding': 'chunked' });
  exchange.response.write(Buffer.from(`SIMAUDIO:${format}:`));
  for (const piece of splitIntoPieces(String(body.input))) exchange.response.write(Buffer.from(piece));
  exchange.response.end();
}

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
