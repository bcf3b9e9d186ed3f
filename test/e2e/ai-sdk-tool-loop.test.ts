// The Vercel AI SDK's default OpenAI provider (the Responses API, `store` on) running a two-step tool loop
// through the gateway: step one answers with text and a tool call, the SDK runs the tool, and step two
// sends the earlier text back as an `item_reference` with the tool's result. On an Anthropic or Gemini
// channel the gateway resolves the reference from its own store; on an OpenAI channel it relays it to the
// upstream that keeps the item. Either way step two must succeed and answer from the tool's result.
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('aisdkloop');
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let openai: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-ant-aisdk' });
  gemini = await startGeminiSimulator({ apiKey: 'gemini-aisdk' });
  openai = await startOpenAISimulator({ apiKey: 'sk-openai-aisdk' });
  gateway = await startTestGateway({
    channels: [
      { name: 'claude', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-ant-aisdk', models: ['claude-x'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'gemini-aisdk', models: ['gemini-x'] },
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-openai-aisdk', models: ['gpt-x'] },
    ],
    models: [{ id: 'claude-x', free: true }, { id: 'gemini-x', free: true }, { id: 'gpt-x', free: true }],
    users: [{ name: 'dev', balance: 10 }],
    keys: [{ name: 'app', key: KEY, user: 'dev' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropic?.close();
  await gemini?.close();
  await openai?.close();
});

describe.each([
  { channel: 'Anthropic', model: 'claude-x' },
  { channel: 'Gemini', model: 'gemini-x' },
  { channel: 'OpenAI', model: 'gpt-x' },
])('ai SDK two-step tool loop through a $channel channel', ({ model }) => {
  it('runs the tool and answers from its result in step two, which references step one by item id', async () => {
    const sent: Record<string, unknown>[] = [];
    const answers: { output: { id: string; type: string }[] }[] = [];
    const provider = createOpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: KEY,
      fetch: async (input, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
        const response = await fetch(input, init);
        answers.push(await response.clone().json() as (typeof answers)[number]);
        return response;
      },
    });
    const cities: string[] = [];
    const result = await generateText({
      model: provider(model),
      prompt: '(announce) What is the weather in Paris?',
      tools: {
        get_weather: tool({
          description: 'The weather in a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            cities.push(city);
            return `Sunny in ${city}`;
          },
        }),
      },
      stopWhen: stepCountIs(2),
    });

    expect(cities).toEqual(['Paris']);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.text).toBe('Let me look that up.');
    expect(result.steps[1]!.finishReason).toBe('stop');
    expect(result.text).toBe('The tool said: Sunny in Paris');
    // The SDK kept the default (store on) and sent step one's text back by reference.
    expect(sent).toHaveLength(2);
    const secondInput = sent[1]!.input as { type?: string; id?: string }[];
    const reference = secondInput.find((item) => item.type === 'item_reference');
    expect(answers[0]!.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(reference?.id).toBe(answers[0]!.output[0]!.id);
    expect(secondInput.some((item) => item.type === 'function_call_output')).toBe(true);
  });

  it('does the same streamed: step two references step one the moment its stream ends', async () => {
    const sent: Record<string, unknown>[] = [];
    const provider = createOpenAI({
      baseURL: `${gateway.url}/v1`,
      apiKey: KEY,
      fetch: async (input, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
        return fetch(input, init);
      },
    });
    const result = streamText({
      model: provider(model),
      prompt: '(announce) What is the weather in Lyon?',
      tools: {
        get_weather: tool({ description: 'The weather in a city', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `Rainy in ${city}` }),
      },
      stopWhen: stepCountIs(2),
    });
    expect(await result.text).toBe('The tool said: Rainy in Lyon');
    const steps = await result.steps;
    expect(steps[0]!.text).toBe('Let me look that up.');
    expect(steps.map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(sent.map((body) => body.stream)).toEqual([true, true]);
    expect((sent[1]!.input as { type?: string }[]).some((item) => item.type === 'item_reference')).toBe(true);
  });
});
