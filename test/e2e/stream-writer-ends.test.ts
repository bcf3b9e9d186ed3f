// How a streamed answer ends, now that the StreamWriter (src/http/send-relay-result.ts) writes it after
// the route has returned: whatever the client or the upstream does, the call is recorded exactly once and
// charged once for what was delivered, the cost trailer (x-gateway-cost) carries that charge when the
// client stays to the end, and nothing is left unhandled.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('streamends');
const UPSTREAM_KEY = 'sk-upstream-ends-0001';
let upstream: OpenAISimulator;
let gateway: TestGateway;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  gateway = await startTestGateway({
    channels: [{ name: 'only', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
    models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'ends', balance: 1000 }],
    keys: [{ name: 'main', key: KEY, user: 'ends' }],
  });
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await gateway?.dispose();
  await upstream?.close();
});

/** A prompt the simulator echoes back one word per event: ~14 MB of events, far more than socket buffers hold. */
const WORDS = 40_000;
const longPrompt = Array.from({ length: WORDS }, (_, i) => `w${i}${'x'.repeat(200)}`).join(' ');

interface Streamed {
  response: IncomingMessage;
  requestId: string;
}

/** POSTs a streamed chat call with node:http (which reads trailers); resolves once the headers are in. */
function startStream(content: string): Promise<Streamed> {
  const body = JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content }] });
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port: Number(port), method: 'POST', path: '/v1/chat/completions', agent: false, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      resolve({ response, requestId: String(response.headers['x-request-id']) });
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Reads the rest of the answer a little at a time, pausing between reads; the text and the trailers. */
function readSlowly(response: IncomingMessage): Promise<{ text: string; trailers: NodeJS.Dict<string> }> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      response.pause();
      setTimeout(() => response.resume(), 2);
    });
    response.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), trailers: response.trailers }));
    response.on('error', reject);
  });
}

async function rowsOf(requestId: string) {
  const deadline = Date.now() + 8_000;
  for (;;) {
    const rows = await gateway.database.db.selectFrom('usage_logs').select(['status', 'error_code', 'cost_micros', 'output_tokens']).where('request_id', '=', requestId).execute();
    if (rows.length > 0 || Date.now() > deadline) {
      // Anything recorded twice would have been queued in the same flush or the next: look once more.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return gateway.database.db.selectFrom('usage_logs').select(['status', 'error_code', 'cost_micros', 'output_tokens']).where('request_id', '=', requestId).execute();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function balance(): Promise<number> {
  const row = await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', 'ends').executeTakeFirstOrThrow();
  return Number(row.balance_micros);
}

/** The balance once the charges queued so far are applied (the recorder writes behind). */
async function settledBalance(expected: number): Promise<number> {
  const deadline = Date.now() + 5_000;
  let now = await balance();
  while (now !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = await balance();
  }
  return now;
}

describe('a streamed answer, however it ends', () => {
  it('read slowly to the end: every event, the cost trailer equal to the one charge recorded', async () => {
    const before = await balance();
    const { response, requestId } = await startStream(longPrompt);
    expect(response.headers.trailer).toBe('x-gateway-cost');
    const { text, trailers } = await readSlowly(response);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect([...text.matchAll(/w(\d+)x{200}/g)].length).toBe(WORDS);
    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, error_code: null });
    const cost = Number(rows[0]!.cost_micros);
    expect(cost).toBeGreaterThan(0);
    expect(trailers['x-gateway-cost']).toBe(String(cost));
    expect(await settledBalance(before - cost)).toBe(before - cost);
  }, 60_000);

  it('a client that stops reading and hangs up while the gateway waits for it: recorded once as gone, charged for what it got, upstream stopped', async () => {
    const before = await balance();
    upstream.reset();
    const { response, requestId } = await startStream(longPrompt);
    // Read nothing: the gateway's writes fill the socket and it waits for 'drain'; then leave.
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    response.destroy();
    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, error_code: 'GW_ERR_CLIENT_GONE' });
    const cost = Number(rows[0]!.cost_micros);
    expect(cost).toBeGreaterThan(0);
    expect(await settledBalance(before - cost)).toBe(before - cost);
    const deadline = Date.now() + 3_000;
    while (!upstream.requests[0]?.aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.requests[0]?.aborted).toBe(true);
  }, 60_000);

  it('a client that hangs up while the upstream is silent: recorded once as gone, upstream stopped', async () => {
    upstream.reset();
    upstream.script({ stallAfterChunks: 3 });
    const { response, requestId } = await startStream('one two three four five six seven');
    const first = await new Promise<string>((resolve) => response.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    expect(first).toContain('data: ');
    await new Promise((resolve) => setTimeout(resolve, 200));
    response.destroy();
    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, error_code: 'GW_ERR_CLIENT_GONE' });
    const deadline = Date.now() + 3_000;
    while (!upstream.requests[0]?.aborted && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.requests[0]?.aborted).toBe(true);
  });

  it('an upstream cut mid-stream (no other route): the client gets the error event and the cost trailer, recorded once', async () => {
    // Events apart, so the first reaches the client before the cut (a cut before that is retried unseen).
    upstream.script({ cutStreamAfterChunks: 3, chunkDelayMs: 30 });
    const { response, requestId } = await startStream('one two three four five six seven');
    const { text, trailers } = await readSlowly(response);
    expect(text).toContain('"error"');
    expect(text).not.toContain('[DONE]');
    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.error_code).toBe('GW_ERR_STREAM_CUT');
    expect(trailers['x-gateway-cost']).toBe(String(rows[0]!.cost_micros));
  });

  it('left nothing unhandled', () => {
    expect(unhandled).toEqual([]);
  });
});
