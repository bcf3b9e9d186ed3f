// The usage matrix's output cap (test/e2e/usage-matrix.test.ts) where a request's limit is not just one
// field: OpenAI chat `n` choices and Gemini `candidateCount` candidates, each cut by the per-answer limit,
// so the cap is limit × count; and Bedrock, whose limit is the translated body's inferenceConfig.maxTokens.
// The upstream reports no usage throughout: the gateway counts what it delivered (gpt-tokenizer) and caps
// that by the limit of the body it sent. Then what a translation cannot do: several answers from a channel
// of another format are refused with a 400 in the caller's format, never answered with one and billed.
import OpenAI from 'openai';
import { ApiError, GoogleGenAI } from '@google/genai';
import { countTokens } from 'gpt-tokenizer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('severalanswers');
const PROMPT = 'Please tell me something about the quiet harbour town';
const PRICES = { input_per_mtok: 4, output_per_mtok: 8 };
const LIMIT = 7;
// The simulators keep LIMIT words of each answer (a token per word, as a provider stops at its own
// tokens); gpt-tokenizer counts those 7 words as 10 tokens: more than the limit, less than two limits. So
// one answer counted is 10, and only the answers counted together reach (and are capped at) count × 7.
const REPLY = 'The lighthouse keeper painted boats, nets, gulls and harbour walls under grey skies all summer long';
const CUT = REPLY.split(' ').slice(0, LIMIT).join(' ');

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
/** A second OpenAI-compatible server that continues a trailing assistant message (vLLM), for m-cut. */
let continuer: OpenAISimulator;
let gateway: TestGateway;
const POOR_KEY = testKey('severalpoor');

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  bedrockUpstream = await startBedrockSimulator();
  continuer = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['m-openai', 'm-mixed'] },
      // m-cut: tried first on 'cutter'; a stream cut there can be continued on 'continuer' (supports_prefill).
      { name: 'cutter', type: 'openai', base_url: openaiUpstream.url, api_key: 'sk-up-openai', models: ['m-cut'], priority: 1 },
      { name: 'continuer', type: 'openai', base_url: continuer.url, api_key: 'sk-up-openai', models: ['m-cut'], priority: 0, supports_prefill: true },
      // m-mixed: served by Anthropic first (higher priority) and OpenAI.
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['m-anthropic', 'm-mixed'], priority: 1, model_mapping: { 'm-anthropic': 'claude-sonnet-4-6', 'm-mixed': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['m-gemini'], model_mapping: { 'm-gemini': 'gemini-2.5-flash' } },
      { name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`, models: ['m-bedrock'], model_mapping: { 'm-bedrock': 'anthropic.claude-3-5-haiku-20241022-v1:0' } },
    ],
    models: ['m-openai', 'm-mixed', 'm-cut', 'm-anthropic', 'm-gemini', 'm-bedrock'].map((id) => ({ id, ...PRICES })),
    // pia's 5 cents cover one answer of 1,000 tokens (8,000 µUSD) but not 100 of them.
    users: [{ name: 'sam', balance: 100 }, { name: 'pia', balance: 0.05 }],
    keys: [{ name: 'several', key: KEY, user: 'sam' }, { name: 'several-poor', key: POOR_KEY, user: 'pia' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openaiUpstream?.close();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
  await bedrockUpstream?.close();
  await continuer?.close();
});

const balance = () => flushedBalance(gateway, 'sam');
const lastRow = () => lastUsageRow(gateway, 'several');

/** The last row holds a counted output of `outputTokens`, and its cost is what the wallet was charged. */
async function expectBilled(before: number, outputTokens: number) {
  const row = await lastRow();
  expect(row.status).toBe(200);
  expect(row.tokens_counted).toBe(1);
  expect(row.output_tokens).toBe(outputTokens);
  const cost = row.input_tokens * PRICES.input_per_mtok + outputTokens * PRICES.output_per_mtok;
  expect(row.cost_micros).toBe(cost);
  expect(before - (await balance())).toBe(cost);
  return row;
}

interface Answers {
  /** Each answer's text, by its index. */
  texts: string[];
  /** Each answer's finish reason, by its index. */
  finishes: (string | null | undefined)[];
  /** The usage the client was shown, or null when it was shown none. */
  usage: { input: number; output: number } | null;
}

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const gemini = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });

async function chat(model: string, stream: boolean, fields: { n?: number; max_tokens?: number }): Promise<Answers> {
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
  const answers: Answers = { texts: [], finishes: [], usage: null };
  if (!stream) {
    const completion = await openai().chat.completions.create({ model, messages, ...fields });
    for (const choice of completion.choices) {
      answers.texts[choice.index] = choice.message.content ?? '';
      answers.finishes[choice.index] = choice.finish_reason;
    }
    if (completion.usage) answers.usage = { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens };
    return answers;
  }
  for await (const chunk of await openai().chat.completions.create({ model, messages, ...fields, stream: true, stream_options: { include_usage: true } })) {
    for (const choice of chunk.choices) {
      answers.texts[choice.index] = (answers.texts[choice.index] ?? '') + (choice.delta.content ?? '');
      if (choice.finish_reason) answers.finishes[choice.index] = choice.finish_reason;
    }
    if (chunk.usage) answers.usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
  }
  return answers;
}

async function generate(model: string, stream: boolean, config: { candidateCount?: number; maxOutputTokens?: number }): Promise<Answers> {
  const answers: Answers = { texts: [], finishes: [], usage: null };
  const read = (response: { candidates?: { index?: number; content?: { parts?: { text?: string }[] }; finishReason?: string }[]; usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number } }) => {
    for (const candidate of response.candidates ?? []) {
      const index = candidate.index ?? 0;
      answers.texts[index] = (answers.texts[index] ?? '') + (candidate.content?.parts ?? []).map((part) => part.text ?? '').join('');
      if (candidate.finishReason) answers.finishes[index] = candidate.finishReason;
    }
    const meta = response.usageMetadata;
    if (meta?.candidatesTokenCount !== undefined) answers.usage = { input: meta.promptTokenCount ?? 0, output: meta.candidatesTokenCount };
  };
  if (!stream) read(await gemini().models.generateContent({ model, contents: PROMPT, config }));
  else for await (const chunk of await gemini().models.generateContentStream({ model, contents: PROMPT, config })) read(chunk);
  return answers;
}

describe('several answers, each cut by the limit: counted together, capped at limit × count', () => {
  it('the premise: one cut answer counts above the limit and below two limits', () => {
    expect(countTokens(CUT)).toBeGreaterThan(LIMIT);
    expect(countTokens(CUT)).toBeLessThan(2 * LIMIT);
  });

  it.each([false, true])('openai chat n=3, max_tokens 7 → openai channel (streamed %s): billed 21 output tokens', async (stream) => {
    openaiUpstream.script({ omitUsage: true, reply: REPLY });
    const before = await balance();
    const answers = await chat('m-openai', stream, { n: 3, max_tokens: LIMIT });
    expect(answers.texts).toEqual([CUT, CUT, CUT]);
    expect(answers.finishes).toEqual(['length', 'length', 'length']);
    // Three answers of 10 counted tokens each, capped at 3 × 7 (more than the 7 one answer could have).
    const row = await expectBilled(before, 3 * LIMIT);
    // A whole passthrough answer is the upstream's bytes (no usage); a stream client that asked for usage
    // gets the counted usage it was billed by.
    expect(answers.usage).toEqual(stream ? { input: row.input_tokens, output: 3 * LIMIT } : null);
  });

  it.each([false, true])('gemini generateContent candidateCount=2, maxOutputTokens 7 → gemini channel (streamed %s): billed 14 output tokens', async (stream) => {
    geminiUpstream.script({ omitUsage: true, reply: REPLY });
    const before = await balance();
    const answers = await generate('m-gemini', stream, { candidateCount: 2, maxOutputTokens: LIMIT });
    expect(answers.texts).toEqual([CUT, CUT]);
    expect(answers.finishes).toEqual(['MAX_TOKENS', 'MAX_TOKENS']);
    expect(answers.usage).toBeNull();
    await expectBilled(before, 2 * LIMIT);
  });

  it('gemini REST body in snake_case (generation_config.candidate_count 2, max_output_tokens 7): capped at 14 too', async () => {
    geminiUpstream.script({ omitUsage: true, reply: REPLY });
    const before = await balance();
    const response = await fetch(`${gateway.url}/v1beta/models/m-gemini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generation_config: { candidate_count: 2, max_output_tokens: LIMIT } }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(answer.candidates.map((candidate) => candidate.content.parts.map((part) => part.text).join(''))).toEqual([CUT, CUT]);
    await expectBilled(before, 2 * LIMIT);
  });

  it.each([false, true])('openai chat max_tokens 7 → bedrock channel (streamed %s): the translated inferenceConfig.maxTokens caps the count at 7', async (stream) => {
    bedrockUpstream.script({ omitUsage: true, reply: REPLY });
    const before = await balance();
    const answers = await chat('m-bedrock', stream, { max_tokens: LIMIT });
    expect(bedrockUpstream.requests.at(-1)!.body).toMatchObject({ inferenceConfig: { maxTokens: LIMIT } });
    expect(answers.texts).toEqual([CUT]);
    expect(answers.finishes).toEqual(['length']);
    const row = await expectBilled(before, LIMIT);
    // A translated answer shows the usage it is billed by.
    expect(answers.usage).toEqual({ input: row.input_tokens, output: LIMIT });
  });
});

