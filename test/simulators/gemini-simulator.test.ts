// Proves the Gemini simulator speaks Google's wire format: the official SDK is pointed straight at it.
import { ApiError, FinishReason, GoogleGenAI, UrlRetrievalStatus, type Content, type GenerateContentResponse, type Tool } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGeminiSimulator, type GeminiSimulator } from './gemini-simulator.ts';
import { countWords, simulatedEmbedding, webFetchFinding } from './simulator-answers.ts';
import { geminiThoughtSignature } from './gemini-simulator-generate.ts';

const API_KEY = 'sim-gemini-key';
let sim: GeminiSimulator;
let ai: GoogleGenAI;

beforeAll(async () => {
  sim = await startGeminiSimulator();
  ai = new GoogleGenAI({ apiKey: API_KEY, httpOptions: { baseUrl: sim.url } });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const model = 'gemini-2.5-flash';
const weatherTools: Tool[] = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }];

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('generateContent', () => {
  it('answers a non-streamed request', async () => {
    const response = await ai.models.generateContent({ model, contents: 'hi there', config: { systemInstruction: 'Be brief.' } });
    expect(response.text).toBe('Hello from the Gemini simulator: you said "hi there"');
    expect(response.candidates?.[0]).toMatchObject({ finishReason: FinishReason.STOP, index: 0, content: { role: 'model' } });
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 4, candidatesTokenCount: 9, totalTokenCount: 13 });
    expect(response.modelVersion).toBe(model);
    expect(response.responseId).toBeTruthy();
    const seen = sim.requests.at(-1)!;
    expect(seen.path).toBe(`/v1beta/models/${model}:generateContent`);
    expect(seen.headers['x-goog-api-key']).toBe(API_KEY);
  });

  it('streams SSE chunks the SDK parses, the last with finishReason and full usage', async () => {
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: 'stream please' }));
    expect(sim.requests.at(-1)!.query.get('alt')).toBe('sse');
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('Hello from the Gemini simulator: you said "stream please"');
    const last = chunks.at(-1)!;
    expect(last.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    expect(last.usageMetadata).toMatchObject({ promptTokenCount: 2, candidatesTokenCount: 9, totalTokenCount: 11 });
    expect(chunks[0]!.candidates?.[0]?.finishReason).toBeUndefined();
    expect(new Set(chunks.map((chunk) => chunk.responseId)).size).toBe(1);
  });

  it('frames SSE events with CRLF as Google does, and streams a JSON array without alt=sse', async () => {
    const ask = (query: string) => fetch(`${sim.url}/v1beta/models/${model}:streamGenerateContent${query}`, {
      method: 'POST', headers: { 'x-goog-api-key': API_KEY }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'x' }] }] }),
    });
    const sse = await (await ask('?alt=sse')).text();
    const events = sse.split('\r\n\r\n');
    expect(events.at(-1)).toBe('');
    expect(events.slice(0, -1).every((event) => event.startsWith('data: {'))).toBe(true);
    const array = JSON.parse(await (await ask('')).text()) as GenerateContentResponse[];
    expect(array.map((chunk) => chunk.candidates?.[0]?.content?.parts?.[0]?.text).join('')).toBe('Hello from the Gemini simulator: you said "x"');
  });

  it('cuts at a stop sequence and at maxOutputTokens (MAX_TOKENS)', async () => {
    const stopped = await ai.models.generateContent({ model, contents: 'x', config: { stopSequences: ['simulator'] } });
    expect(stopped.text).toBe('Hello from the Gemini ');
    expect(stopped.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    const cut = await ai.models.generateContent({ model, contents: 'x', config: { maxOutputTokens: 2 } });
    expect(cut.text).toBe('Hello from');
    expect(cut.candidates?.[0]?.finishReason).toBe(FinishReason.MAX_TOKENS);
  });

  it('answers candidateCount candidates, each cut by maxOutputTokens, counted over all of them', async () => {
    const response = await ai.models.generateContent({ model, contents: 'x', config: { candidateCount: 3, maxOutputTokens: 2 } });
    expect(response.candidates?.map((candidate) => [candidate.index, candidate.content?.parts?.[0]?.text, candidate.finishReason]))
      .toEqual([0, 1, 2].map((index) => [index, 'Hello from', FinishReason.MAX_TOKENS]));
    expect(response.usageMetadata).toMatchObject({ candidatesTokenCount: 3 * 2, totalTokenCount: 1 + 3 * 2 });
    const uncut = await ai.models.generateContent({ model, contents: 'x', config: { candidateCount: 2 } });
    expect(uncut.candidates?.map((candidate) => candidate.finishReason)).toEqual([FinishReason.STOP, FinishReason.STOP]);
    expect(uncut.usageMetadata?.candidatesTokenCount).toBe(2 * 8);
  });

  it('streams candidateCount candidates: each chunk carries every candidate\'s next piece, named by its index', async () => {
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: 'x', config: { candidateCount: 2, maxOutputTokens: 3 } }));
    const byIndex = new Map<number, string>();
    for (const chunk of chunks) {
      for (const candidate of chunk.candidates ?? []) byIndex.set(candidate.index!, (byIndex.get(candidate.index!) ?? '') + (candidate.content?.parts?.[0]?.text ?? ''));
    }
    expect([...byIndex.entries()].sort()).toEqual([[0, 'Hello from the'], [1, 'Hello from the']]);
    expect(chunks.at(-1)!.candidates?.map((candidate) => candidate.finishReason)).toEqual([FinishReason.MAX_TOKENS, FinishReason.MAX_TOKENS]);
    expect(chunks.at(-1)!.usageMetadata?.candidatesTokenCount).toBe(2 * 3);
  });

  it('shows a thought part first when includeThoughts is set, with thoughtsTokenCount', async () => {
    const config = { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } };
    const response = await ai.models.generateContent({ model, contents: 'think', config });
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    expect(parts[0]).toEqual({ text: 'Thinking about "think".', thought: true, thoughtSignature: geminiThoughtSignature('Thinking about "think".') });
    expect(response.text).toBe('Hello from the Gemini simulator: you said "think"');
    expect(response.usageMetadata).toMatchObject({ thoughtsTokenCount: 3, candidatesTokenCount: 8, totalTokenCount: 12 });
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: 'think', config }));
    expect(chunks[0]!.candidates?.[0]?.content?.parts?.[0]?.thought).toBe(true);
    expect(chunks.at(-1)!.usageMetadata?.thoughtsTokenCount).toBe(3);
    expect((await ai.models.generateContent({ model, contents: 'think' })).usageMetadata?.thoughtsTokenCount).toBeUndefined();
  });

  it('takes back its own thought signatures and refuses one it did not make, as Google does', async () => {
    const thought = 'Thinking about "think".';
    const history = (signature: string) => [
      { role: 'user', parts: [{ text: 'think' }] },
      { role: 'model', parts: [{ text: thought, thought: true, thoughtSignature: signature }, { text: 'Hello.' }] },
      { role: 'user', parts: [{ text: 'again' }] },
    ];
    const own = await ai.models.generateContent({ model, contents: history(geminiThoughtSignature(thought)) });
    expect(own.text).toBe('Hello from the Gemini simulator: you said "again"');
    const error = await ai.models.generateContent({ model, contents: history('gwsig:anthropic:c2lnbmF0dXJl') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('Thought signature is not valid');
  });
});

