// The platform and per-key roll-ups (usage_stats_platform, usage_stats_keys) hold exactly a GROUP BY over
// the usage log, after calls over the wire that succeed and fail and a metering batch spread over ten days,
// on both engines; /api/stats?scope=platform answers from them with the same sums for minute, hour and
// day buckets over ranges that do and do not fall on bucket edges; retention trims them like usage_stats.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { STAT_BUCKETS, writeMeteringBatch, type MeteringEntry } from '../../src/metering/metering-writer.ts';
import { applyRetention, HOUR_STATS_RETENTION_MS, MINUTE_STATS_RETENTION_MS } from '../../src/metering/retention.ts';
import { expectedRollups, type LoggedCall } from './platform-stats-expected.ts';

const UPSTREAM_KEY = 'sk-upstream-platform-stats';
const KEYS = { boss: testKey('platformboss'), ann1: testKey('platformann1'), ann2: testKey('platformann2'), bob: testKey('platformbob') };
const DAY = 86_400_000;
let upstream: OpenAISimulator;
let postgres: TestPostgres;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  postgres = await createTestPostgres();
});
afterAll(async () => {
  await postgres?.drop();
  await upstream?.close();
});

const config = () => ({
  channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m1', 'm2'] }],
  models: [{ id: 'm1', input_per_mtok: 3, output_per_mtok: 7 }, { id: 'm2', input_per_mtok: 1, output_per_mtok: 2 }],
  users: [
    { name: 'boss', balance: 100, email: 'boss@example.com', role: 'admin' },
    { name: 'ann', balance: 100, email: 'ann@example.com' },
    { name: 'bob', balance: 100, email: 'bob@example.com' },
  ],
  keys: [
    { name: 'boss', key: KEYS.boss, user: 'boss' },
    { name: 'ann1', key: KEYS.ann1, user: 'ann' },
    { name: 'ann2', key: KEYS.ann2, user: 'ann' },
    { name: 'bob', key: KEYS.bob, user: 'bob' },
  ],
});

