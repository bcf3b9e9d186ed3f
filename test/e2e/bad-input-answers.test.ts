// Each bad input the fault report found answered with a 5xx, a bare Node/Fastify default, a dropped socket
// or unbounded memory: now a 4xx in the caller's own error envelope, with bounded size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as undiciRequest } from 'undici';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { envelopeProblem, expectedEnvelope } from '../helpers/error-envelopes.ts';

const OPENAI_KEY = 'sk-upstream-badinput-0001';
const GEMINI_KEY = 'gemini-upstream-badinput-0001';
const key = testKey('badinputuser');
const admin = testKey('badinputadmin');

let openai: OpenAISimulator;
let gemini: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: OPENAI_KEY });
  gemini = await startGeminiSimulator({ apiKey: GEMINI_KEY });
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: OPENAI_KEY, models: ['gpt-4o'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: GEMINI_KEY, models: ['gemini-2.5-flash'] },
    ],
    models: [{ id: 'gpt-4o', free: true }, { id: 'gemini-2.5-flash', free: true }],
    users: [{ name: 'nina', balance: 10 }, { name: 'root', role: 'admin' }],
    keys: [{ name: 'main', key, user: 'nina' }, { name: 'admin', key: admin, user: 'root' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await openai?.close();
  await gemini?.close();
});

async function call(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  const response = await undiciRequest(`${gateway.url}${path}`, {
    method: method as 'GET',
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.statusCode, body: await response.body.text() };
}

function expectClientError(answer: { status: number; body: string }, path: string, headers: Record<string, string> = {}) {
  expect(answer.status, answer.body.slice(0, 200)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.body.slice(0, 200)).toBeLessThan(500);
  expect(envelopeProblem(expectedEnvelope(path, headers), answer.status, answer.body)).toBeNull();
}

const scrapeMetrics = async () => (await undiciRequest(`${gateway.url}/metrics`)).body.text();

describe('memory a client can grow (item 4)', () => {
  it('labels unknown models "other" and echoes at most a short prefix of a huge model name', async () => {
    const before = (await scrapeMetrics()).length;
    for (let i = 0; i < 5; i++) {
      const model = `${i}${'m'.repeat(1024 * 1024)}`;
      const answer = await call('POST', '/v1/chat/completions', JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }));
      expectClientError(answer, '/v1/chat/completions');
      expect(answer.status).toBe(404);
      expect(answer.body.length).toBeLessThan(1_000);
    }
    const metrics = await scrapeMetrics();
    expect(metrics.length - before).toBeLessThan(2_000);
    expect(metrics).toContain('model="other"');
  });

  it('keeps known models as their own label', async () => {
    await call('POST', '/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    expect(await scrapeMetrics()).toMatch(/gateway_requests_total\{route="\/v1\/chat\/completions",model="gpt-4o",status="200"\}/);
  });

  it('cuts any echoed value: a 3 MB Gemini model name in the path', async () => {
    const answer = await call('POST', `/v1beta/models/${'g'.repeat(50)}:generateContent`, JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }));
    expectClientError(answer, '/v1beta/models/x:generateContent');
  });
});

