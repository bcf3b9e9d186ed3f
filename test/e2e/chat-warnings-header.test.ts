// x-gateway-warnings on every chat route: whenever the gateway leaves out or changes something the client
// asked for on /v1/chat/completions, /v1/messages or Gemini's generateContent, the answer (whole or streamed)
// names each change; an answer the gateway changed nothing in has no such header. Read through the official
// SDKs' own access to the response headers.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testKey } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';
import { thinkingSignature } from '../simulators/simulator-answers.ts';

const KEY = testKey('chatwarnings');
let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'wes', balance: 100 }, key: { name: 'agent', key: KEY } });
});

afterAll(async () => {
  await families?.close();
});

beforeEach(() => families.reset());

const openai = () => new OpenAI({ baseURL: `${families.gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: families.gateway.url, apiKey: KEY, maxRetries: 0 });
const google = () => new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: families.gateway.url } });

describe('OpenAI chat completions', () => {
  const body = { messages: [{ role: 'user' as const, content: 'Hello there' }], frequency_penalty: 0.5, seed: 7 };

  it.each([false, true])('to an Anthropic channel names the parameters Anthropic has no place for (stream: %s)', async (stream) => {
    const { response } = stream
      ? await openai().chat.completions.create({ model: 'claude-up', ...body, stream: true }).withResponse()
      : await openai().chat.completions.create({ model: 'claude-up', ...body }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-warnings')).toBe('frequency_penalty dropped: Anthropic has no frequency penalty.; seed dropped: Anthropic has no seed.');
    const sent = families.anthropic.requests.at(-1)!.body as Record<string, unknown>;
    expect(sent).not.toHaveProperty('seed');
  });

  it('to a channel of its own format changes nothing and says nothing', async () => {
    const { response } = await openai().chat.completions.create({ model: 'gpt-up', ...body }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBeNull();
    expect((families.openai.requests.at(-1)!.body as Record<string, unknown>).seed).toBe(7);
  });
});

describe('Anthropic Messages', () => {
  const tools: Anthropic.ToolUnion[] = [
    { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
    { type: 'code_execution_20250825', name: 'code_execution' },
  ];
  const body = { max_tokens: 200, tools, messages: [{ role: 'user' as const, content: 'Hello there' }] };

  it.each([false, true])('to an OpenAI channel names the server tools it removed (stream: %s)', async (stream) => {
    const { response } = stream
      ? await anthropic().messages.create({ model: 'gpt-up', ...body, stream: true }).withResponse()
      : await anthropic().messages.create({ model: 'gpt-up', ...body }).withResponse();
    expect(response.status).toBe(200);
    const warnings = response.headers.get('x-gateway-warnings')!;
    expect(warnings.split('; ')).toEqual([
      'code_execution_20250825 dropped: removed: a server tool of the anthropic-messages request, which openai-chat has no equivalent of.',
      'web_search dropped: removed: the provider runs this tool on its own servers, and OpenAI chat has no search tool the gateway serves it with.',
    ]);
    const sent = families.openai.requests.at(-1)!.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['read_file']);
  });

  it('to an Anthropic channel: thinking another provider signed is left out, and the header says so', async () => {
    // A turn a Gemini model answered with thinking, which the gateway signed as Gemini's: then back to Claude.
    const foreign = `gwsig:google:${thinkingSignature('elsewhere')}`;
    const { response } = await anthropic().messages.create({
      model: 'claude-up', max_tokens: 2000, messages: [
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: foreign }, { type: 'text', text: 'Hi.' }] },
        { role: 'user', content: 'And now?' },
      ],
    }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-warnings')).toBe('thinking blocks dropped: another provider signed them, and Anthropic takes back only its own');
    const sent = families.anthropic.requests.at(-1)!.body as { messages: { content: unknown }[] };
    expect(sent.messages[1]!.content).toEqual([{ type: 'text', text: 'Hi.' }]);
  });

  it('to an Anthropic channel, as sent: no header', async () => {
    const { response } = await anthropic().messages.create({ model: 'claude-up', ...body }).withResponse();
    expect(response.headers.get('x-gateway-warnings')).toBeNull();
  });
});

describe('Gemini generateContent', () => {
  it.each([false, true])('to an OpenAI channel names googleSearch removed and what else it changed (stream: %s)', async (stream) => {
    const params = { model: 'gpt-up', contents: 'Hello there', config: { tools: [{ googleSearch: {} }], topK: 3 } };
    let headers: Record<string, string> | undefined;
    if (stream) {
      for await (const chunk of await google().models.generateContentStream(params)) headers ??= chunk.sdkHttpResponse?.headers;
    } else headers = (await google().models.generateContent(params)).sdkHttpResponse?.headers;
    expect(headers?.['x-gateway-warnings']).toBe('top_k dropped: OpenAI chat has no top_k sampling parameter.; web_search dropped: removed: the provider runs this tool on its own servers, and OpenAI chat has no search tool the gateway serves it with.');
    expect(families.openai.requests.at(-1)!.body).not.toHaveProperty('tools');
  });

  it('to a Gemini channel: no header', async () => {
    const answer = await google().models.generateContent({ model: 'gemini-up', contents: 'Hello there', config: { tools: [{ googleSearch: {} }] } });
    expect(answer.sdkHttpResponse?.headers?.['x-gateway-warnings']).toBeUndefined();
  });
});