describe('search grounding', () => {
  it('grounds an answer with googleSearch: queries, the page used, and a support spanning the answer, whole and streamed', async () => {
    const config = { tools: [{ googleSearch: {} }] };
    const response = await ai.models.generateContent({ model, contents: 'search the docs', config });
    expect(response.text).toBe('The web says: search the docs.');
    const grounding = response.candidates?.[0]?.groundingMetadata;
    expect(grounding?.webSearchQueries).toEqual(['search the docs']);
    expect(grounding?.groundingChunks).toEqual([{ web: { uri: 'https://example.org/search-the-docs', title: 'About search the docs', domain: 'example.org' } }]);
    expect(grounding?.groundingSupports?.[0]).toMatchObject({ segment: { startIndex: 0, endIndex: 30, text: 'The web says: search the docs.' }, groundingChunkIndices: [0] });
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: 'search the docs', config }));
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('The web says: search the docs.');
    expect(chunks.at(-1)!.candidates?.[0]?.groundingMetadata?.webSearchQueries).toEqual(['search the docs']);
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates?.[0]?.groundingMetadata === undefined)).toBe(true);
    expect((await ai.models.generateContent({ model, contents: 'search the docs' })).candidates?.[0]?.groundingMetadata).toBeUndefined();
  });
});

