// Issue 28 item 6: one agent session stays on the channel of its first call while that channel is healthy, so
// the provider's prompt cache hits. A model on two Anthropic channels of equal weight; Claude Code's session
// header (and, without it, metadata.user_id) keeps every call of a session on one of them; the second call
// reads the cache the first one filled there.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { lastUsageRow } from '../helpers/usage-rows.ts';

const KEY = testKey('affinity');
let east: AnthropicSimulator;
let west: AnthropicSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  east = await startAnthropicSimulator({ apiKey: 'sk-up-east' });
  west = await startAnthropicSimulator({ apiKey: 'sk-up-west' });
  gateway = await startTestGateway({
    channels: [
      { name: 'east', type: 'anthropic', base_url: east.url, api_key: 'sk-up-east', models: ['claude-up'], weight: 1 },
      { name: 'west', type: 'anthropic', base_url: west.url, api_key: 'sk-up-west', models: ['claude-up'], weight: 1 },
    ],
    models: [{ id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3 }],
    users: [{ name: 'ada', balance: 100 }],
    keys: [{ name: 'agent', key: KEY, user: 'ada' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await east?.close();
  await west?.close();
});

const client = (headers: Record<string, string> = {}) => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0, defaultHeaders: headers });
const turn = (anthropic: Anthropic, metadata?: Anthropic.Metadata) =>
  anthropic.messages.create({ model: 'claude-up', max_tokens: 50, system: 'You are a coding agent with a long system prompt.', messages: [{ role: 'user', content: 'Hello there' }], ...(metadata ? { metadata } : {}) });

/** The simulator that got the last request, and the number of requests each got since `before`. */
function served(before: { east: number; west: number }) {
  return { east: east.requests.length - before.east, west: west.requests.length - before.west };
}

describe('session affinity', () => {
  it('keeps every call of a Claude Code session on the channel of its first call, where the second reads the cache', async () => {
    const session = client({ 'x-claude-code-session-id': 'f3b2c1d0-session-one' });
    const before = { east: east.requests.length, west: west.requests.length };
    await turn(session);
    const home = served(before).east === 1 ? east : west;
    home.script({ cachedTokens: 6 });
    const second = await turn(session);
    expect(second.usage.cache_read_input_tokens).toBe(6);
    expect(Number((await lastUsageRow(gateway, 'agent')).cached_tokens)).toBe(6);
    for (let i = 0; i < 8; i++) await turn(session);
    // Ten calls, one channel: with an even split and no affinity this happens once in 512 runs.
    const counts = served(before);
    expect([counts.east, counts.west].sort()).toEqual([0, 10]);
    expect(home.requests.at(-1)!.headers['x-claude-code-session-id']).toBe('f3b2c1d0-session-one');
  });

  it('names a session by metadata.user_id when there is no session header', async () => {
    const anthropic = client();
    const user = { user_id: 'user_abc_account__session_9d8e7f' };
    const before = { east: east.requests.length, west: west.requests.length };
    for (let i = 0; i < 10; i++) await turn(anthropic, user);
    const counts = served(before);
    expect([counts.east, counts.west].sort()).toEqual([0, 10]);
  });
});
