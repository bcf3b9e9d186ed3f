// The rest of the compatible API through the gateway, with the official openai SDK as the client:
// completions, embeddings, images (generations and edits), audio (speech and transcriptions), rerank
// and responses; their validation, limits and prices.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startRerankSimulator } from '../simulators/rerank-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { Simulator } from '../simulators/simulator-core.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('surfaceuser');
const UPSTREAM_KEY = 'sk-upstream-surface';
let upstream: OpenAISimulator;
let rerank: Simulator;
let gemini: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  rerank = await startRerankSimulator({ apiKey: 'sk-rerank' });
  gemini = await startGeminiSimulator({ apiKey: 'gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'dall-e-2', 'dall-e-3', 'tts-1', 'whisper-1', 'gpt-4o-mini'] },
      { name: 'jina', type: 'jina', base_url: rerank.url, api_key: 'sk-rerank', models: ['jina-reranker-v2'] },
      { name: 'cohere', type: 'cohere', base_url: rerank.url, api_key: 'sk-rerank', models: ['rerank-v3.5'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'gemini-key', models: ['gemini-embedding-001'] },
    ],
    models: [
      { id: 'gpt-3.5-turbo-instruct', input_per_mtok: 1.5, output_per_mtok: 2 },
      { id: 'text-embedding-3-small', input_per_mtok: 0.02 },
      { id: 'dall-e-2', per_image: { '1024x1024': 0.02, '512x512': 0.018 } },
      { id: 'dall-e-3', per_image: { '1024x1024': 0.04, '1024x1024/hd': 0.08 } },
      { id: 'tts-1', per_mchars: 15 },
      { id: 'whisper-1', per_audio_minute: 0.006 },
      { id: 'gpt-4o-mini', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'jina-reranker-v2', per_request: 0.001 },
      { id: 'rerank-v3.5', per_search: 0.002 },
      { id: 'gemini-embedding-001', input_per_mtok: 0.15 },
    ],
    users: [{ name: 'sam', balance: 50 }],
    keys: [{ name: 'surface', key: KEY, user: 'sam' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  await rerank?.close();
  await gemini?.close();
});

const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
async function lastLog() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

describe('completions', () => {
  it('completes a prompt, streamed and not', async () => {
    const whole = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once upon a time' });
    expect(whole.object).toBe('text_completion');
    expect(whole.choices[0]?.text.length).toBeGreaterThan(0);
    const stream = await client().completions.create({ model: 'gpt-3.5-turbo-instruct', prompt: 'Once upon a time', stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe(whole.choices[0]?.text);
    const log = await lastLog();
    expect(log.endpoint).toBe('/v1/completions');
    expect(log.output_tokens).toBeGreaterThan(0);
  });

  it('answers 400 for a missing prompt', async () => {
    await expect(client().completions.create({ model: 'gpt-3.5-turbo-instruct' } as never)).rejects.toMatchObject({ status: 400, param: 'prompt' });
  });
});

describe('embeddings', () => {
  it('embeds a batch in order, decoding base64 as the SDK asks by default, and honours dimensions', async () => {
    const inputs = ['alpha', 'beta', 'gamma', 'delta'];
    const viaBase64 = await client().embeddings.create({ model: 'text-embedding-3-small', input: inputs, dimensions: 5 });
    const viaFloat = await client().embeddings.create({ model: 'text-embedding-3-small', input: inputs, dimensions: 5, encoding_format: 'float' });
    expect(viaBase64.data.map((item) => item.index)).toEqual([0, 1, 2, 3]);
    expect(viaBase64.data[2]!.embedding).toHaveLength(5);
    viaBase64.data.forEach((item, i) => item.embedding.forEach((value, j) => expect(value).toBeCloseTo(viaFloat.data[i]!.embedding[j]!, 5)));
    expect(viaFloat.usage.prompt_tokens).toBeGreaterThan(0);
    expect((await lastLog()).input_tokens).toBe(viaFloat.usage.prompt_tokens);
  });

  it('embeds through a Gemini channel, translated to batchEmbedContents and back, in order', async () => {
    const inputs = ['first text', 'second text', 'third text'];
    const viaFloat = await client().embeddings.create({ model: 'gemini-embedding-001', input: inputs, dimensions: 6, encoding_format: 'float' });
    const viaBase64 = await client().embeddings.create({ model: 'gemini-embedding-001', input: inputs, dimensions: 6 });
    expect(viaFloat.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(viaFloat.data[0]!.embedding).toHaveLength(6);
    viaBase64.data.forEach((item, i) => item.embedding.forEach((value, j) => expect(value).toBeCloseTo(viaFloat.data[i]!.embedding[j]!, 5)));
    const sent = gemini.requests.at(-1)!;
    expect(sent.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect((sent.body as { requests: { content: { parts: { text: string }[] }; outputDimensionality: number }[] }).requests.map((r) => r.content.parts[0]!.text)).toEqual(inputs);
    expect(viaFloat.usage.prompt_tokens).toBeGreaterThan(0);
    await expect(client().embeddings.create({ model: 'gemini-embedding-001', input: [[1, 2, 3]] })).rejects.toMatchObject({ status: 400, param: 'input' });
  });

  it('answers 400 naming input when it is missing', async () => {
    await expect(client().embeddings.create({ model: 'text-embedding-3-small' } as never)).rejects.toMatchObject({ status: 400, param: 'input' });
  });
});

describe('images', () => {
  it('generates images priced per image by size and quality', async () => {
    const images = await client().images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', size: '1024x1024', quality: 'hd' });
    expect(images.data).toHaveLength(1);
    expect((await lastLog()).cost_micros).toBe(80_000);
  });

  it('refuses what the model cannot do: dall-e-3 n > 1, an unknown size, a prompt over its limit', async () => {
    await expect(client().images.generate({ model: 'dall-e-3', prompt: 'x', n: 2 })).rejects.toMatchObject({ status: 400, param: 'n' });
    await expect(client().images.generate({ model: 'dall-e-2', prompt: 'x', size: '1792x1024' })).rejects.toMatchObject({ status: 400, param: 'size' });
    await expect(client().images.generate({ model: 'dall-e-2', prompt: 'x'.repeat(1001) })).rejects.toMatchObject({ status: 400, param: 'prompt' });
    await expect(client().images.generate({ model: 'dall-e-2', prompt: 'x', n: 11 })).rejects.toMatchObject({ status: 400, param: 'n' });
  });

  it('edits an uploaded image with a mask', async () => {
    const image = await toFile(Buffer.from('PNGPNGPNG-not-really-an-image'), 'input.png', { type: 'image/png' });
    const mask = await toFile(Buffer.from('MASKMASK'), 'mask.png', { type: 'image/png' });
    const edited = await client().images.edit({ model: 'dall-e-2', image, mask, prompt: 'add a boat', n: 2, size: '512x512' });
    expect(edited.data).toHaveLength(2);
    const seen = String(upstream.requests.at(-1)!.body);
    expect(seen).toContain('PNGPNGPNG-not-really-an-image');
    expect(seen).toContain('MASKMASK');
    expect(seen).toContain('add a boat');
    expect((await lastLog()).cost_micros).toBe(36_000);
  });
});

describe('audio', () => {
  it('speaks text, streaming the audio bytes with their content type, priced per character', async () => {
    const response = await client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there, listener.', response_format: 'opus' });
    expect(response.headers.get('content-type')).toBe('audio/opus');
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe('SIMAUDIO:opus:Hello there, listener.');
    const log = await lastLog();
    expect(log.cost_micros).toBe(Math.round(22 * 15 / 1_000_000 * 1_000_000));
  });

  it('refuses an unknown voice, an unknown format and an input over 4096 characters', async () => {
    await expect(client().audio.speech.create({ model: 'tts-1', voice: 'robot' as never, input: 'x' })).rejects.toMatchObject({ status: 400, param: 'voice' });
    await expect(client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'ogg' as never })).rejects.toMatchObject({ status: 400, param: 'response_format' });
    await expect(client().audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4097) })).rejects.toMatchObject({ status: 400, param: 'input' });
  });

  it('transcribes an uploaded file, priced by the duration the upstream reports', async () => {
    const file = await toFile(Buffer.from('RIFF----WAVEfmt ' + 'a'.repeat(200)), 'speech.wav', { type: 'audio/wav' });
    const transcript = await client().audio.transcriptions.create({ model: 'whisper-1', file, language: 'en' });
    expect(transcript.text).toContain('Transcribed speech.wav');
    expect(transcript.text).toContain(' in en ');
    expect((await lastLog()).cost_micros).toBe(Math.round(6_000 * 3 / 60));
  });

  it('refuses an unsupported file type, a bad language code and a missing file', async () => {
    const text = await toFile(Buffer.from('hello'), 'notes.txt', { type: 'text/plain' });
    await expect(client().audio.transcriptions.create({ model: 'whisper-1', file: text })).rejects.toMatchObject({ status: 400, param: 'file' });
    const wav = await toFile(Buffer.from('RIFFxxxxWAVE'), 'a.wav', { type: 'audio/wav' });
    await expect(client().audio.transcriptions.create({ model: 'whisper-1', file: wav, language: 'english' })).rejects.toMatchObject({ status: 400, param: 'language' });
  });

  it('answers 413 for a file over 25 MB without reading it all', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([Buffer.alloc(26 * 1024 * 1024, 97)]), 'big.mp3');
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe('request_too_large');
  });
});