describe.each([
  ['sqlite', () => ({})],
  ['postgres', () => ({ DATABASE_URL: postgres.url })],
])('platform statistics on %s', (_engine, extraEnv) => {
  let gateway: TestGateway;
  const now = Date.now();
  beforeAll(async () => {
    gateway = await startTestGateway(config(), { env: extraEnv() });
  });
  afterAll(async () => gateway?.dispose());

  const loggedCalls = async (): Promise<LoggedCall[]> => gateway.database.db.selectFrom('usage_logs')
    .select(['created_at', 'user_id', 'key_id', 'model', 'status', 'input_tokens', 'output_tokens', 'cost_micros']).execute();
  const stored = async () => {
    const db = gateway.database.db;
    const order = (rows: readonly object[]) => rows.map((row) => JSON.stringify(row)).sort();
    return {
      platform: order(await db.selectFrom('usage_stats_platform').select(['bucket', 'bucket_start', 'model', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros']).execute()),
      keys: order(await db.selectFrom('usage_stats_keys').select(['bucket', 'bucket_start', 'user_id', 'key_id', 'requests', 'errors', 'input_tokens', 'output_tokens', 'cost_micros']).execute()),
    };
  };
  const expected = (calls: LoggedCall[], keep: (bucket: string, start: number) => boolean = () => true) => {
    const { platform, keys } = expectedRollups(calls, keep);
    const order = (rows: readonly object[]) => rows.map((row) => JSON.stringify(row)).sort();
    return { platform: order(platform), keys: order(keys) };
  };

  it('equal a GROUP BY over the usage log after calls that succeed and fail, and a batch over ten days', async () => {
    const clients = Object.values(KEYS).map((key) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: key, maxRetries: 0 }));
    let failed = 0;
    for (let i = 0; i < 16; i++) {
      if (i % 5 === 2) upstream.script({ status: 400 });
      const call = clients[i % clients.length]!.chat.completions.create({ model: i % 3 === 0 ? 'm2' : 'm1', messages: [{ role: 'user', content: `question ${i}` }] });
      if (i % 5 === 2) {
        await expect(call).rejects.toMatchObject({ status: 400 });
        failed++;
      } else {
        await call;
      }
    }
    await gateway.recorder.flush();

    // Older history, as the metering writer writes it: every user and key, a call without a key, failures.
    const db = gateway.database.db;
    const users = await db.selectFrom('api_keys').select(['id', 'user_id']).orderBy('id').execute();
    const entries: MeteringEntry[] = Array.from({ length: 300 }, (_, i) => {
      const owner = users[i % users.length]!;
      const status = i % 7 === 0 ? 502 : 200;
      const cost = status === 200 ? 10 + (i % 13) : 0;
      return {
        chargeMicros: cost,
        log: {
          created_at: now - Math.floor((i / 300) * 10 * DAY) - (i % 17) * 61_000, request_id: `history-${i}`,
          user_id: owner.user_id, key_id: i % 11 === 0 ? null : owner.id, key_name: null, model: ['m1', 'm2', 'm3'][i % 3]!,
          upstream_model: null, channel_id: null, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0, status,
          latency_ms: 5, ttft_ms: null, input_tokens: 100 + i, cached_tokens: 0, output_tokens: 20 + (i % 50), reasoning_tokens: 0, cost_micros: cost, error: null, attempts_json: null,
        },
      };
    });
    await writeMeteringBatch(db, entries.slice(0, 150));
    await writeMeteringBatch(db, entries.slice(150));

    const calls = await loggedCalls();
    expect(calls).toHaveLength(316);
    expect(calls.filter((call) => call.status >= 400)).toHaveLength(failed + entries.filter((entry) => entry.log.status !== 200).length);
    expect(await stored()).toEqual(expected(calls));
  });

  it('answers /api/stats?scope=platform with the log\'s sums, by model and by key, for every bucket and range', async () => {
    const calls = await loggedCalls();
    const boss = new ApiClient(gateway.url, KEYS.boss);
    const names = new Map((await gateway.database.db.selectFrom('api_keys').select(['id', 'name']).execute()).map((row) => [row.id, row.name]));
    expect([...names.values()].sort()).toEqual(['ann1', 'ann2', 'bob', 'boss']);
    const ranges: [keyof typeof STAT_BUCKETS, number, number][] = [
      ['hour', now - 7 * DAY, now],
      ['day', now - 11 * DAY, now],
      ['hour', now - 10 * DAY - 1_234_567, now - 2 * DAY + 7_654_321],
      ['minute', now - 3 * 3_600_000 - 12_345, now + 60_000],
      ['minute', now - 30 * 60_000, now],
      ['hour', now - 36 * 3_600_000, now - 3_600_000],
      // Long enough to hold whole (epoch-aligned) weeks: the by-key sums read week buckets.
      ['day', now - 30 * DAY, now],
      ['hour', now - 20 * DAY - 1_234_567, now],
    ];
    let rangesWithRest = 0;
    for (const [bucket, from, to] of ranges) {
      const answer = await boss.get(`/api/stats?scope=platform&bucket=${bucket}&from=${from}&to=${to}`);
      expect(answer.status).toBe(200);
      const size = STAT_BUCKETS[bucket];
      const end = to % size === 0 ? to : to - (to % size) + size;
      const inRange = calls.filter((call) => call.created_at >= from - (from % size) && call.created_at < end);
      expect(inRange.length).toBeGreaterThan(0);
      const sum = (rows: LoggedCall[]) => ({
        requests: rows.length, errors: rows.filter((row) => row.status >= 400).length,
        inputTokens: rows.reduce((total, row) => total + row.input_tokens, 0), outputTokens: rows.reduce((total, row) => total + row.output_tokens, 0),
        costMicros: rows.reduce((total, row) => total + row.cost_micros, 0),
      });
      expect(answer.body.totals).toMatchObject(sum(inRange));
      const models = [...new Set(inRange.map((call) => call.model))].sort();
      expect(answer.body.by_model).toEqual(models.map((model) => expect.objectContaining({ model, ...sum(inRange.filter((call) => call.model === model)) })));
      // By key: the keys that cost most first (then requests, then id); with keys=2, the others summed.
      const byKey = [...new Set(inRange.map((call) => call.key_id ?? 0))].map((key_id) => ({ key_id, ...sum(inRange.filter((call) => (call.key_id ?? 0) === key_id)) }))
        .sort((a, b) => b.costMicros - a.costMicros || b.requests - a.requests || a.key_id - b.key_id);
      if (byKey.length > 2) rangesWithRest++;
      expect(answer.body.by_key).toEqual(byKey.map((row) => expect.objectContaining(row)));
      expect(answer.body.by_key_rest).toBeNull();
      for (const row of answer.body.by_key as { key_id: number; key_name: string | null }[]) expect(row.key_name).toBe(row.key_id === 0 ? null : names.get(row.key_id));
      const topTwo = await boss.get(`/api/stats?scope=platform&bucket=${bucket}&from=${from}&to=${to}&keys=2`);
      expect(topTwo.body.by_key).toEqual(byKey.slice(0, 2).map((row) => expect.objectContaining(row)));
      const rest = inRange.filter((call) => !byKey.slice(0, 2).some((row) => row.key_id === (call.key_id ?? 0)));
      expect(topTwo.body.by_key_rest).toEqual(byKey.length > 2 ? { keys: byKey.length - 2, ...sum(rest), costUsd: sum(rest).costMicros / 1_000_000 } : null);
      expect(answer.body.series.reduce((total: number, point: { requests: number }) => total + point.requests, 0)).toBe(inRange.length);
    }
    expect(rangesWithRest).toBeGreaterThan(2);
    // An empty range (from = to on a bucket edge) covers no bucket: empty sums, not an error.
    const edge = now - (now % DAY);
    const empty = await boss.get(`/api/stats?scope=platform&bucket=hour&from=${edge}&to=${edge}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ series: [], by_model: [], by_key: [], by_key_rest: null, totals: { requests: 0 } });
    expect((await new ApiClient(gateway.url, KEYS.bob).get('/api/stats?scope=platform')).status).toBe(403);
    for (const keys of ['0', '1001', 'many']) {
      const refused = await boss.get(`/api/stats?scope=platform&keys=${keys}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ type: 'invalid_request_error' });
    }
  });

  it('trims the roll-ups\' minute and hour buckets with usage_stats, and what is kept still agrees with the log', async () => {
    const later = now + 3 * DAY;
    const before = await gateway.database.db.selectFrom('usage_stats_platform').select('bucket').where('bucket', '=', 'minute').execute();
    expect(before.length).toBeGreaterThan(0);
    const deleted = await applyRetention(gateway.database.db, 0, later);
    expect(deleted.stats).toBeGreaterThan(0);
    const kept = (bucket: string, start: number) => bucket === 'day' || bucket === 'week'
      || (bucket === 'minute' && start >= later - MINUTE_STATS_RETENTION_MS) || ((bucket === 'hour' || bucket === 'six_hours') && start >= later - HOUR_STATS_RETENTION_MS);
    expect(await stored()).toEqual(expected(await loggedCalls(), kept));
    const minutes = await gateway.database.db.selectFrom('usage_stats').select('bucket_start').where('bucket', '=', 'minute').execute();
    expect(minutes.every((row) => row.bucket_start >= later - MINUTE_STATS_RETENTION_MS)).toBe(true);
  });
});