// A translation answers one: the hub carries one answer. Answering one of the n asked for (and billing
// one) would leave the client reading choices that never came; it is refused before anything is sent or
// charged, and a model that also has a channel of the client's format is served there.
describe('several answers from a channel of another format: refused', () => {
  const refusedCalls = async (call: () => Promise<unknown>) => {
    const before = await balance();
    const sentBefore = anthropicUpstream.requests.length + bedrockUpstream.requests.length + openaiUpstream.requests.length + geminiUpstream.requests.length;
    const error = await call().then(() => null, (caught: unknown) => caught);
    expect(anthropicUpstream.requests.length + bedrockUpstream.requests.length + openaiUpstream.requests.length + geminiUpstream.requests.length).toBe(sentBefore);
    expect(await balance()).toBe(before);
    const row = await lastRow();
    expect(row).toMatchObject({ status: 400, cost_micros: 0 });
    return error;
  };

  it.each(['m-anthropic', 'm-gemini', 'm-bedrock'].flatMap((model) => [false, true].map((stream) => ({ model, stream }))))('openai chat n=3 → $model (streamed $stream): 400 naming n, in OpenAI\'s shape', async ({ model, stream }) => {
    const error = await refusedCalls(() => chat(model, stream, { n: 3, max_tokens: LIMIT }));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'n', code: 'unsupported_for_model' });
    expect((error as Error).message).toContain(`'${model}'`);
  });

  it.each(['m-anthropic', 'm-openai', 'm-bedrock'])('gemini generateContent candidateCount=2 → %s: 400 INVALID_ARGUMENT naming candidateCount, in Google\'s shape', async (model) => {
    const error = await refusedCalls(() => generate(model, false, { candidateCount: 2, maxOutputTokens: LIMIT }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    const body = JSON.parse((error as ApiError).message) as { error: { status: string; message: string } };
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    expect(body.error.message).toContain('generationConfig.candidateCount');
  });

  it('one answer asked for (n=1) still goes to an Anthropic channel', async () => {
    const answers = await chat('m-anthropic', false, { n: 1, max_tokens: 100 });
    expect(answers.texts).toHaveLength(1);
    expect(answers.texts[0]).toContain('simulator: you said');
  });

  it.each([false, true])('a model served by an Anthropic channel first and an OpenAI channel: n=3 is answered by the OpenAI one, n=1 by the Anthropic one (streamed %s)', async (stream) => {
    const openaiBefore = openaiUpstream.requests.length;
    const anthropicBefore = anthropicUpstream.requests.length;
    const several = await chat('m-mixed', stream, { n: 3, max_tokens: 100 });
    expect(several.texts).toHaveLength(3);
    expect(new Set(several.texts).size).toBe(1);
    expect(several.texts[0]).toContain('Hello from the OpenAI simulator');
    expect([openaiUpstream.requests.length - openaiBefore, anthropicUpstream.requests.length - anthropicBefore]).toEqual([1, 0]);
    const one = await chat('m-mixed', stream, { max_tokens: 100 });
    expect(one.texts).toEqual([expect.stringContaining('Hello from the Anthropic simulator')]);
    expect(anthropicUpstream.requests.length - anthropicBefore).toBe(1);
  });
});

