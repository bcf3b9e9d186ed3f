// Thousands of generated bad requests (test/helpers/malformed-requests.ts, seeded) against a real gateway
// with every route and real upstream simulators: no 5xx, every 4xx in the caller's error envelope, memory
// and /metrics bounded. On SQLite, and on PostgreSQL (where NUL characters, huge numbers and prototype
// names used to reach the database as 500s).
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { envelopeProblem, type Envelope } from '../helpers/error-envelopes.ts';
import { malformedRequests, type MalformedRequest } from '../helpers/malformed-requests.ts';

const SEED = 20261124;
const COUNT = { sqlite: 3_000, postgres: 2_000 };
const CONCURRENCY = 8;
const keys = { user: testKey('fuzzuser'), admin: testKey('fuzzadmin') };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let openai: OpenAISimulator;
let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let postgres: TestPostgres;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-up-fuzz-openai', recordRequests: false });
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-up-fuzz-anthropic', recordRequests: false });
  gemini = await startGeminiSimulator({ apiKey: 'up-fuzz-gemini', recordRequests: false });
  postgres = await createTestPostgres();
});

afterAll(async () => {
  await openai?.close();
  await anthropic?.close();
  await gemini?.close();
  await postgres?.drop();
});

const config = () => ({
  channels: [
    { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-up-fuzz-openai', models: ['gpt-4o', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'dall-e-3', 'dall-e-2', 'tts-1', 'whisper-1'] },
    { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-up-fuzz-anthropic', models: ['claude-sonnet-4'] },
    { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'up-fuzz-gemini', models: ['gemini-2.5-flash'] },
  ],
  models: ['gpt-4o', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'dall-e-3', 'dall-e-2', 'tts-1', 'whisper-1', 'claude-sonnet-4', 'gemini-2.5-flash'].map((id) => ({ id, free: true })),
  users: [{ name: 'fuzz', balance: 1_000 }, { name: 'fuzzroot', role: 'admin' }],
  keys: [{ name: 'user', key: keys.user, user: 'fuzz' }, { name: 'admin', key: keys.admin, user: 'fuzzroot' }],
});

/** The envelopes a 4xx may come in: the route's own, or for format-neutral routes the one the headers ask for. */
function acceptableEnvelopes(sent: MalformedRequest): Envelope[] {
  const path = sent.raw ? (sent.raw.toString('latin1').split(' ')[1] ?? '/') : sent.path;
  // The router may resolve dot segments (`/v1/../v1beta/…` is Gemini's route): either reading is right.
  let resolved = path;
  try {
    resolved = new URL(path, 'http://gateway').pathname;
  } catch { /* not a URL at all */ }
  return [...new Set([path, resolved].flatMap((candidate) => envelopesForPath(candidate, sent.headers)))];
}

function envelopesForPath(path: string, headers: Record<string, string>): Envelope[] {
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^?]*:/.test(path)) return ['gemini'];
  if (path.startsWith('/v1/messages')) return ['anthropic'];
  return headers['anthropic-version'] !== undefined ? ['openai', 'anthropic'] : ['openai'];
}

interface Outcome { status: number; body: string; dropped: boolean }

