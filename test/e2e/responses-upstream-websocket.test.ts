// The gateway's Responses WebSocket mode over the upstream's own WebSocket (issue 29, item 4): a turn that
// lands on an OpenAI channel goes over one upstream socket per client connection and channel, reused turn
// after turn and closed with the client connection; each turn still metered and logged once. An upstream
// that refuses the upgrade, or whose socket dies before the first event, is called with a streamed POST on
// the same channel; one that dies mid-answer ends the turn with an error event; a channel set to
// `responses_websocket: false` is never asked. The OpenAI simulator counts upgrades, turns and open sockets.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('upws');
const PRICES = { input_per_mtok: 3, output_per_mtok: 15 };

let speaking: OpenAISimulator;
let refusing: OpenAISimulator;
let plain: OpenAISimulator;
let gateway: TestGateway;

beforeAll(async () => {
  speaking = await startOpenAISimulator({ apiKey: 'sk-upws-speaking' });
  refusing = await startOpenAISimulator({ apiKey: 'sk-upws-refusing' });
  refusing.webSocket.refuse = true;
  plain = await startOpenAISimulator({ apiKey: 'sk-upws-plain' });
  gateway = await startTestGateway({
    channels: [
      { name: 'speaking', type: 'openai', base_url: speaking.url, api_key: 'sk-upws-speaking', models: ['gpt-4o-mini', 'gpt-failover'], model_mapping: { 'gpt-failover': 'gpt-4o-mini' }, priority: 1 },
      { name: 'refusing', type: 'openai', base_url: refusing.url, api_key: 'sk-upws-refusing', models: ['gpt-refused'], model_mapping: { 'gpt-refused': 'gpt-4o-mini' } },
      { name: 'plain', type: 'openai', base_url: plain.url, api_key: 'sk-upws-plain', models: ['gpt-plain', 'gpt-failover'], model_mapping: { 'gpt-plain': 'gpt-4o-mini', 'gpt-failover': 'gpt-4o-mini' }, responses_websocket: false },
    ],
    models: [{ id: 'gpt-4o-mini', ...PRICES }, { id: 'gpt-refused', ...PRICES }, { id: 'gpt-plain', ...PRICES }, { id: 'gpt-failover', ...PRICES }],
    users: [{ name: 'una', balance: 100 }],
    keys: [{ name: 'una', key: KEY, user: 'una' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([speaking?.close(), refusing?.close(), plain?.close()]);
});

type Event = Record<string, unknown>;

/** A client connection whose events are collected; `turn` sends a response.create and waits for its last event. */
async function connect(): Promise<{ socket: WebSocket; turn(body: Record<string, unknown>): Promise<Event[]> }> {
  const socket = new WebSocket(`${gateway.url.replace(/^http/, 'ws')}/v1/responses`, { headers: { authorization: `Bearer ${KEY}`, 'openai-beta': 'responses_websockets=2026-02-06' } });
  let current: { events: Event[]; resolve: (events: Event[]) => void } | null = null;
  socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as Event;
    if (!current) return; // a test sending its own messages reads them itself
    current.events.push(event);
    if (['response.completed', 'response.failed', 'response.incomplete', 'error'].includes(String(event.type))) {
      const done = current;
      current = null;
      done.resolve(done.events);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    turn: (body) => new Promise((resolve) => {
      current = { events: [], resolve };
      socket.send(JSON.stringify({ type: 'response.create', store: false, ...body }));
    }),
  };
}

const answerOf = (events: Event[]) => {
  const completed = events.at(-1) as { type: string; response?: { output?: Array<{ content?: Array<{ text?: string }> }> } };
  return completed.response?.output?.flatMap((item) => item.content ?? []).map((part) => part.text ?? '').join('') ?? '';
};

async function usageRows() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'una').orderBy('id').execute();
}

const closed = (socket: WebSocket) => new Promise<void>((resolve) => {
  if (socket.readyState === WebSocket.CLOSED) return resolve();
  socket.once('close', () => resolve());
  socket.close();
});

describe('Responses WebSocket turns over the upstream\'s own WebSocket', () => {
  it('three turns on an OpenAI channel take one upstream socket (the channel key, the beta header), each answered right, logged and charged once; the client\'s close closes it', async () => {
    const before = { ...speaking.webSocket, posts: speaking.requests.length, rows: (await usageRows()).length };
    const { socket, turn } = await connect();
    const answers: string[] = [];
    for (const said of ['first turn', 'second turn', 'third turn']) answers.push(answerOf(await turn({ model: 'gpt-4o-mini', input: said })));
    expect(answers).toEqual(['first turn', 'second turn', 'third turn'].map((said) => `Hello from the OpenAI simulator: you said "${said}"`));
    expect(speaking.webSocket.upgrades).toBe(before.upgrades + 1);
    expect(speaking.webSocket.turns).toBe(before.turns + 3);
    expect(speaking.webSocket.open).toBe(1);
    const handshake = speaking.webSocket.handshakes.at(-1)!;
    expect(handshake.authorization).toBe('Bearer sk-upws-speaking');
    expect(handshake['openai-beta']).toBe('responses_websockets=2026-02-06');
    // Every turn came over the socket: no plain POST reached the upstream.
    expect(speaking.requests.slice(before.posts).map((request) => request.headers['x-simulator-transport'])).toEqual(['websocket', 'websocket', 'websocket']);
    // The create message is the body without `stream`.
    expect(speaking.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini', input: 'third turn', store: false });
    const rows = (await usageRows()).slice(before.rows);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ model: 'gpt-4o-mini', status: 200, endpoint: '/v1/responses' });
      expect(Number(row.input_tokens)).toBeGreaterThan(0);
      expect(Number(row.output_tokens)).toBeGreaterThan(0);
      expect(Number(row.cost_micros)).toBeGreaterThan(0);
    }
    await closed(socket);
    await expect.poll(() => speaking.webSocket.open).toBe(0);
  });

  it('an upstream that refuses the upgrade: the turns go out as streamed POSTs on the same channel, the upgrade tried once per connection', async () => {
    const before = { refused: refusing.webSocket.refused, posts: refusing.requests.length, rows: (await usageRows()).length };
    const { socket, turn } = await connect();
    expect(answerOf(await turn({ model: 'gpt-refused', input: 'refused one' }))).toBe('Hello from the OpenAI simulator: you said "refused one"');
    expect(answerOf(await turn({ model: 'gpt-refused', input: 'refused two' }))).toBe('Hello from the OpenAI simulator: you said "refused two"');
    expect(refusing.webSocket.refused).toBe(before.refused + 1);
    const posts = refusing.requests.slice(before.posts);
    expect(posts.map((request) => [request.path, request.headers['x-simulator-transport'], (request.body as { stream?: unknown }).stream])).toEqual([['/v1/responses', undefined, true], ['/v1/responses', undefined, true]]);
    expect((await usageRows()).slice(before.rows).map((row) => row.status)).toEqual([200, 200]);
    await closed(socket);
  });

  it('a channel with responses_websocket: false is never asked for the upgrade', async () => {
    const { socket, turn } = await connect();
    expect(answerOf(await turn({ model: 'gpt-plain', input: 'plain' }))).toBe('Hello from the OpenAI simulator: you said "plain"');
    expect(plain.webSocket.upgrades + plain.webSocket.refused).toBe(0);
    expect(plain.requests.at(-1)!.headers['x-simulator-transport']).toBeUndefined();
    await closed(socket);
  });

  it('an upstream socket that dies before the first event: the turn is answered by a streamed POST on the same channel; the next turn opens a new socket', async () => {
    const before = { ...speaking.webSocket, posts: speaking.requests.length };
    const { socket, turn } = await connect();
    speaking.webSocket.dieAfterEvents.push(0);
    expect(answerOf(await turn({ model: 'gpt-4o-mini', input: 'dies early' }))).toBe('Hello from the OpenAI simulator: you said "dies early"');
    expect(speaking.requests.slice(before.posts).map((request) => request.headers['x-simulator-transport'])).toEqual([undefined]);
    expect(answerOf(await turn({ model: 'gpt-4o-mini', input: 'after it' }))).toBe('Hello from the OpenAI simulator: you said "after it"');
    expect(speaking.webSocket.upgrades).toBe(before.upgrades + 2);
    await closed(socket);
    await expect.poll(() => speaking.webSocket.open).toBe(0);
  });

  it('an upstream socket that dies mid-answer: the turn ends with an error event, logged as failed; the connection serves the next turn', async () => {
    const before = (await usageRows()).length;
    const { socket, turn } = await connect();
    speaking.webSocket.dieAfterEvents.push(3);
    const cut = await turn({ model: 'gpt-4o-mini', input: 'dies mid answer' });
    expect(cut[0]!.type).toBe('response.created');
    // As a stream cut mid-way over HTTP: the Responses `error` event, after what the client already had.
    expect(cut.at(-1)).toMatchObject({ type: 'error', code: 'upstream_stream_failed' });
    expect(String(cut.at(-1)!.message)).toContain('the upstream socket closed mid-answer');
    expect(answerOf(await turn({ model: 'gpt-4o-mini', input: 'next' }))).toBe('Hello from the OpenAI simulator: you said "next"');
    const rows = (await usageRows()).slice(before);
    expect(rows).toHaveLength(2);
    expect(String(rows[0]!.error)).toContain('stream failed midway');
    expect(rows[1]!.status).toBe(200);
    await closed(socket);
    await expect.poll(() => speaking.webSocket.open).toBe(0);
  });

  it('an upstream refusal on the socket (an error event first) is an HTTP 500: retried once on the same socket, then failed over; one usage row', async () => {
    const before = { rows: (await usageRows()).length, plainPosts: plain.requests.length, turns: speaking.webSocket.turns, upgrades: speaking.webSocket.upgrades };
    const { socket, turn } = await connect();
    speaking.script({ status: 500 }, { status: 500 });
    const events = await turn({ model: 'gpt-failover', input: 'fail over' });
    expect(answerOf(events)).toBe('Hello from the OpenAI simulator: you said "fail over"');
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
    expect(plain.requests.length).toBe(before.plainPosts + 1);
    const rows = (await usageRows()).slice(before.rows);
    expect(rows.map((row) => row.status)).toEqual([200]);
    expect((JSON.parse(String(rows[0]!.attempts_json)) as Array<{ channel: string; status: number | null }>).map((attempt) => [attempt.channel, attempt.status])).toEqual([['speaking', 500], ['speaking', 500], ['plain', 200]]);
    expect(speaking.webSocket.turns - before.turns).toBe(2);
    expect(speaking.webSocket.upgrades - before.upgrades).toBe(1);
    await closed(socket);
  });

  it('a client that leaves mid-turn: the upstream socket is closed and its answer stopped (no socket left open)', async () => {
    const { socket } = await connect();
    speaking.script({ chunkDelayMs: 150 });
    const first = new Promise<void>((resolve) => socket.once('message', () => resolve()));
    socket.send(JSON.stringify({ type: 'response.create', store: false, model: 'gpt-4o-mini', input: 'slow answer' }));
    await first;
    expect(speaking.webSocket.open).toBe(1);
    socket.terminate();
    await expect.poll(() => speaking.webSocket.open).toBe(0);
    await expect.poll(() => speaking.requests.at(-1)!.aborted).toBe(true);
  });
});
