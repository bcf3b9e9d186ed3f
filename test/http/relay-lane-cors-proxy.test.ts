// The lean relay lane with CORS on (a list of origins) and a trusted proxy: answers carry the same CORS
// headers and the caller's address is read from X-Forwarded-For exactly as on Fastify's path (a key with an
// IP allowlist tells which address the gateway believed). The lane's `serve` is forced to step aside for the
// Fastify run; a browser's request (with an Origin) always goes to Fastify.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import type { RelayLane } from '../../src/http/relay-lane.ts';

const KEY = testKey('lanecors');
const PROXIED_KEY = testKey('laneproxied');
let upstream: OpenAISimulator;
let gateway: TestGateway;
let took: boolean[] = [];
let forceFastify = false;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'cors', balance: 10 }],
    keys: [{ name: 'cors', key: KEY, user: 'cors' }, { name: 'proxied', key: PROXIED_KEY, user: 'cors', ip_allowlist: ['10.1.2.3/32'] }],
  }, { env: { CORS_ORIGINS: 'https://app.example', TRUST_PROXY: '127.0.0.1' } });
  const lane = gateway.app.relayLane as RelayLane;
  const serve = lane.serve.bind(lane);
  vi.spyOn(lane, 'serve').mockImplementation((request, response) => {
    const taken = forceFastify ? false : serve(request, response);
    took.push(taken);
    return taken;
  });
});

afterAll(async () => {
  await gateway.dispose();
  await upstream.close();
});

const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello cors' }] });

async function send(headers: Record<string, string>) {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: chat });
  await response.text();
  const seen: Record<string, string | null> = { status: String(response.status) };
  for (const name of ['vary', 'access-control-allow-origin', 'access-control-expose-headers', 'content-type']) seen[name] = response.headers.get(name);
  return seen;
}

/** The same request through the gateway as it is and through Fastify alone, and whether the lane took it. */
async function bothPaths(headers: Record<string, string>) {
  took = [];
  const viaGateway = await send(headers);
  const laneTook = took[0];
  forceFastify = true;
  try {
    return { gateway: viaGateway, fastify: await send(headers), laneTook };
  } finally {
    forceFastify = false;
  }
}

describe('the lean relay lane with CORS and a trusted proxy', () => {
  it('answers with the CORS headers Fastify gives, and leaves browsers’ requests to Fastify', async () => {
    for (const origin of [undefined, 'https://app.example', 'https://elsewhere.example']) {
      for (const authorization of [`Bearer ${KEY}`, undefined]) {
        const headers = { ...(origin ? { origin } : {}), ...(authorization ? { authorization } : {}) };
        const results = await bothPaths(headers);
        expect(results.gateway, JSON.stringify(headers)).toEqual(results.fastify);
        expect(results.gateway.vary, JSON.stringify(headers)).toBe('Origin');
        expect(results.laneTook, JSON.stringify(headers)).toBe(origin === undefined);
      }
    }
  });

  it('believes X-Forwarded-For from the trusted proxy exactly as Fastify does', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, '403'],
      ['10.1.2.3', '200'],
      ['10.1.2.3, 127.0.0.1', '200'],
      ['10.1.2.3, 192.0.2.1', '403'],
      ['192.0.2.1, 10.1.2.3', '200'],
    ];
    for (const [forwarded, status] of cases) {
      const results = await bothPaths({ authorization: `Bearer ${PROXIED_KEY}`, ...(forwarded ? { 'x-forwarded-for': forwarded } : {}) });
      expect(results.gateway, forwarded).toEqual(results.fastify);
      expect(results.gateway.status, forwarded).toBe(status);
      expect(results.laneTook, forwarded).toBe(true);
    }
  });
});
