// Issue 28 item 3: thinking across providers, from @anthropic-ai/sdk as Claude Code sends it. Each provider's
// signatures go back to it byte for byte; another provider's are left out (the text and tool calls stay), so
// switching models in the middle of a tool loop gets an answer, not a 400; a budget under Anthropic's minimum
// is raised.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { geminiThoughtSignature } from '../simulators/gemini-simulator-generate.ts';
import { thinkingSignature } from '../simulators/simulator-answers.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';

const KEY = testKey('thinkingagent');
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let bedrockUpstream: BedrockSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  bedrockUpstream = await startBedrockSimulator();
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-up'], model_mapping: { 'gemini-up': 'gemini-2.5-flash' } },
      {
        name: 'bedrock', type: 'bedrock', base_url: bedrockUpstream.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`,
        models: ['bedrock-claude'], model_mapping: { 'bedrock-claude': 'us.anthropic.claude-sonnet-4-20250514-v1:0' },
      },
    ],
    models: [{ id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 }, { id: 'gemini-up', input_per_mtok: 0.3, output_per_mtok: 2.5 }, { id: 'bedrock-claude', input_per_mtok: 3, output_per_mtok: 15 }],
    users: [{ name: 'kim', balance: 100 }],
    keys: [{ name: 'agent', key: KEY, user: 'kim' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
  await bedrockUpstream?.close();
});

beforeEach(() => {
  anthropicUpstream.reset();
  geminiUpstream.reset();
});

const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const tools: Anthropic.Tool[] = [{ name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
const thinking = { type: 'enabled' as const, budget_tokens: 2048 };
const ask: Anthropic.MessageParam = { role: 'user', content: 'What is the weather in Paris?' };
const THOUGHT = 'Thinking about "What is the weather in Paris?".';

/** A first turn on `model` that thinks and calls the tool, streamed, and the history to continue it with. */
async function toolTurn(model: string): Promise<{ first: Anthropic.Message; history: Anthropic.MessageParam[] }> {
  const first = await client().messages.stream({ model, max_tokens: 4096, thinking, tools, messages: [ask] }).finalMessage();
  const call = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock;
  expect(call).toBeDefined();
  return { first, history: [ask, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] }] };
}

describe('thinking across providers', () => {
  it('Gemini thinking reaches the Anthropic client as a thinking block whose signature goes back to Gemini byte for byte', async () => {
    const { first, history } = await toolTurn('gemini-up');
    // Marked as Gemini's for the client, which sends it back as it got it.
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: `gwsig:google:${geminiThoughtSignature(THOUGHT)}` });
    const second = await client().messages.create({ model: 'gemini-up', max_tokens: 4096, thinking, tools, messages: history });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: sunny' });
    const sent = geminiUpstream.requests.at(-1)!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(sent.contents[1]!.parts[0]).toEqual({ text: THOUGHT, thought: true, thoughtSignature: geminiThoughtSignature(THOUGHT) });
  });

  it('switching from Gemini to Claude mid tool loop: Gemini\'s thinking is left out, thinking is off for that turn, and Claude answers', async () => {
    const { history } = await toolTurn('gemini-up');
    const second = await client().messages.create({ model: 'claude-up', max_tokens: 4096, thinking, tools, messages: history });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: sunny' });
    const sent = anthropicUpstream.requests.at(-1)!.body as { thinking?: unknown; messages: { role: string; content: { type: string }[] }[] };
    expect(sent.messages[1]!.content.map((block) => block.type)).toEqual(['tool_use']);
    expect(sent.thinking).toBeUndefined();
  });

  it('switching from Gemini to Claude on Bedrock mid tool loop: thinking is off for that turn, and Claude answers', async () => {
    const { history } = await toolTurn('gemini-up');
    const second = await client().messages.create({ model: 'bedrock-claude', max_tokens: 4096, thinking, tools, messages: history });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: sunny' });
    const sent = bedrockUpstream.requests.at(-1)!.body as { additionalModelRequestFields?: Record<string, unknown>; messages: { role: string; content: Record<string, unknown>[] }[] };
    expect(sent.additionalModelRequestFields?.thinking).toBeUndefined();
    expect(Object.keys(sent.messages[1]!.content[0]!)).toEqual(['toolUse']);
  });

  it('Claude\'s signature goes back to Claude byte for byte, and is left out for Gemini after a switch', async () => {
    const { first, history } = await toolTurn('claude-up');
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: thinkingSignature(THOUGHT) });
    await client().messages.create({ model: 'claude-up', max_tokens: 4096, thinking, tools, messages: history });
    const toClaude = anthropicUpstream.requests.at(-1)!.body as { messages: { content: Record<string, unknown>[] }[] };
    expect(toClaude.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: THOUGHT, signature: thinkingSignature(THOUGHT) });

    const toGemini = await client().messages.create({ model: 'gemini-up', max_tokens: 4096, thinking, tools, messages: history });
    expect(toGemini.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: sunny' });
    const sent = geminiUpstream.requests.at(-1)!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(sent.contents[1]!.parts.some((part) => part.thought === true || part.thoughtSignature === thinkingSignature(THOUGHT))).toBe(false);
    expect(sent.contents[1]!.parts[0]).toMatchObject({ functionCall: { name: 'read_file' } });
  });

  it('a thinking budget under Anthropic\'s minimum is raised, not refused: from the Anthropic SDK and from @google/genai', async () => {
    const message = await client().messages.create({ model: 'claude-up', max_tokens: 600, thinking: { type: 'enabled', budget_tokens: 200 }, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the Anthropic simulator: you said "Hello there"' });
    expect(anthropicUpstream.requests.at(-1)!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1025 });

    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const answer = await google.models.generateContent({ model: 'claude-up', contents: 'Hello there', config: { thinkingConfig: { thinkingBudget: 100, includeThoughts: true } } });
    expect(answer.text).toBe('Hello from the Anthropic simulator: you said "Hello there"');
    expect((anthropicUpstream.requests.at(-1)!.body as { thinking: unknown }).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('a Gemini client switching from Claude back to Gemini: Claude\'s thought parts are left out of the passthrough, not refused', async () => {
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const config = { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } };
    const first = await google.models.generateContent({ model: 'claude-up', contents: 'Hello there', config });
    const parts = first.candidates![0]!.content!.parts!;
    expect(parts[0]).toEqual({ text: THOUGHT.replace('What is the weather in Paris?', 'Hello there'), thought: true, thoughtSignature: `gwsig:anthropic:${thinkingSignature(THOUGHT.replace('What is the weather in Paris?', 'Hello there'))}` });
    const history = [{ role: 'user', parts: [{ text: 'Hello there' }] }, first.candidates![0]!.content!, { role: 'user', parts: [{ text: 'And now?' }] }];

    const second = await google.models.generateContent({ model: 'gemini-up', contents: history, config });
    expect(second.text).toBe('Hello from the Gemini simulator: you said "And now?"');
    expect(second.sdkHttpResponse?.headers?.['x-gateway-warnings']).toBe('thought parts dropped: another provider signed them, and Gemini takes back only its own');
    const sent = geminiUpstream.requests.at(-1)!.body as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    expect(sent.contents[1]!.parts).toEqual([{ text: 'Hello from the Anthropic simulator: you said "Hello there"' }]);
    // Streamed the same way.
    const chunks = [];
    for await (const chunk of await google.models.generateContentStream({ model: 'gemini-up', contents: history, config })) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toContain('you said "And now?"');
  });
});
