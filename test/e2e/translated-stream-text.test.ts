// Text that needs escapes, streamed from an Anthropic channel to OpenAI chat clients (issue 16's fast
// lanes: plain deltas skip JSON.parse, hub parts and JSON.stringify; the rest takes the general path).
// Over the wire: the official openai SDK must read back exactly the text the upstream sent, and every chunk
// on the wire must be the JSON.stringify form of itself (same key order, same escaping as before).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('laneuser');
let upstream: AnthropicSimulator;
let gateway: TestGateway;

// The simulator streams a reply one word (with its trailing space) per text delta.
const reply = [
  'Plain words first,', 'then "quotes" and \\back\\slashes\\', 'a\nnewline\tand\ttabs', 'nul\u0000 unit\u001f del\u007f',
  'ünïcödé 日本語 😀👍🏽', 'separators\u2028and\u2029too', '</script><!--', '}}"}}', 'a-long-word-well-over-thirteen-characters', 'end.',
].join(' ');

beforeAll(async () => {
  upstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  gateway = await startTestGateway({
    channels: [{ name: 'anthropic', type: 'anthropic', base_url: upstream.url, api_key: 'sk-up-anthropic', models: ['claude-up'] }],
    models: [{ id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 }],
    users: [{ name: 'lane', balance: 100 }],
    keys: [{ name: 'lane', key: KEY, user: 'lane' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

describe('OpenAI chat client ← Anthropic channel, text with escapes', () => {
  it('reads back exactly the text the upstream sent, through the official SDK', async () => {
    upstream.script({ reply });
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'claude-up', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Say it' }] });
    let text = '';
    let chunks = 0;
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(reply);
    expect(chunks).toBeGreaterThan(reply.split(' ').length);
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('writes every chunk in the JSON.stringify form of itself', async () => {
    upstream.script({ reply });
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-up', stream: true, messages: [{ role: 'user', content: 'Say it' }] }),
    });
    expect(response.status).toBe(200);
    const events = (await response.text()).split('\n\n').filter((event) => event !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    let text = '';
    for (const event of events.slice(0, -1)) {
      expect(event.startsWith('data: ')).toBe(true);
      const data = event.slice('data: '.length);
      const chunk = JSON.parse(data) as { id: string; object: string; choices: { index: number; delta: { content?: string }; finish_reason: string | null }[] };
      expect(data).toBe(JSON.stringify(chunk));
      expect(Object.keys(chunk)).toEqual(['id', 'object', 'created', 'model', 'choices']);
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe(reply);
  });
});
