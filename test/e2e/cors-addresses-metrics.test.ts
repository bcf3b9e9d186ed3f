// Operator-facing parts of issue 15: CORS for browsers on /v1 and /v1beta only (item 5), forgiving addresses
// (item 6: base_url with /v1 normalised with a warning, an unpriced served model warned about, a 404 naming
// the right path), and cost and routing metrics with the x-gateway-cost header (item 7).
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { stringify } from 'yaml';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/config/env.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { testKey } from '../helpers/test-gateway.ts';

const KEY = testKey('corsuser');
const ORIGIN = 'https://app.example';
let openaiUpstream: OpenAISimulator;
let geminiUpstream: GeminiSimulator;
let gateway: RunningGateway;
let plain: RunningGateway;
const logLines: { level: number; msg: string; [field: string]: unknown }[] = [];
const dirs: string[] = [];
const realFetch = globalThis.fetch;

async function start(env: Record<string, string>, capture: boolean): Promise<RunningGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-cors-'));
  dirs.push(dir);
  const configFile = join(dir, 'gateway.yaml');
  await writeFile(configFile, stringify({
    channels: [
      // Written the way provider docs show them: with the version path.
      { name: 'openai-v1', type: 'openai', base_url: `${openaiUpstream.url}/v1`, api_key: 'sk-up-openai', models: ['gpt-up', 'unpriced-up'], priority: 1 },
      { name: 'openai-backup', type: 'openai', base_url: `${openaiUpstream.url}/`, api_key: 'sk-up-openai', models: ['gpt-up'], priority: 0 },
      { name: 'gemini-v1beta', type: 'gemini', base_url: `${geminiUpstream.url}/v1beta`, api_key: 'up-gemini-key', models: ['gemini-up'], model_mapping: { 'gemini-up': 'gemini-2.5-flash' } },
    ],
    models: [{ id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 }, { id: 'gemini-up', input_per_mtok: 0.3, output_per_mtok: 2.5 }],
    users: [{ name: 'cary', balance: 100 }],
    keys: [{ name: 'cors', key: KEY, user: 'cary' }],
  }));
  const sink = new Writable({ write(chunk, _encoding, done) { for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line)); done(); } });
  return startGateway({
    env: readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`, GATEWAY_SECRET: 'test-secret-test-secret-test-secret', FLUSH_INTERVAL_MS: '50', SHUTDOWN_GRACE_MS: '2000', ...env }),
    configFile,
    logger: pino({ level: capture ? 'warn' : 'silent' }, sink),
  });
}

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await start({ CORS_ORIGINS: `${ORIGIN}, https://other.example` }, true);
  plain = await start({ COST_HEADER: 'false' }, false);
});

afterAll(async () => {
  await gateway?.stop();
  await plain?.stop();
  await openaiUpstream?.close();
  await geminiUpstream?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The header names an SDK sends, captured from a real call through a recording fetch. */
async function headerNamesOf(call: (fetch: typeof globalThis.fetch) => Promise<unknown>): Promise<string[]> {
  const names = new Set<string>();
  const recording: typeof globalThis.fetch = (input, init) => {
    if (input instanceof Request) input.headers.forEach((_value, name) => names.add(name));
    new Headers(init?.headers).forEach((_value, name) => names.add(name));
    return realFetch(input, init);
  };
  await call(recording);
  return [...names];
}

function preflight(base: string, path: string, origin: string, headers: string[]) {
  return fetch(`${base}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers.join(', ') } });
}

describe('CORS (CORS_ORIGINS)', () => {
  it('allows every header each official SDK sends, on /v1 and /v1beta', async () => {
    const sdks = [
      { path: '/v1/chat/completions', names: await headerNamesOf((fetch) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, fetch, maxRetries: 0 }).chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] })) },
      { path: '/v1/messages', names: await headerNamesOf((fetch) => new Anthropic({ baseURL: gateway.url, apiKey: KEY, fetch, maxRetries: 0 }).messages.create({ model: 'gpt-up', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })) },
      { path: '/v1beta/models/gemini-up:generateContent', names: await headerNamesOf((fetch) => { const saved = globalThis.fetch; globalThis.fetch = fetch; return new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } }).models.generateContent({ model: 'gemini-up', contents: 'hi' }).finally(() => (globalThis.fetch = saved)); }) },
    ];
    for (const { path, names } of sdks) {
      expect(names.length).toBeGreaterThan(1);
      const response = await preflight(gateway.url, path, ORIGIN, names);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      const allowed = response.headers.get('access-control-allow-headers')!.split(', ');
      for (const name of names) expect(allowed, `${path}: ${name}`).toContain(name.toLowerCase());
    }
  });

  it('does not allow arbitrary request headers, nor other origins', async () => {
    const odd = await preflight(gateway.url, '/v1/chat/completions', ORIGIN, ['authorization', 'x-evil']);
    expect(odd.headers.get('access-control-allow-headers')).not.toContain('x-evil');
    const foreign = await preflight(gateway.url, '/v1/chat/completions', 'https://evil.example', ['authorization']);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('lets a browser script read Retry-After and the request id on answers and errors', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0, defaultHeaders: { origin: ORIGIN } });
    const { response } = await client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('vary')).toContain('Origin');
    const exposed = response.headers.get('access-control-expose-headers')!;
    for (const name of ['retry-after', 'x-request-id', 'x-ratelimit-remaining-requests', 'x-gateway-cost']) expect(exposed).toContain(name);
    const refused = await fetch(`${gateway.url}/v1beta/models`, { headers: { origin: ORIGIN, 'x-goog-api-key': 'wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('never answers for /api, and is off without CORS_ORIGINS', async () => {
    const api = await fetch(`${gateway.url}/api/stats`, { headers: { origin: ORIGIN, authorization: `Bearer ${KEY}` } });
    expect(api.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(gateway.url, '/api/stats', ORIGIN, ['authorization'])).headers.get('access-control-allow-origin')).toBeNull();
    const off = await preflight(plain.url, '/v1/chat/completions', ORIGIN, ['authorization']);
    expect(off.status).toBe(404);
    expect(off.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('forgiving addresses', () => {
  it('normalises a base_url ending in /v1 or /v1beta, with a warning at start', async () => {
    const chat = await new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.choices[0]!.message.content).toContain('OpenAI simulator');
    expect(openaiUpstream.requests.at(-1)!.path).toBe('/v1/chat/completions');
    const gemini = await new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } }).models.generateContent({ model: 'gemini-up', contents: 'hi' });
    expect(gemini.text).toContain('Gemini simulator');
    expect(geminiUpstream.requests.at(-1)!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    const warnings = logLines.filter((line) => line.level === 40).map((line) => line.msg);
    expect(warnings.some((msg) => msg.includes('ends in /v1;') && msg.includes(openaiUpstream.url))).toBe(true);
    expect(warnings.some((msg) => msg.includes('ends in /v1beta;'))).toBe(true);
  });

  it('warns at start about a served model without a price', () => {
    expect(logLines.some((line) => line.level === 40 && line.msg.includes('without a price') && line.msg.includes('unpriced-up'))).toBe(true);
    expect(logLines.some((line) => line.msg.includes('without a price') && line.msg.includes('gpt-up'))).toBe(false);
  });

  it('answers a path missing its /v1 with a 404 naming the right path, in the caller’s shape', async () => {
    const chat = await fetch(`${gateway.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{}' });
    expect(chat.status).toBe(404);
    expect((await chat.json()).error.message).toContain('Did you mean POST /v1/chat/completions?');
    const gemini = await fetch(`${gateway.url}/models/gemini-up:generateContent`, { method: 'POST', body: '{}' });
    expect((await gemini.json()).error.message).toContain('/v1beta/models/gemini-up:generateContent');
    const messages = await fetch(`${gateway.url}/messages`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01' }, body: '{}' });
    expect(await messages.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('/v1/messages') } });
    const unknown = await fetch(`${gateway.url}/nothing/here`);
    expect((await unknown.json()).error.message).not.toContain('Did you mean');
  });
});