async function send(base: string, dispatcher: Agent, sent: MalformedRequest): Promise<Outcome> {
  if (sent.raw) return rawRequest(base, sent.raw, 5_000);
  try {
    const response = await request(`${base}${sent.path}`, {
      method: sent.method as 'GET',
      headers: sent.headers,
      ...(sent.body !== undefined ? { body: sent.body } : {}),
      dispatcher,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    return { status: response.statusCode, body: await response.body.text(), dropped: false };
  } catch (error) {
    return { status: 0, body: String(error), dropped: true };
  }
}

function problemWith(sent: MalformedRequest, outcome: Outcome): string | null {
  if (outcome.dropped) return `dropped: ${outcome.body.slice(0, 150)}`;
  if (outcome.status >= 500) return `${outcome.status}: ${outcome.body.slice(0, 200)}`;
  if (outcome.status < 400 || sent.method === 'HEAD') return null;
  const problems = acceptableEnvelopes(sent).map((envelope) => envelopeProblem(envelope, outcome.status, outcome.body));
  return problems.includes(null) ? null : `${outcome.status} not in its envelope: ${problems[0]}`;
}

async function runAll(gateway: TestGateway, requests: Iterable<MalformedRequest>): Promise<{ failures: string[]; statuses: Map<number, number>; count: number }> {
  const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 5_000 });
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const iterator = requests[Symbol.iterator]();
  let index = 0;
  const worker = async () => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const sent = next.value;
      const at = index++;
      const outcome = await send(gateway.url, dispatcher, sent);
      statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
      const problem = problemWith(sent, outcome);
      if (problem) failures.push(`#${at} ${sent.method} ${sent.path.slice(0, 80)} [${sent.label}] → ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await dispatcher.close();
  return { failures, statuses, count: index };
}

const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const metricsSize = async (gateway: TestGateway) => (await (await request(`${gateway.url}/metrics`)).body.text()).length;

describe.each([['sqlite'], ['postgres']] as const)('malformed input on %s', (engine) => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway(config(), { env: engine === 'postgres' ? { DATABASE_URL: postgres.url } : {} });
  });

  afterAll(async () => {
    await gateway?.dispose();
  });

  it('refuses, at the edge, the inputs the database cannot store (they were 500s on PostgreSQL)', async () => {
    const cases: [string, string, object | null][] = [
      ['POST', '/api/admin/keys', { user: 'fu\u0000zz', name: 'k' }],
      ['POST', '/api/admin/keys', { user: 'fuzz', name: 'n\u0000ul' }],
      ['POST', '/api/admin/keys', { user: 'fuzz', name: 'huge', quota_usd: 1e300 }],
      ['POST', '/api/admin/users/1/grant', { amount_usd: 1e20 }],
      ['POST', '/api/admin/users/1/grant', { amount_usd: 5, note: 'x\u0000' }],
      ['PATCH', '/api/admin/keys/1', { tpm_limit: 1e12 }],
      ['GET', '/api/stats?bucket=constructor', null],
    ];
    for (const [method, path, body] of cases) {
      const response = await request(`${gateway.url}${path}`, { method: method as 'GET', headers: { authorization: `Bearer ${keys.admin}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
      const text = await response.body.text();
      expect(response.statusCode, `${method} ${path}: ${text}`).toBe(400);
      expect(envelopeProblem('openai', 400, text)).toBeNull();
    }
  });

  it(`answers ${COUNT[engine]} generated bad requests without a 5xx, each 4xx in its envelope, with bounded memory`, async () => {
    // Warm-up (JIT, pools, lazily built state), then the measured run with another seed.
    const warmUp = await runAll(gateway, malformedRequests(SEED + 1, 300, keys));
    expect(warmUp.failures).toEqual([]);
    const heapBefore = heapAfterGc();
    const metricsBefore = await metricsSize(gateway);

    const run = await runAll(gateway, malformedRequests(SEED, COUNT[engine], keys));
    expect(run.count).toBe(COUNT[engine]);
    expect(run.failures.slice(0, 30), `${run.failures.length} of ${run.count} failed`).toEqual([]);
    // The generator must really produce a mix: many refusals, some accepted calls.
    const refused = [...run.statuses].filter(([status]) => status >= 400).reduce((sum, [, n]) => sum + n, 0);
    expect(refused).toBeGreaterThan(run.count / 2);

    const heapGrowth = heapAfterGc() - heapBefore;
    const metricsAfter = await metricsSize(gateway);
    process.stderr.write(`malformed input on ${engine}: ${run.count} requests, statuses ${JSON.stringify(Object.fromEntries([...run.statuses].sort(([a], [b]) => a - b)))}, heap ${(heapGrowth / 1e6).toFixed(1)} MB, /metrics ${metricsBefore} → ${metricsAfter} bytes\n`);
    // 1 MB model names used to add 7.7 MB of heap each and grow /metrics by as much.
    expect(heapGrowth, `heap grew by ${(heapGrowth / 1e6).toFixed(1)} MB`).toBeLessThan(48 * 1024 * 1024);
    expect(metricsAfter - metricsBefore, `/metrics grew from ${metricsBefore} to ${metricsAfter} bytes`).toBeLessThan(64 * 1024);
    expect(metricsAfter).toBeLessThan(256 * 1024);
  }, 180_000);
});
