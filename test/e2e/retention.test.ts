// Retention: old usage-log rows and fine statistics go; recent ones and day buckets stay.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { applyRetention } from '../../src/metering/retention.ts';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({});
});
afterAll(async () => gateway?.dispose());

it('deletes rows past retention and keeps the rest', async () => {
  const db = gateway.database.db;
  const now = Date.now();
  const day = 86_400_000;
  const log = (age: number, request_id: string) => ({ created_at: now - age, request_id, model: 'm', inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0, status: 200, latency_ms: 1, input_tokens: 1, cached_tokens: 0, output_tokens: 1, reasoning_tokens: 0, cost_micros: 1 });
  await db.insertInto('usage_logs').values([log(40 * day, 'old'), log(1 * day, 'recent')]).execute();
  const stat = (bucket: string, age: number) => ({ bucket, bucket_start: now - age, user_id: 1, key_id: 1, model: 'm', requests: 1, errors: 0, input_tokens: 1, output_tokens: 1, cost_micros: 1 });
  await db.insertInto('usage_stats').values([stat('minute', 3 * day), stat('minute', 60_000), stat('hour', 100 * day), stat('day', 400 * day)]).execute();
  const deleted = await applyRetention(db, 30, now);
  expect(deleted).toEqual({ logs: 1, stats: 2, responses: 0 });
  expect((await db.selectFrom('usage_logs').select('request_id').execute()).map((row) => row.request_id)).toEqual(['recent']);
  expect((await db.selectFrom('usage_stats').select('bucket').orderBy('bucket').execute()).map((row) => row.bucket)).toEqual(['day', 'minute']);
});
