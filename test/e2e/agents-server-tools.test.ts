// Issue 28 item 5: Claude Code offers Anthropic's web_search (and web_fetch) server tools among its function
// tools. Served where the upstream has its own (Gemini 3: googleSearch and urlContext, next to the function
// tools; a Gemini client's googleSearch becomes Anthropic's web_search), left out elsewhere, and one tool
// that exists on one provider only never fails the agent.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import type { GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';

const KEY = testKey('servertools');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'val', balance: 100 }, key: { name: 'agent', key: KEY }, geminiModels: { 'gemini-3-up': 'gemini-3-flash-preview', 'gemini-25-up': 'gemini-2.5-flash' } });
  ({ openai: openaiUpstream, anthropic: anthropicUpstream, gemini: geminiUpstream, gateway } = families);
});

afterAll(async () => {
  await families?.close();
});

beforeEach(() => families.reset());

const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const tools: Anthropic.ToolUnion[] = [
  { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  { type: 'web_fetch_20250910', name: 'web_fetch' },
];
const ask = (model: string) => client().messages.create({ model, max_tokens: 200, tools, messages: [{ role: 'user', content: 'Hello there' }] });
type GeminiBody = { tools: Record<string, unknown>[] };

describe('web server tools from Claude Code', () => {
  it('a Gemini 3 channel serves them with googleSearch and urlContext, next to the function tools', async () => {
    const message = await ask('gemini-3-up');
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the Gemini simulator: you said "Hello there"' });
    const sent = geminiUpstream.requests.at(-1)!.body as GeminiBody;
    expect(sent.tools).toEqual([
      { functionDeclarations: [{ name: 'read_file', description: 'Reads a file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } }] },
      { googleSearch: {} },
      { urlContext: {} },
    ]);
  });

  it('a Gemini 2.5 channel, which cannot mix them with function calling, gets the function tools only and answers', async () => {
    const message = await ask('gemini-25-up');
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the Gemini simulator: you said "Hello there"' });
    const sent = geminiUpstream.requests.at(-1)!.body as GeminiBody;
    expect(sent.tools.map((tool) => Object.keys(tool))).toEqual([['functionDeclarations']]);
  });

  it('an OpenAI channel gets the function tools only and answers; the warnings header names both tools removed', async () => {
    const { data: message, response } = await ask('gpt-up').withResponse();
    const warnings = response.headers.get('x-gateway-warnings') ?? '';
    expect(warnings).toContain('web_search dropped: removed: the provider runs this tool on its own servers');
    expect(warnings).toContain('web_fetch dropped: removed: the provider runs this tool on its own servers, and OpenAI chat has no fetch tool');
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the OpenAI simulator: you said "Hello there"' });
    const sent = openaiUpstream.requests.at(-1)!.body as { tools: { type: string; function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['read_file']);
  });

  it('an Anthropic channel gets them as sent; a Gemini client\'s googleSearch reaches it as web_search', async () => {
    await ask('claude-up');
    expect((anthropicUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual(tools);

    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const answer = await google.models.generateContent({ model: 'claude-up', contents: 'Hello there', config: { tools: [{ googleSearch: {} }] } });
    expect(answer.text).toBe('Hello from the Anthropic simulator: you said "Hello there"');
    expect((anthropicUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
  });
});