/** A raw request, to read a stream's trailers. */
function post(url: string, body: object): Promise<{ headers: Record<string, unknown>; trailers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ headers: res.headers, trailers: res.trailers as Record<string, string>, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function loggedCost(target: RunningGateway, requestId: string): Promise<number> {
  await target.recorder.flush();
  const row = await target.database.db.selectFrom('usage_logs').select('cost_micros').where('request_id', '=', requestId).executeTakeFirstOrThrow();
  return row.cost_micros;
}

describe('cost header and metrics', () => {
  it('carries the call’s cost in micro-USD: a header on a whole answer, a trailer on a stream; equal to the charge', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'price this answer please' }] }).withResponse();
    const cost = Number(response.headers.get('x-gateway-cost'));
    expect(cost).toBeGreaterThan(0);
    expect(cost).toBe(await loggedCost(gateway, response.headers.get('x-request-id')!));
    const streamed = await post(`${gateway.url}/v1/chat/completions`, { model: 'gpt-up', stream: true, messages: [{ role: 'user', content: 'stream and price' }] });
    expect(streamed.text).toContain('[DONE]');
    expect(streamed.headers.trailer).toBe('x-gateway-cost');
    expect(Number(streamed.trailers['x-gateway-cost'])).toBeGreaterThan(0);
    expect(Number(streamed.trailers['x-gateway-cost'])).toBe(await loggedCost(gateway, String(streamed.headers['x-request-id'])));
  });

  it('is off with COST_HEADER=false', async () => {
    const { response } = await new OpenAI({ baseURL: `${plain.url}/v1`, apiKey: KEY, maxRetries: 0 }).chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
    expect(response.headers.get('x-gateway-cost')).toBeNull();
    const streamed = await post(`${plain.url}/v1/chat/completions`, { model: 'gpt-up', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(streamed.trailers['x-gateway-cost']).toBeUndefined();
  });

  it('/metrics shows cost per model and group, time to first token, failovers, channel status and breaker state', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    for await (const _chunk of await client.chat.completions.create({ model: 'gpt-up', stream: true, messages: [{ role: 'user', content: 'ttft' }] })) { /* drain */ }
    // The first channel fails twice (a retry on it, then the backup channel answers): one failover.
    openaiUpstream.script({ status: 500 }, { status: 500 });
    await client.chat.completions.create({ model: 'gpt-up', messages: [{ role: 'user', content: 'fail over' }] });
    await gateway.recorder.flush();
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
    expect(value(/^gateway_cost_micro_usd_total\{model="gpt-up",group="default"\} (\d+)/m)).toBeGreaterThan(0);
    expect(value(/^gateway_time_to_first_token_seconds_count\{model="gpt-up"\} (\d+)/m)).toBeGreaterThanOrEqual(1);
    expect(value(/^gateway_failovers_total\{model="gpt-up"\} (\d+)/m)).toBe(1);
    expect(value(/^gateway_channel_status\{channel="openai-v1",status="enabled"\} (\d+)/m)).toBe(1);
    expect(value(/^gateway_channel_status\{channel="openai-v1",status="auto_disabled"\} (\d+)/m)).toBe(0);
    expect(value(/^gateway_circuit_breaker_state\{channel="openai-backup",state="closed"\} (\d+)/m)).toBe(1);
  });
});
