// The lean relay lane (src/http/relay-lane.ts) serves the relayed JSON routes without Fastify; Fastify still
// serves the same routes whenever the lane steps aside (a query string in the URL is one such case). Every
// answer a client can get must be the same on both paths: the same request is sent down each, and the
// lane's own spy shows which path served it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import type { RelayLane } from '../../src/http/relay-lane.ts';

const KEY = testKey('relaylane');
const BODY_LIMIT = 4096;
let upstream: OpenAISimulator;
let gateway: TestGateway;
let lane: RelayLane;
let served: boolean[];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: 'sk-up' });
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: upstream.url, api_key: 'sk-up', models: ['gpt-4o-mini'] }],
    models: [{ id: 'gpt-4o-mini', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'lane', balance: 10 }],
    keys: [{ name: 'lane', key: KEY, user: 'lane' }],
  }, { env: { BODY_LIMIT: String(BODY_LIMIT) } });
  lane = gateway.app.relayLane as RelayLane;
  const serve = lane.serve.bind(lane);
  vi.spyOn(lane, 'serve').mockImplementation((request, response) => {
    const taken = serve(request, response);
    served.push(taken);
    return taken;
  });
});

afterAll(async () => {
  await gateway.dispose();
  await upstream.close();
});

/** Runs `send` once down the lane and once through Fastify (the same URL with a query string). */
async function bothPaths<T>(send: (query: string) => Promise<T>): Promise<{ lane: T; fastify: T }> {
  served = [];
  const viaLane = await send('');
  expect(served.length, 'requests seen').toBeGreaterThan(0);
  expect(served.every((taken) => taken), 'the lane served the plain URL').toBe(true);
  served = [];
  const viaFastify = await send('?via=fastify');
  expect(served.length, 'requests seen').toBeGreaterThan(0);
  expect(served.some((taken) => taken), 'Fastify served the URL with a query string').toBe(false);
  return { lane: viaLane, fastify: viaFastify };
}

interface Seen {
  status: number;
  contentType: string | null;
  connection: string | null;
  hasRequestId: boolean;
  body: string;
}

async function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Seen> {
  const response = await fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    connection: response.headers.get('connection'),
    hasRequestId: /^req_[0-9a-f]{32}$/.test(response.headers.get('x-request-id') ?? ''),
    body: await response.text(),
  };
}

const chat = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello lane' }] });

