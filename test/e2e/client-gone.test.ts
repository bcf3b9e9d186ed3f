// A client that hangs up while the gateway waits for the upstream: the call is logged as the client's
// departure (499, GW_ERR_CLIENT_GONE), its reservation released and nothing charged, and the gateway does
// not report it as its own internal error (it used to log "internal error" at error level for each).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../src/config/env.ts';
import { startGateway, type RunningGateway } from '../../src/start-gateway.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey } from '../helpers/test-gateway.ts';

const KEY = testKey('clientgone');
const UPSTREAM_KEY = 'sk-upstream-gone-0001';
let upstream: OpenAISimulator;
let gateway: RunningGateway;
let dir: string;
const logLines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  dir = await mkdtemp(join(tmpdir(), 'gateway-gone-'));
  const configFile = join(dir, 'gateway.yaml');
  await writeFile(configFile, stringify({
    channels: [{ name: 'main', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['gpt-4o'] }],
    models: [{ id: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'gina', balance: 10 }],
    keys: [{ name: 'main', key: KEY, user: 'gina' }],
  }));
  const sink = new Writable({ write(chunk, _encoding, done) { for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line)); done(); } });
  gateway = await startGateway({
    env: readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'gateway.db')}`, GATEWAY_SECRET: 'test-secret-test-secret-test-secret', FLUSH_INTERVAL_MS: '50', SHUTDOWN_GRACE_MS: '2000' }),
    configFile,
    logger: pino({ level: 'info' }, sink),
  });
});

afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function hangUpWhileWaiting(stream: boolean): Promise<void> {
  // The upstream takes 1.5 s to answer; the client gives up after 200 ms.
  upstream.script({ delayMs: 1500 });
  const controller = new AbortController();
  const call = fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content: `leaving early (${stream ? 'stream' : 'whole'})` }] }),
    signal: controller.signal,
  });
  setTimeout(() => controller.abort(), 200);
  await expect(call).rejects.toThrow();
}

async function rowsGone(count: number) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const rows = await gateway.database.db.selectFrom('usage_logs').select(['status', 'error_code', 'cost_micros']).where('error_code', '=', 'GW_ERR_CLIENT_GONE').execute();
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a client that hangs up before the first byte', () => {
  it('is logged as gone (499), charged nothing, and not reported as an internal error', async () => {
    const balanceBefore = (await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', 'gina').executeTakeFirstOrThrow()).balance_micros;
    await hangUpWhileWaiting(false);
    await hangUpWhileWaiting(true);
    const rows = await rowsGone(2);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ status: 499, error_code: 'GW_ERR_CLIENT_GONE', cost_micros: 0 });
    // The upstream's late answers arrive after the client left; wait them out, then look at the log.
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(logLines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    const balanceAfter = (await gateway.database.db.selectFrom('users').select('balance_micros').where('name', '=', 'gina').executeTakeFirstOrThrow()).balance_micros;
    expect(balanceAfter).toBe(balanceBefore);
    // And the gateway still answers.
    const ok = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'still there?' }] }),
    });
    expect(ok.status).toBe(200);
  });
});
