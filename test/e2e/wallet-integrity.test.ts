// The wallet under an administrator's grants and under calls whose estimate is zero, on SQLite and
// PostgreSQL, with the counters in memory and in Redis: a grant counts once, grants and quotas are bounded
// and exact, and no priced call starts on an empty wallet or an exhausted key quota.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { sumLedgerByUser } from '../../src/db/repositories/wallet-ledger.ts';
import { estimateDurationMs } from '../../src/endpoints/audio-transcriptions.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEYS = { caller: testKey('walletcaller'), admin: testKey('walletadmin'), broke: testKey('walletbroke'), spent: testKey('walletspent') };

const setups = [
  { name: 'SQLite, counters in memory', postgres: false, redis: false },
  { name: 'PostgreSQL, counters in memory', postgres: true, redis: false },
  { name: 'PostgreSQL, counters in Redis', postgres: true, redis: true },
];

/** A WAV header whose byte rate claims 0xFFFFFFFF bytes a second, then `bytes` of samples. */
function lyingWav(bytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(0xffffffff, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(bytes, 40);
  return Buffer.concat([header, Buffer.alloc(bytes, 1)]);
}

describe.each(setups)('wallet integrity: $name', (setup) => {
  let upstream: OpenAISimulator;
  let postgres: TestPostgres | undefined;
  let gateway: TestGateway;
  let prefix: string;

  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: 'k' });
    postgres = setup.postgres ? await createTestPostgres() : undefined;
    prefix = testRedisPrefix();
    const env: Record<string, string> = {};
    if (postgres) env.DATABASE_URL = postgres.url;
    if (setup.redis) Object.assign(env, { REDIS_URL, REDIS_PREFIX: prefix });
    gateway = await startTestGateway({
      channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: 'k', models: ['cent', 'whisper-1'] }],
      models: [{ id: 'cent', per_request: 0.01 }, { id: 'whisper-1', per_audio_minute: 0.006 }],
      users: [{ name: 'gus', balance: 0.05 }, { name: 'ada', balance: 100, role: 'admin' }, { name: 'nil', balance: 0 }],
      keys: [
        { name: 'caller', key: KEYS.caller, user: 'gus' },
        { name: 'admin', key: KEYS.admin, user: 'ada' },
        { name: 'broke', key: KEYS.broke, user: 'nil' },
        { name: 'spent', key: KEYS.spent, user: 'ada', quota: 0 },
      ],
    }, { env });
  });

  afterAll(async () => {
    await gateway?.dispose();
    await postgres?.drop();
    await upstream?.close();
    if (setup.redis) {
      const redis = new Redis(REDIS_URL);
      const leftovers = await redis.keys(`${prefix}*`);
      if (leftovers.length > 0) await redis.del(...leftovers);
      await redis.quit();
    }
  });

  const userId = async (name: string) => (await gateway.database.db.selectFrom('users').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const grant = (user: number, body: unknown) => fetch(`${gateway.url}/api/admin/users/${user}/grant`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as { balance_usd?: number; error?: { param?: string; message: string } } }));
  const call = (key: string, model = 'cent') => fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  }).then((response) => response.status);
  const transcribe = async (key: string, audio: Buffer) => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array(audio)]), 'speech.wav');
    const response = await fetch(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    return { status: response.status, body: (await response.json()) as { error?: { code?: string } } };
  };

  it('counts a grant once when the user made no call since the start', async () => {
    const gus = await userId('gus');
    const granted = await grant(gus, { amount_usd: 0.05 });
    expect(granted).toMatchObject({ status: 200, body: { balance_usd: 0.1 } });
    let served = 0;
    for (let i = 0; i < 20; i++) if ((await call(KEYS.caller)) === 200) served++;
    expect(served).toBe(10);
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('users').select('balance_micros').where('id', '=', gus).executeTakeFirstOrThrow();
    expect(row.balance_micros).toBe(0);
    expect(await sumLedgerByUser(gateway.database.db, gus)).toBe(0);
    expect(await gateway.accounting.balance(gus)).toBe(0);
  });

  it('refuses grants, debits and quotas beyond the bound with a 400 naming the field', async () => {
    const ada = await userId('ada');
    for (const amount of [1e20, -1e20, 1e12, 1e-9]) {
      const refused = await grant(ada, { amount_usd: amount });
      expect(refused.status).toBe(400);
      expect(refused.body.error?.param).toBe('amount_usd');
    }
    const quota = await fetch(`${gateway.url}/api/admin/keys/1`, { method: 'PATCH', headers: { authorization: `Bearer ${KEYS.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ quota_usd: 1e20 }) });
    expect(quota.status).toBe(400);
    expect(((await quota.json()) as { error: { param: string } }).error.param).toBe('quota_usd');
    const created = await fetch(`${gateway.url}/api/admin/keys`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ user: 'ada', name: 'huge', quota_usd: 1e20 }) });
    expect(created.status).toBe(400);
  });

  it('keeps a large grant and its reversal exact to the micro-dollar', async () => {
    const ada = await userId('ada');
    const before = await gateway.accounting.balance(ada);
    expect((await grant(ada, { amount_usd: 987654321.123457 })).status).toBe(200);
    const reversed = await grant(ada, { amount_usd: -987654321.123457 });
    expect(reversed.status).toBe(200);
    expect(await gateway.accounting.balance(ada)).toBe(before);
    const row = await gateway.database.db.selectFrom('users').select('balance_micros').where('id', '=', ada).executeTakeFirstOrThrow();
    expect(row.balance_micros).toBe(before);
    expect(Number.isInteger(row.balance_micros)).toBe(true);
    expect(await sumLedgerByUser(gateway.database.db, ada)).toBe(before);
  });

  it('serves no call on an empty wallet or an exhausted key quota, even when the estimate is zero', async () => {
    const requests = upstream.requests.length;
    const wav = lyingWav(64_000);
    expect(await transcribe(KEYS.broke, wav)).toMatchObject({ status: 429, body: { error: { code: 'insufficient_quota' } } });
    expect(await transcribe(KEYS.spent, wav)).toMatchObject({ status: 429, body: { error: { code: 'insufficient_quota' } } });
    expect(await call(KEYS.broke)).toBe(429);
    expect(upstream.requests.length).toBe(requests);
    await gateway.recorder.flush();
    const nil = await userId('nil');
    const row = await gateway.database.db.selectFrom('users').select('balance_micros').where('id', '=', nil).executeTakeFirstOrThrow();
    expect(row.balance_micros).toBe(0);
  });
});

describe('WAV duration estimate', () => {
  it('does not trust a byte rate the rest of the header contradicts, nor a file shorter than its header', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-wav-'));
    try {
      const path = join(dir, 'a.wav');
      const audio = lyingWav(64_000);
      await writeFile(path, audio);
      // 16 kHz, 16-bit mono is 32,000 bytes a second: two seconds, whatever the byte rate field says.
      expect(await estimateDurationMs({ path, size: audio.length } as never)).toBe(2000);
      await writeFile(path, audio.subarray(0, 20));
      expect(await estimateDurationMs({ path, size: 20 } as never)).toBeGreaterThanOrEqual(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