describe('function calling', () => {
  it('answers a weather question with parallel functionCall parts, then uses the functionResponses', async () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris and Tokyo?' }] }];
    const first = await ai.models.generateContent({ model, contents, config: { tools: weatherTools } });
    expect(first.functionCalls?.map((call) => [call.name, call.args])).toEqual([['get_weather', { city: 'Paris' }], ['get_weather', { city: 'Tokyo' }]]);
    expect(first.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
    contents.push(first.candidates![0]!.content!, {
      role: 'user', parts: [
        { functionResponse: { name: 'get_weather', response: { result: '18°C, sunny' } } },
        { functionResponse: { name: 'get_weather', response: { temperature: 22 } } },
      ],
    });
    const second = await ai.models.generateContent({ model, contents, config: { tools: weatherTools } });
    expect(second.text).toBe('The tool said: 18°C, sunny; {"temperature":22}');
    expect(second.functionCalls).toBeUndefined();
  });

  it('streams the function calls together in one chunk', async () => {
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: 'weather in Paris, Tokyo and Lima', config: { tools: weatherTools } }));
    const calls = chunks.flatMap((chunk) => chunk.functionCalls ?? []);
    expect(calls.map((call) => call.args?.city)).toEqual(['Paris', 'Tokyo', 'Lima']);
    expect(chunks.at(-1)!.candidates?.[0]?.finishReason).toBe(FinishReason.STOP);
  });

  it('plays a scripted call of a named function, streamed, then answers from its functionResponse', async () => {
    const tools: Tool[] = [{ functionDeclarations: [...weatherTools[0]!.functionDeclarations!, { name: 'read_file', parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } } } }] }];
    sim.script({ toolCall: { name: 'read_file', arguments: { file_path: 'secret.txt' } } });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'What does the file say?' }] }];
    const chunks = await collect(await ai.models.generateContentStream({ model, contents, config: { tools } }));
    const calls = chunks.flatMap((chunk) => chunk.functionCalls ?? []);
    expect(calls.map((call) => [call.name, call.args])).toEqual([['read_file', { file_path: 'secret.txt' }]]);
    contents.push({ role: 'model', parts: [{ functionCall: calls[0]! }] }, { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'the secret is 42' } } }] });
    const second = await ai.models.generateContent({ model, contents, config: { tools } });
    expect(second.text).toBe('The tool said: the secret is 42');
  });
});

