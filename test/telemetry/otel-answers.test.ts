// How an answer ended, and (with content capture on) what it said, on the call's span: the official SDKs
// call the gateway, which exports to an in-process OTLP receiver. `gen_ai.response.finish_reasons` comes from
// the format's own watcher for a passed-through answer (OpenAI chat whole and streamed, Anthropic Messages,
// the Responses API) and from the hub for a translated one; `gen_ai.output.messages` holds the delivered
// text, credential-shaped strings redacted and cut to 8 KB, only because this gateway turns capture on.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';

const KEY = testKey('otelanswers');
let openai: OpenAISimulator;
let anthropic: AnthropicSimulator;
let receiver: OtlpReceiver;
let gateway: TestGateway;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-answers-openai' });
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-answers-anthropic' });
  receiver = await startOtlpReceiver();
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-answers-openai', models: ['gpt-4o-mini'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-answers-anthropic', models: ['claude-sonnet-4-6'] },
    ],
    models: [{ id: 'gpt-4o-mini', free: true }, { id: 'claude-sonnet-4-6', free: true }],
    users: [{ name: 'olly', balance: 10 }],
    keys: [{ name: 'olly-key', key: KEY, user: 'olly' }],
  }, {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '20', OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' },
  });
});
afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await anthropic?.close();
  await receiver?.close();
});

async function callSpan(requestId: string | null): Promise<ReceivedSpan> {
  const spans = await receiver.waitFor((all) => all.some((span) => span.attributes['gateway.request_id'] === requestId));
  return spans.find((span) => span.attributes['gateway.request_id'] === requestId)!;
}

/** The captured answer: the one assistant message's text and finish reason. */
function outputOf(span: ReceivedSpan): { text: string; finishReason: string } {
  const messages = JSON.parse(String(span.attributes['gen_ai.output.messages'])) as { role: string; parts: { type: string; content: string }[]; finish_reason: string }[];
  expect(messages).toHaveLength(1);
  expect(messages[0]!.role).toBe('assistant');
  return { text: messages[0]!.parts.map((part) => part.content).join(''), finishReason: messages[0]!.finish_reason };
}

const openaiClient = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

describe('passed-through answers', () => {
  it('OpenAI chat, whole and cut by max_tokens: the choice\'s finish reason and the text the client got', async () => {
    const { data: answer, response } = await openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Tell me a long story about whales' }], max_tokens: 3 }).withResponse();
    const span = await callSpan(response.headers.get('x-request-id'));
    expect(answer.choices[0]!.finish_reason).toBe('length');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['length']);
    expect(outputOf(span)).toEqual({ text: answer.choices[0]!.message.content, finishReason: 'length' });
  });

  it('OpenAI chat, streamed: the finish reason of the last chunk and the streamed text', async () => {
    const { data: stream, response } = await openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], stream: true }).withResponse();
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    const span = await callSpan(response.headers.get('x-request-id'));
    expect(finish).toBe('stop');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(outputOf(span)).toEqual({ text, finishReason: 'stop' });
  });

  it("Anthropic Messages, streamed: Anthropic's own stop reason", async () => {
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 200, messages: [{ role: 'user', content: 'Say hello' }] });
    const message = await stream.finalMessage();
    const requestId = (await stream.withResponse()).response.headers.get('x-request-id');
    const span = await callSpan(requestId);
    expect(message.stop_reason).toBe('end_turn');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    expect(outputOf(span).text).toBe((message.content[0] as { text: string }).text);
  });

  it('the Responses API, whole: the answer read by the Responses watcher', async () => {
    const { data: answer, response } = await openaiClient().responses.create({ model: 'gpt-4o-mini', input: 'Say hello' }).withResponse();
    const span = await callSpan(response.headers.get('x-request-id'));
    // The Responses API has no finish reason of its own: its status names how the answer ended.
    expect(answer.status).toBe('completed');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['completed']);
    expect(outputOf(span).text).toBe(answer.output_text);
  });
});

describe('a translated answer', () => {
  it("an OpenAI client on an Anthropic channel: the upstream's stop reason, the text the client got", async () => {
    const { data: answer, response } = await openaiClient().chat.completions.create({ model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Say hello' }] }).withResponse();
    const span = await callSpan(response.headers.get('x-request-id'));
    expect(answer.choices[0]!.finish_reason).toBe('stop');
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['end_turn']);
    expect(outputOf(span).text).toBe(answer.choices[0]!.message.content);
  });
});

describe('captured answer text', () => {
  it('has credential-shaped strings redacted and is cut to 8 KB', async () => {
    const secret = 'sk-proj-Zk3v9QmT2xLw8RbN4cYe';
    openai.script({ reply: `Your key is ${secret}. ${'whale '.repeat(3_000)}` });
    const { data: answer, response } = await openaiClient().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is my key?' }] }).withResponse();
    expect(answer.choices[0]!.message.content).toContain(secret);
    const span = await callSpan(response.headers.get('x-request-id'));
    const { text } = outputOf(span);
    expect(text).toMatch(/^Your key is \[redacted\] ?whale whale /);
    expect(text.length).toBeLessThanOrEqual(8 * 1024);
    expect(JSON.stringify(span.attributes)).not.toContain(secret);
  });
});
