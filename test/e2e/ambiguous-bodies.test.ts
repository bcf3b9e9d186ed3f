// The gateway checks and bills the body it parsed, where a duplicated key keeps its last value. A body that
// another parser could read differently (the same key twice, or a key spelt with \u escapes) must reach the
// upstream re-serialised, each key once, so that whatever JSON parser the upstream runs serves the model
// that was checked and priced. Bodies without such keys still go through byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const UPSTREAM_KEY = 'sk-upstream-ambiguous';
const KEY = testKey('ambiguouscheap');

let upstream: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small'] }],
    models: [
      { id: 'gpt-4o-mini', input_per_mtok: 0.15, output_per_mtok: 0.6 },
      { id: 'gpt-4o', input_per_mtok: 2.5, output_per_mtok: 10 },
      { id: 'text-embedding-3-small', input_per_mtok: 0.02 },
    ],
    users: [{ name: 'ann', balance: 10 }],
    // The key may use the cheap model only.
    keys: [{ name: 'cheap', key: KEY, user: 'ann', models: ['gpt-4o-mini', 'text-embedding-3-small'] }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
});

async function send(path: string, body: string): Promise<{ status: number; received: string }> {
  upstream.reset();
  const answer = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body });
  await answer.arrayBuffer();
  expect(upstream.requests).toHaveLength(1);
  return { status: answer.status, received: upstream.requests[0]!.rawBody };
}

/** What a parser that keeps the first of duplicated keys would read for `key` (escapes decoded). */
function firstValue(json: string, key: string): unknown {
  const pattern = /"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|true|false|null|-?\d+)/g;
  for (const match of json.matchAll(pattern)) if (JSON.parse(`"${match[1]}"`) === key) return JSON.parse(match[2]!);
  return undefined;
}

const messages = '"messages":[{"role":"user","content":"hi"}]';

describe('a body another JSON parser could read differently', () => {
  it('reaches the upstream with the model the gateway checked, whichever duplicate a parser keeps', async () => {
    for (const body of [
      `{"model":"gpt-4o",${messages},"model":"gpt-4o-mini"}`,
      `{"mod\\u0065l":"gpt-4o",${messages},"model":"gpt-4o-mini"}`,
      `{"model":"gpt-4o-mini","stream":true,${messages},"stream":false}`,
    ]) {
      const { status, received } = await send('/v1/chat/completions', body);
      expect([body, status]).toEqual([body, 200]);
      expect([body, firstValue(received, 'model')]).toEqual([body, 'gpt-4o-mini']);
      expect([body, received.match(/"model"/g)?.length]).toEqual([body, 1]);
      expect([body, firstValue(received, 'stream') ?? false]).toEqual([body, false]);
    }
    const embedding = await send('/v1/embeddings', '{"model":"text-embedding-3-large","input":"hi","model":"text-embedding-3-small"}');
    expect(embedding.status).toBe(200);
    expect(firstValue(embedding.received, 'model')).toBe('text-embedding-3-small');
  });

  it('is refused when the last model is one the key may not use, as any body naming it', async () => {
    const { status } = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: `{"model":"gpt-4o-mini",${messages},"model":"gpt-4o"}` });
    expect(status).toBe(403);
  });

  it('leaves an ordinary body byte for byte', async () => {
    const body = `{ "model": "gpt-4o-mini", ${messages}, "temperature": 0.2 }`;
    expect((await send('/v1/chat/completions', body)).received).toBe(body);
  });
});
