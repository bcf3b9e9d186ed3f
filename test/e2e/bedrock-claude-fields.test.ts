// Claude's own fields on a `bedrock` channel: top_k and extended thinking travel in Converse's
// additionalModelRequestFields (the simulator refuses them for other models and checks Anthropic's rules),
// and the signed reasoning comes back as the client's thinking, which the simulator insists on getting back,
// signature intact, when a tool call made while thinking is answered.
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import type { TestGateway } from '../helpers/test-gateway.ts';
import { KEY, MODEL, startBedrockGateway, type BedrockGateway } from '../helpers/bedrock-gateway.ts';

let sim: BedrockSimulator;
let gateway: TestGateway;
let running: BedrockGateway | undefined;

beforeAll(async () => {
  running = await startBedrockGateway();
  ({ sim, gateway } = running);
});
afterAll(() => running?.dispose());

const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Current weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const thinking = { type: 'enabled' as const, budget_tokens: 1024 };
type Sent = { additionalModelRequestFields?: unknown; inferenceConfig?: unknown; messages: { role: string; content: Record<string, unknown>[] }[] };
const lastSent = () => sim.requests.at(-1)!.body as Sent;

describe('Claude fields on Bedrock', () => {
  it('thinks with the Anthropic SDK and answers a tool call with the signed thinking sent back (whole, then streamed)', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris?' }];
    const first = await anthropic().messages.create({ model: MODEL, max_tokens: 2000, thinking, tools, messages });
    expect(lastSent().additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(lastSent().inferenceConfig).toEqual({ maxTokens: 2000 });
    expect(first.content[0]).toEqual({ type: 'thinking', thinking: 'Thinking about "What is the weather in Paris?".', signature: expect.any(String) });
    expect(first.content[1]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content[1] as Anthropic.ToolUseBlock;
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'sunny' }] });
    const second = await anthropic().messages.stream({ model: MODEL, max_tokens: 2000, thinking, tools, messages }).finalMessage();
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: sunny' });
    // The simulator checked the signature; the history reached Converse as reasoningContent before the toolUse.
    expect(lastSent().messages[1]!.content[0]).toEqual({ reasoningContent: { reasoningText: { text: 'Thinking about "What is the weather in Paris?".', signature: (first.content[0] as Anthropic.ThinkingBlock).signature } } });
  });

  it('streams the thinking and its signature, and the tool call made while thinking is answered whole', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Rome?' }];
    const first = await anthropic().messages.stream({ model: MODEL, max_tokens: 3000, thinking, tools, messages }).finalMessage();
    expect(sim.requests.at(-1)!.path).toMatch(/converse-stream$/);
    const reasoning = first.content[0] as Anthropic.ThinkingBlock;
    expect([reasoning.type, reasoning.thinking]).toEqual(['thinking', 'Thinking about "What is the weather in Rome?".']);
    expect(reasoning.signature.length).toBeGreaterThan(10);
    const call = first.content.find((block) => block.type === 'tool_use') as Anthropic.ToolUseBlock;
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'rainy' }] });
    const second = await anthropic().messages.create({ model: MODEL, max_tokens: 3000, thinking, tools, messages });
    expect(second.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: rainy' });
  });

  it('sends top_k from the Anthropic and Google clients as Claude\'s top_k', async () => {
    // This SDK's types no longer list top_k (Anthropic still takes it): sent as a raw field.
    const withTopK = { model: MODEL, max_tokens: 50, top_k: 7, messages: [{ role: 'user' as const, content: 'Hello there' }] };
    await anthropic().messages.create(withTopK as Anthropic.MessageCreateParamsNonStreaming);
    expect(lastSent().additionalModelRequestFields).toEqual({ top_k: 7 });
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const answer = await google.models.generateContent({ model: MODEL, contents: 'Hello there', config: { topK: 12, temperature: 0.5 } });
    expect(answer.text).toContain('Hello there');
    expect(lastSent().additionalModelRequestFields).toEqual({ top_k: 12 });
    expect(lastSent().inferenceConfig).toEqual({ temperature: 0.5 });
  });
});
