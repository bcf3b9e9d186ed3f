// A translated stream (Anthropic channel → OpenAI chat client, whose text deltas take the fast lanes of
// hub-stream-converter.ts) that breaks midway and is mended on another channel: the continuation's prefill
// must be exactly the text the client received (kept by delivered-output.ts in groups of 32 pieces, fed
// by the fast lane and the general path alike), and a restart must hold back exactly that text.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('translcont');
let main: AnthropicSimulator;
let prefill: AnthropicSimulator;
let restart: AnthropicSimulator;
let gateway: TestGateway;

// 50 pieces, one text delta each: plain ones (fast lane) and ones with escapes (general path) mixed, more
// than one group of 32 before the cut.
const words = Array.from({ length: 50 }, (_, i) => (i % 7 === 3 ? `"q${i}"\\` : i % 11 === 5 ? `tab\t${i}` : i % 13 === 8 ? `😀${i}` : `w${i}`));
const reply = words.join(' ');
const CUT_AFTER = 44;

beforeAll(async () => {
  main = await startAnthropicSimulator({ apiKey: 'sk-main' });
  prefill = await startAnthropicSimulator({ apiKey: 'sk-prefill' });
  restart = await startAnthropicSimulator({ apiKey: 'sk-restart' });
  gateway = await startTestGateway({
    channels: [
      { name: 'main', type: 'anthropic', base_url: main.url, api_key: 'sk-main', models: ['claude-a', 'claude-b'], priority: 10 },
      { name: 'prefill', type: 'anthropic', base_url: prefill.url, api_key: 'sk-prefill', models: ['claude-a'], supports_prefill: true, priority: 1 },
      { name: 'restart', type: 'anthropic', base_url: restart.url, api_key: 'sk-restart', models: ['claude-b'], supports_prefill: false, priority: 1 },
    ],
    models: [{ id: 'claude-a', input_per_mtok: 3, output_per_mtok: 15 }, { id: 'claude-b', input_per_mtok: 3, output_per_mtok: 15 }],
    users: [{ name: 'cont', balance: 100 }],
    keys: [{ name: 'cont', key: KEY, user: 'cont' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([main?.close(), prefill?.close(), restart?.close()]);
});

async function streamedText(model: string): Promise<string> {
  const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const stream = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Say it' }] });
  let text = '';
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
  return text;
}

describe('a broken Anthropic → OpenAI chat stream, mended elsewhere', () => {
  it('continues on a prefill channel from exactly the delivered text', async () => {
    main.script({ reply, cutStreamAfterChunks: CUT_AFTER, chunkDelayMs: 2 });
    prefill.script({ reply: ' [the rest]' });
    const text = await streamedText('claude-a');
    const sent = prefill.requests.at(-1)!.body as { messages: { role: string; content: string | { type: string; text: string }[] }[] };
    const last = sent.messages.at(-1)!;
    expect(last.role).toBe('assistant');
    const prefillText = typeof last.content === 'string' ? last.content : last.content.map((block) => block.text).join('');
    // The prefill is a part of the reply past the first group of 32 pieces, and the client read exactly it
    // and then the continuation: nothing repeated, nothing lost.
    expect(reply.startsWith(prefillText)).toBe(true);
    expect(prefillText.split(' ').length).toBeGreaterThan(33);
    expect(text).toBe(`${prefillText} [the rest]`);
  });

  it('restarts on a channel without prefill and holds back exactly the delivered text', async () => {
    main.script({ reply, cutStreamAfterChunks: CUT_AFTER, chunkDelayMs: 2 });
    restart.script({ reply });
    const text = await streamedText('claude-b');
    expect(restart.requests).toHaveLength(1);
    expect(text).toBe(reply);
  });
});
