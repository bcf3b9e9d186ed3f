// A stream still open when the shutdown grace (SHUTDOWN_GRACE_MS) runs out is cut: its connection closed,
// its upstream stopped. It must still be logged and charged for what it delivered, like any call. Its
// generator records it a few turns after its socket closed (once the upstream's abort comes back), and
// stop() had by then closed the usage recorder: such calls were neither logged nor charged.
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey } from '../helpers/test-gateway.ts';

const KEY = testKey('shutdowncut');
const UPSTREAM_KEY = 'sk-upstream-cut-0001';
let upstream: OpenAISimulator;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
});

afterAll(async () => {
  await upstream?.close();
});

/** Starts a streamed call and resolves once its first bytes have arrived (the answer is committed). */
function openStream(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') }] });
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port: Number(port), method: 'POST', path: '/v1/chat/completions', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (response) => {
      response.once('data', () => resolve());
      response.on('data', () => {});
      response.on('error', () => {});
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('a stream cut by the shutdown when its grace runs out', () => {
  for (const [label, step] of [['an upstream gone silent', { stallAfterChunks: 3 }], ['an upstream still sending, slowly', { chunkDelayMs: 100 }]] as const) {
    it(`is logged once and charged for what it delivered (${label})`, async () => {
      const gateway = await startTestGateway({
        channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
        models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
        users: [{ name: 'cut', balance: 10 }],
        keys: [{ name: 'main', key: KEY, user: 'cut' }],
      }, { env: { SHUTDOWN_GRACE_MS: '300' } });
      try {
        upstream.script(step);
        await openStream(gateway.url);
        await gateway.stop();
        // The database is closed with the gateway: read what it wrote from its file.
        const db = new DatabaseSync(join(gateway.dir, 'gateway.db'));
        try {
          const rows = db.prepare('SELECT status, error_code, cost_micros FROM usage_logs').all() as { status: number; error_code: string | null; cost_micros: number }[];
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({ status: 200, error_code: 'GW_ERR_CLIENT_GONE' });
          expect(rows[0]!.cost_micros).toBeGreaterThan(0);
          const { balance_micros: balance } = db.prepare("SELECT balance_micros FROM users WHERE name = 'cut'").get() as { balance_micros: number };
          expect(balance).toBe(10_000_000 - rows[0]!.cost_micros);
        } finally {
          db.close();
        }
      } finally {
        await gateway.dispose();
      }
    });
  }
});