// The wallet is reserved before the call for what it may cost: every answer asked for may run to the limit.
describe('the reservation covers every answer asked for', () => {
  const ask = (n: number) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: POOR_KEY, maxRetries: 0 })
    .chat.completions.create({ model: 'm-openai', n, max_tokens: 1000, messages: [{ role: 'user', content: PROMPT }] });

  it('n=100 × max_tokens 1000 is refused 429 insufficient_quota before anything is sent, where n=1 is served', async () => {
    const sentBefore = openaiUpstream.requests.length;
    const error = await ask(100).then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(openaiUpstream.requests.length).toBe(sentBefore);
    const one = await ask(1);
    expect(one.choices).toHaveLength(1);
    expect(openaiUpstream.requests.length).toBe(sentBefore + 1);
  });

  it('an absurd candidateCount (2^53 − 1) × maxOutputTokens is refused 429 in Google\'s shape, not a 5xx, nothing sent', async () => {
    const sentBefore = geminiUpstream.requests.length;
    const response = await fetch(`${gateway.url}/v1beta/models/m-gemini:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generationConfig: { candidateCount: Number.MAX_SAFE_INTEGER, maxOutputTokens: 8192 } }),
    });
    expect(response.status).toBe(429);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe('RESOURCE_EXHAUSTED');
    expect(geminiUpstream.requests.length).toBe(sentBefore);
  });

  it('legacy completions: n=10 or best_of=20 (generated and billed upstream) × max_tokens 1000 is refused, n=1 served', async () => {
    const complete = (fields: { n?: number; best_of?: number }) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: POOR_KEY, maxRetries: 0 })
      .completions.create({ model: 'm-openai', prompt: PROMPT, max_tokens: 1000, ...fields });
    const sentBefore = openaiUpstream.requests.length;
    for (const fields of [{ n: 10 }, { best_of: 20 }]) {
      const error = await complete(fields).then(() => null, (caught: unknown) => caught);
      expect(error).toMatchObject({ status: 429, code: 'insufficient_quota' });
    }
    expect(openaiUpstream.requests.length).toBe(sentBefore);
    const one = await complete({});
    expect(one.choices).toHaveLength(1);
    expect(openaiUpstream.requests.length).toBe(sentBefore + 1);
  });
});

// A stream of several answers interleaves them; what reached the client is their texts mixed, so a cut
// is not continued elsewhere (a prefill of that mixture would be continued as one answer).
describe('a cut stream of several answers is not continued elsewhere', () => {
  async function cutStream(n: number): Promise<string> {
    openaiUpstream.script({ cutStreamAfterChunks: 4, chunkDelayMs: 30 });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm-cut', n, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  it('n=2: ends with an error event, no continuation asked of the other channel, charged for what was delivered', async () => {
    const continuerBefore = continuer.requests.length;
    const text = await cutStream(2);
    expect(text).toContain('data: {"error":');
    expect(text).not.toContain('[DONE]');
    expect(continuer.requests.length).toBe(continuerBefore);
    const row = await lastRow();
    expect(row.error).toContain('failed midway');
    expect(row.attempts_json ?? '').not.toContain('continu');
    expect(row.output_tokens).toBeGreaterThan(0);
  });

  it('n=1, the same cut: continued on the other channel (the control)', async () => {
    const continuerBefore = continuer.requests.length;
    const text = await cutStream(1);
    expect(text).not.toContain('"error"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(continuer.requests.length).toBe(continuerBefore + 1);
    const row = await lastRow();
    expect(JSON.parse(row.attempts_json!).map((attempt: { outcome: string }) => attempt.outcome)).toEqual(['ok', 'continued']);
  });
});