describe('the lean relay lane', () => {
  it('answers the OpenAI SDK like Fastify does, whole and streamed, with the cost and the request id', async () => {
    const results = await bothPaths(async (query) => {
      const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0, defaultQuery: query ? { via: 'fastify' } : undefined });
      const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello lane' }] }).withResponse();
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'stream lane' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: unknown = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage;
      }
      return { content: data.choices[0]!.message.content, usage: data.usage, cost: response.headers.get('x-gateway-cost'), id: response.headers.get('x-request-id'), text, streamUsage: usage };
    });
    expect(results.lane.content).toBe(results.fastify.content);
    expect(results.lane.usage).toEqual(results.fastify.usage);
    expect(results.lane.cost).toBe(results.fastify.cost);
    expect(Number(results.lane.cost)).toBeGreaterThan(0);
    expect(results.lane.id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(results.lane.text).toBe(results.fastify.text);
    expect(results.lane.text.length).toBeGreaterThan(0);
    expect(results.lane.streamUsage).toEqual(results.fastify.streamUsage);
  });

  it('answers the Anthropic SDK on /v1/messages, and refuses a missing anthropic-version in Anthropic’s envelope', async () => {
    const results = await bothPaths(async (query) => {
      const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0, defaultQuery: query ? { via: 'fastify' } : undefined });
      const message = await client.messages.create({ model: 'gpt-4o-mini', max_tokens: 32, messages: [{ role: 'user', content: 'hello lane' }] });
      return message.content;
    });
    expect(results.lane).toEqual(results.fastify);
    const refused = await bothPaths((query) => post(`/v1/messages${query}`, JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }), { 'x-api-key': KEY }));
    expect(refused.lane).toEqual(refused.fastify);
    expect(refused.lane.status).toBe(400);
    expect(JSON.parse(refused.lane.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('refuses bad input with the same status, headers and body as Fastify', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['invalid JSON', '{"model": ', { authorization: `Bearer ${KEY}` }],
      ['no key', chat, {}],
      ['an unknown key', chat, { authorization: `Bearer ${testKey('nobody')}` }],
      ['a body over BODY_LIMIT', JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(BODY_LIMIT) }] }), { authorization: `Bearer ${KEY}` }],
      ['a missing field', JSON.stringify({ model: 'gpt-4o-mini' }), { authorization: `Bearer ${KEY}` }],
      ['an empty body', '', { authorization: `Bearer ${KEY}` }],
      ['an unknown model', JSON.stringify({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }), { authorization: `Bearer ${KEY}` }],
    ];
    for (const [name, body, headers] of cases) {
      const results = await bothPaths((query) => post(`/v1/chat/completions${query}`, body, headers));
      expect(results.lane, name).toEqual(results.fastify);
      expect(results.lane.status, name).toBeGreaterThanOrEqual(400);
      expect(results.lane.status, name).toBeLessThan(500);
      expect(results.lane.hasRequestId, name).toBe(true);
    }
  });

  it('refuses a body shorter than its Content-Length the same way, and closes the connection after a refused body', async () => {
    const answers = await bothPaths((query) => rawRequest(gateway.url, [
      `POST /v1/chat/completions${query} HTTP/1.1`, 'Host: x', `Authorization: Bearer ${KEY}`, 'Content-Type: application/json',
      `Content-Length: ${BODY_LIMIT + 10}`, '', 'x',
    ].join('\r\n'), 2_000));
    expect(answers.lane.status).toBe(413);
    expect(answers.lane.status).toBe(answers.fastify.status);
    expect(answers.lane.body).toBe(answers.fastify.body);
    expect(answers.lane.headers.connection).toBe('close');
  });

  it('counts its requests in gateway_requests_total by route, model and status', async () => {
    const line = (text: string) => text.split('\n').find((entry) => entry.startsWith('gateway_requests_total{route="/v1/chat/completions",model="gpt-4o-mini",status="200"}'));
    const before = Number(line(await (await fetch(`${gateway.url}/metrics`)).text())?.split(' ').pop() ?? 0);
    served = [];
    expect((await post('/v1/chat/completions', chat, { authorization: `Bearer ${KEY}` })).status).toBe(200);
    expect(served).toEqual([true]);
    const after = Number(line(await (await fetch(`${gateway.url}/metrics`)).text())?.split(' ').pop() ?? 0);
    expect(after).toBe(before + 1);
  });

  it('serves Gemini generateContent and streamGenerateContent (?alt=sse, ?key=) like Fastify does', async () => {
    // The SDK on the lane (its URLs carry only ?alt=sse, its key in x-goog-api-key).
    served = [];
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const whole = await google.models.generateContent({ model: 'gpt-4o-mini', contents: 'hello lane' });
    let streamed = '';
    for await (const chunk of await google.models.generateContentStream({ model: 'gpt-4o-mini', contents: 'stream lane' })) streamed += chunk.text ?? '';
    expect(served.length).toBe(2);
    expect(served.every((taken) => taken)).toBe(true);
    expect(whole.text).toBeTruthy();
    expect(streamed).toBeTruthy();
    // Each request down both paths: `via` is a parameter the lane does not read, so Fastify serves those.
    const generate = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello gemini lane' }] }] });
    const cases: [string, string, string, Record<string, string>][] = [
      ['whole, key in the header', '/v1beta/models/gpt-4o-mini:generateContent', generate, { 'x-goog-api-key': KEY }],
      ['whole, key in the query', `/v1beta/models/gpt-4o-mini:generateContent?key=${KEY}`, generate, {}],
      ['streamed', `/v1beta/models/gpt-4o-mini:streamGenerateContent?alt=sse&key=${KEY}`, generate, {}],
      ['streamed without alt=sse', '/v1beta/models/gpt-4o-mini:streamGenerateContent', generate, { 'x-goog-api-key': KEY }],
      ['an unknown key', '/v1beta/models/gpt-4o-mini:generateContent?key=sk-nobody', generate, {}],
      ['no key', '/v1beta/models/gpt-4o-mini:generateContent', generate, {}],
      ['invalid JSON', '/v1beta/models/gpt-4o-mini:generateContent', '{"contents": [', { 'x-goog-api-key': KEY }],
      ['an unknown model', '/v1beta/models/no-such-model:generateContent', generate, { 'x-goog-api-key': KEY }],
    ];
    for (const [name, path, body, headers] of cases) {
      const results = await bothPaths((query) => post(query ? `${path}${path.includes('?') ? '&' : '?'}via=fastify` : path, body, headers));
      // Answers carry their own ids and timestamps (responseId, createTime): compared without them.
      const comparable = (seen: Seen) => ({ ...seen, body: seen.body.replace(/"responseId":\s*"[^"]*"/g, '').replace(/"createTime":\s*"[^"]*"/g, '') });
      expect(comparable(results.lane), name).toEqual(comparable(results.fastify));
      expect(results.lane.hasRequestId, name).toBe(true);
    }
  });

  it('steps aside for other methods and paths', async () => {
    served = [];
    expect((await fetch(`${gateway.url}/v1/chat/completions`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
    expect((await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    expect(served).toEqual([false, false]);
  });
});