describe('embeddings, models, errors and scripts', () => {
  it('embeds through batchEmbedContents (the SDK) and embedContent, honouring outputDimensionality', async () => {
    const response = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: ['alpha', 'beta gamma'], config: { outputDimensionality: 8 } });
    expect(sim.requests.at(-1)!.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(response.embeddings?.map((item) => item.values)).toEqual([simulatedEmbedding('alpha', 8), simulatedEmbedding('beta gamma', 8)]);
    const full = await ai.models.embedContent({ model: 'gemini-embedding-001', contents: 'alpha' });
    expect(full.embeddings?.[0]?.values).toHaveLength(3072);
    const single = await fetch(`${sim.url}/v1beta/models/text-embedding-004:embedContent?key=${API_KEY}`, {
      method: 'POST', body: JSON.stringify({ content: { parts: [{ text: 'alpha' }] } }),
    });
    expect(((await single.json()) as { embedding: { values: number[] } }).embedding.values).toEqual(simulatedEmbedding('alpha', 768));
  });

  it('lists models with their generation methods, paging with nextPageToken', async () => {
    const names: string[] = [];
    const pager = await ai.models.list({ config: { pageSize: 2 } });
    for await (const info of pager) names.push(info.name!);
    expect(names).toEqual(['models/gemini-2.5-flash', 'models/gemini-2.5-pro', 'models/gemini-2.0-flash', 'models/gemini-embedding-001']);
    const raw = await (await fetch(`${sim.url}/v1beta/models?pageSize=1`, { headers: { 'x-goog-api-key': API_KEY } })).json();
    expect(raw).toMatchObject({ nextPageToken: '1', models: [{ name: 'models/gemini-2.5-flash', supportedGenerationMethods: expect.arrayContaining(['generateContent']) }] });
  });

  it('answers a wrong key as Google does: 400 INVALID_ARGUMENT, reason API_KEY_INVALID; no key: 403', async () => {
    const wrong = new GoogleGenAI({ apiKey: 'wrong', httpOptions: { baseUrl: sim.url } });
    const error = await wrong.models.generateContent({ model, contents: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    const body = JSON.parse((error as ApiError).message);
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }, expect.anything()] });
    const none = await fetch(`${sim.url}/v1beta/models/${model}:generateContent`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(403);
    expect(await none.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });
  });

  it('answers 400 INVALID_ARGUMENT without contents and 404 NOT_FOUND for unknown paths', async () => {
    // The SDK refuses empty contents itself, so ask without it.
    const empty = await fetch(`${sim.url}/v1beta/models/${model}:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': API_KEY }, body: '{"contents":[]}' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const unknown = await fetch(`${sim.url}/v1beta/nothing?key=${API_KEY}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('plays a scripted 429 in Google’s shape, then answers normally', async () => {
    sim.script({ status: 429 });
    const error = await ai.models.generateContent({ model, contents: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(JSON.parse((error as ApiError).message)).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
    expect((await ai.models.generateContent({ model, contents: 'x' })).text).toContain('you said "x"');
  });

  it('plays scripted replies, omitted usage, cut, malformed and unfinished streams', async () => {
    sim.script({ reply: 'exact words', omitUsage: true });
    const exact = await ai.models.generateContent({ model, contents: 'weather?', config: { tools: weatherTools } });
    expect(exact.text).toBe('exact words');
    expect(exact.usageMetadata).toBeUndefined();
    const ask = async () => collect(await ai.models.generateContentStream({ model, contents: 'x' }));
    sim.script({ cutStreamAfterChunks: 2 });
    await expect(ask()).rejects.toThrow();
    sim.script({ malformedChunkAt: 1 });
    await expect(ask()).rejects.toThrow();
    sim.script({ omitTerminator: true });
    const unfinished = await ask();
    expect(unfinished.length).toBeGreaterThan(0);
    expect(unfinished.every((chunk) => chunk.candidates?.[0]?.finishReason === undefined)).toBe(true);
  });
});

describe('model names of several segments (prefixed ids, sent unencoded by the SDK)', () => {
  it('serves generateContent, streaming, countTokens and embedContent for `google/…`', async () => {
    const prefixed = 'google/gemini-2.0-flash';
    expect((await ai.models.generateContent({ model: prefixed, contents: 'hi' })).text).toBe('Hello from the Gemini simulator: you said "hi"');
    expect(sim.requests.at(-1)!.path).toBe(`/v1beta/models/${prefixed}:generateContent`);
    const chunks = await collect(await ai.models.generateContentStream({ model: prefixed, contents: 'hi' }));
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('Hello from the Gemini simulator: you said "hi"');
    expect((await ai.models.countTokens({ model: prefixed, contents: 'one two three' })).totalTokens).toBe(3);
    const embedded = await ai.models.embedContent({ model: prefixed, contents: 'alpha', config: { outputDimensionality: 4 } });
    expect(embedded.embeddings![0]!.values).toEqual(simulatedEmbedding('alpha', 4));
  });
});

describe('URL context', () => {
  const config = { tools: [{ urlContext: {} }] };
  const asked = 'Summarise https://example.org/guide and https://down.invalid/page.';

  it('reads the URLs of the prompt with urlContext: the status of each, the pages as tool-use prompt tokens, whole and streamed', async () => {
    const response = await ai.models.generateContent({ model, contents: asked, config });
    expect(response.text).toBe('Read https://example.org/guide: the fetched page says hello. Could not read https://down.invalid/page.');
    expect(response.candidates?.[0]?.urlContextMetadata?.urlMetadata).toEqual([
      { retrievedUrl: 'https://example.org/guide', urlRetrievalStatus: UrlRetrievalStatus.URL_RETRIEVAL_STATUS_SUCCESS },
      { retrievedUrl: 'https://down.invalid/page', urlRetrievalStatus: UrlRetrievalStatus.URL_RETRIEVAL_STATUS_ERROR },
    ]);
    const usage = response.usageMetadata!;
    const pageTokens = countWords(webFetchFinding('https://example.org/guide').page);
    expect(pageTokens).toBeGreaterThan(0);
    expect(usage.toolUsePromptTokenCount).toBe(pageTokens);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount! + pageTokens);
    const chunks = await collect(await ai.models.generateContentStream({ model, contents: asked, config }));
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe(response.text);
    expect(chunks[0]!.candidates?.[0]?.urlContextMetadata).toEqual(response.candidates?.[0]?.urlContextMetadata);
    expect(chunks.slice(1).every((chunk) => chunk.candidates?.[0]?.urlContextMetadata === undefined)).toBe(true);
    expect(chunks.at(-1)!.usageMetadata?.toolUsePromptTokenCount).toBe(pageTokens);
  });

  it('reads nothing without the tool', async () => {
    const response = await ai.models.generateContent({ model, contents: asked });
    expect(response.candidates?.[0]?.urlContextMetadata).toBeUndefined();
    expect(response.usageMetadata?.toolUsePromptTokenCount).toBeUndefined();
  });
});