describe('rerank', () => {
  it('reranks through a Jina channel with documents returned, and through a Cohere channel', async () => {
    const request = (model: string) => fetch(`${gateway.url}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, query: 'red apples', documents: ['bananas are yellow', 'red apples and green apples', 'apples'], top_n: 2, return_documents: true }),
    }).then(async (response) => ({ status: response.status, body: await response.json() as { results: { index: number; relevance_score: number; document?: { text: string } }[] } }));
    const jina = await request('jina-reranker-v2');
    expect(jina.status).toBe(200);
    expect(jina.body.results.map((result) => result.index)).toEqual([1, 2]);
    expect(jina.body.results[0]!.document?.text).toBe('red apples and green apples');
    expect((await lastLog()).cost_micros).toBe(1_000);
    const cohere = await request('rerank-v3.5');
    expect(cohere.body.results.map((result) => result.index)).toEqual([1, 2]);
    expect(cohere.body.results[0]!.document?.text).toBe('red apples and green apples');
    expect((await lastLog()).cost_micros).toBe(2_000);
  });
});

describe('responses', () => {
  it('passes a response through, streamed and not, metering the final usage', async () => {
    const earlier = await client().responses.create({ model: 'gpt-4o-mini', input: 'first turn' });
    const whole = await client().responses.create({ model: 'gpt-4o-mini', input: 'hi there', previous_response_id: earlier.id });
    expect(whole.output_text).toBe('Hello from the OpenAI simulator: you said "hi there"');
    expect((upstream.requests.at(-1)!.body as { previous_response_id: string }).previous_response_id).toBe(earlier.id);
    const stream = await client().responses.create({ model: 'gpt-4o-mini', input: 'hi there', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(text).toBe(whole.output_text);
    const log = await lastLog();
    expect(log.stream).toBe(1);
    expect(log.output_tokens).toBe(whole.usage!.output_tokens);
  });
});