describe('5xx for bad input (item 9)', () => {
  it('refuses Gemini contents nested 20,000 deep with 400 in Google\'s envelope', async () => {
    const deep = '['.repeat(20_000) + ']'.repeat(20_000);
    const body = `{"contents":[{"parts":[{"text":"hi","x":${deep}}]}],"generationConfig":{"stopSequences":${deep}}}`;
    const answer = await call('POST', '/v1beta/models/gemini-2.5-flash:generateContent', body);
    expectClientError(answer, '/v1beta/models/gemini-2.5-flash:generateContent');
    const nestedObjects = `{"contents":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    expectClientError(await call('POST', '/v1beta/models/gemini-2.5-flash:generateContent', nestedObjects), '/v1beta/models/x:generateContent');
    const chat = `{"model":"gpt-4o","messages":[{"role":"user","content":"hi","name":${deep}}]}`;
    expect((await call('POST', '/v1/chat/completions', chat)).status).toBeLessThan(500);
  });

  it('refuses multipart without a boundary or with a truncated one', async () => {
    const path = '/v1/audio/transcriptions';
    expectClientError(await call('POST', path, 'whatever', { 'content-type': 'multipart/form-data' }), path);
    const truncated = '--XYZ\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--XY';
    expectClientError(await call('POST', path, truncated, { 'content-type': 'multipart/form-data; boundary=XYZ' }), path);
    const noEnd = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF';
    expectClientError(await call('POST', '/v1/images/edits', noEnd, { 'content-type': 'multipart/form-data; boundary=XYZ' }), '/v1/images/edits');
  });

  it('answers malformed %-escapes in the path with 400', async () => {
    for (const path of ['/v1/models/%25ZZ', '/v1beta/models/%25ZZ', '/v1/models/%ZZ', '/v1beta/models/%E0%A4%A:generateContent', '/%zz']) {
      expectClientError(await call('GET', path), path);
    }
  });

  it('refuses an image URL whose host does not resolve with 400', async () => {
    const body = JSON.stringify({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it' }, { type: 'image_url', image_url: { url: 'http://no-such-host.invalid/cat.png' } }] }] });
    const answer = await call('POST', '/v1/chat/completions', body);
    expectClientError(answer, '/v1/chat/completions');
    expect(answer.status).toBe(400);
  });

  it('refuses /api/stats?bucket=constructor and other prototype names with 400', async () => {
    for (const bucket of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const answer = await call('GET', `/api/stats?bucket=${bucket}`);
      expectClientError(answer, '/api/stats');
      expect(answer.status).toBe(400);
    }
  });

  it('validates admin input at the edge: NUL characters, huge amounts, huge limits', async () => {
    const asAdmin = { authorization: `Bearer ${admin}` };
    const cases: [string, string, object][] = [
      ['POST', '/api/admin/keys', { user: 'ni\u0000na', name: 'k' }],
      ['POST', '/api/admin/keys', { user: 'nina', name: 'k\u0000' }],
      ['POST', '/api/admin/keys', { user: 'nina', name: 'big', quota_usd: 1e300 }],
      ['POST', '/api/admin/keys', { user: 'nina', name: 'big', rpm_limit: 1e15 }],
      ['POST', '/api/admin/users/1/grant', { amount_usd: 1e20 }],
      ['POST', '/api/admin/users/1/grant', { amount_usd: -1e20 }],
      ['POST', '/api/admin/users/1/grant', { amount_usd: 1, note: 'a\u0000b' }],
      ['PATCH', '/api/admin/keys/1', { quota_usd: 1e30 }],
      ['PATCH', '/api/admin/keys/99999999999999999999', { enabled: true }],
    ];
    for (const [method, path, body] of cases) {
      const answer = await call(method, path, JSON.stringify(body), asAdmin);
      expectClientError(answer, path);
      expect(answer.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
    }
  });
});

describe('4xx answers in our envelope, not Node\'s or Fastify\'s defaults (item 9)', () => {
  it('answers a plain GET of /v1/realtime with 426 in OpenAI\'s envelope', async () => {
    const answer = await call('GET', '/v1/realtime?model=gpt-4o');
    expect(answer.status).toBe(426);
    expectClientError(answer, '/v1/realtime');
  });

  it('renders malformed HTTP, oversized headers, odd Expect, CONNECT and over-long path segments', async () => {
    const cases: [string, string, number][] = [
      ['malformed request line', 'GARBAGE\r\n\r\n', 400],
      ['bad header', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', 400],
      ['header overflow', `GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['unknown Expect', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\n{}', 417],
      ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
      ['long Gemini path segment', `POST /v1beta/models/${'a'.repeat(300)}:generateContent HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`, 414],
    ];
    for (const [name, request, status] of cases) {
      const answer = await rawRequest(gateway.url, request);
      expect(answer.dropped, name).toBe(false);
      expect(answer.status, `${name}: ${answer.body}`).toBe(status);
      const path = request.split(' ')[1] ?? '/';
      expect(envelopeProblem(expectedEnvelope(path), status, answer.body), name).toBeNull();
    }
  });

  it('answers 413 to an upload whose declared length is over the limit before the body is sent', async () => {
    // The client sends 10 KB of a declared 200 MB body and waits: the answer must come while the rest is
    // still unsent (not a close after the body timeout), in the endpoint's own envelope.
    for (const path of ['/v1/audio/transcriptions', '/v1/images/edits']) {
      const head = [
        `POST ${path} HTTP/1.1`, 'Host: x', `Authorization: Bearer ${key}`,
        'Content-Type: multipart/form-data; boundary=b', 'Content-Length: 200000000', '', '',
      ].join('\r\n');
      const firstPart = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n';
      const answer = await rawRequest(gateway.url, head + firstPart + 'x'.repeat(10_000), 20_000);
      expect(answer.dropped, path).toBe(false);
      expect(answer.status, `${path}: ${answer.body}`).toBe(413);
      expect(envelopeProblem(expectedEnvelope(path), 413, answer.body), path).toBeNull();
    }
  });

  it('lets the client see a 413 for a 21 MB JSON body, every time', async () => {
    const body = Buffer.alloc(21 * 1024 * 1024, 'a');
    for (let i = 0; i < 5; i++) {
      const answer = await call('POST', '/v1/chat/completions', body);
      expect(answer.status).toBe(413);
      expectClientError(answer, '/v1/chat/completions');
      const anthropic = await call('POST', '/v1/messages', body, { 'anthropic-version': '2023-06-01' });
      expect(anthropic.status).toBe(413);
      expectClientError(anthropic, '/v1/messages');
    }
  });
});
