// Issue 28: Claude Code puts `role: "system"` messages inside `messages` for models it does not know, as the
// current Messages API allows. @anthropic-ai/sdk → the gateway → an OpenAI, a Gemini and an Anthropic channel:
// each upstream gets the instruction where its format wants it, and the client gets its answer.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import type { GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';

const KEY = testKey('agentsystem');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'sam', balance: 100 }, key: { name: 'agent', key: KEY } });
  ({ openai: openaiUpstream, anthropic: anthropicUpstream, gemini: geminiUpstream, gateway } = families);
});

afterAll(async () => {
  await families?.close();
});

beforeEach(() => families.reset());

const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });

/** A conversation shaped as Claude Code sends it to a model it does not know: a system reminder between turns. */
const conversation: Anthropic.MessageParam[] = [
  { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }] },
  { role: 'user', content: 'List the files' },
  { role: 'assistant', content: 'There are two files.' },
  { role: 'system', content: 'Reminder: answer briefly.' },
  { role: 'user', content: 'Hello there' },
];

describe('system messages inside messages, from @anthropic-ai/sdk', () => {
  it('reach an OpenAI channel as system messages at their place', async () => {
    const message = await client().messages.create({ model: 'gpt-up', max_tokens: 100, system: 'Top prompt.', messages: conversation });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the OpenAI simulator: you said "Hello there"' });
    const sent = openaiUpstream.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', [{ type: 'text', text: 'Top prompt.' }, { type: 'text', text: 'You are a coding agent.' }]],
      ['user', 'List the files'],
      ['assistant', 'There are two files.'],
      ['system', 'Reminder: answer briefly.'],
      ['user', 'Hello there'],
    ]);
  });

  it('reach a Gemini channel folded into systemInstruction, streamed', async () => {
    const message = await client().messages.stream({ model: 'gemini-up', max_tokens: 100, messages: conversation }).finalMessage();
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the Gemini simulator: you said "Hello there"' });
    const sent = geminiUpstream.requests.at(-1)!.body as { systemInstruction: { parts: { text: string }[] }; contents: { role: string }[] };
    expect(sent.systemInstruction.parts.map((part) => part.text)).toEqual(['You are a coding agent.', 'Reminder: answer briefly.']);
    expect(sent.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });

  it('reach an Anthropic channel as sent (the Messages API takes them)', async () => {
    const message = await client().messages.create({ model: 'claude-up', max_tokens: 100, messages: conversation });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the Anthropic simulator: you said "Hello there"' });
    const sent = anthropicUpstream.requests.at(-1)!.body as { messages: unknown[] };
    expect(sent.messages).toEqual(conversation);
  });

  it('refuse a non-text block in a system message with a 400 in Anthropic\'s shape, nothing sent', async () => {
    const bad = [
      { role: 'user', content: 'hi' },
      { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }] },
    ] as unknown as Anthropic.MessageParam[];
    const error = await client().messages.create({ model: 'gpt-up', max_tokens: 100, messages: bad }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((error as Error).message).toContain('messages[1].content[0]');
    expect(openaiUpstream.requests).toHaveLength(0);
  });
});
