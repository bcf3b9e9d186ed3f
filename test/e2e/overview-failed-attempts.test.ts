// The platform overview's failed attempts per channel (issue 31): read from the newest 500 failed calls of
// the hour. A busier hour is not shown as a lower bound over the whole hour: the count is exact over the
// window the answer names (failed_attempts_since), and the dashboard says "since <time>".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const ADMIN = { email: 'attempts-root@example.com', password: 'attempts root password 1' };
type Channel = { name: string; failed_attempts_last_hour: number; failed_attempts_counted_partly: boolean; failed_attempts_since: string };

let gateway: TestGateway;
let admin: ApiClient;

beforeAll(async () => {
  gateway = await startTestGateway({
    channels: [
      { name: 'busy', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-x', models: ['m1'] },
      { name: 'quiet', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-x', models: ['m1'] },
    ],
    models: [{ id: 'm1', owned_by: 'acme', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
}, 60_000);

afterAll(async () => gateway?.dispose());

const failedCall = (at: number, channelId: number, id: string) => ({ created_at: at, request_id: id, model: 'm1', channel_id: channelId, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: 0, status: 502, latency_ms: 1, input_tokens: 0, cached_tokens: 0, output_tokens: 0, reasoning_tokens: 0, cost_micros: 0, error: 'upstream failed', error_code: 'upstream_error' });

async function channels(): Promise<Record<string, Channel>> {
  const answer = await admin.get<{ channels: Channel[] }>('/api/admin/overview');
  expect(answer.status).toBe(200);
  return Object.fromEntries(answer.body.channels.map((channel) => [channel.name, channel]));
}

describe('failed attempts of the last hour', () => {
  it('are counted over the whole hour while it holds at most 500 failed calls', async () => {
    const db = gateway.database.db;
    const ids = Object.fromEntries((await db.selectFrom('channels').select(['id', 'name']).execute()).map((row) => [row.name, Number(row.id)]));
    const now = Date.now();
    await db.insertInto('usage_logs').values([failedCall(now - 50 * 60_000, ids.quiet!, 'q1'), failedCall(now - 40 * 60_000, ids.quiet!, 'q2'), failedCall(now - 2 * 3_600_000, ids.quiet!, 'old')]).execute();
    const seen = await channels();
    expect(seen.quiet).toMatchObject({ failed_attempts_last_hour: 2, failed_attempts_counted_partly: false });
    expect(Date.parse(seen.quiet!.failed_attempts_since)).toBeGreaterThanOrEqual(now - 3_600_000);
    expect(Date.parse(seen.quiet!.failed_attempts_since)).toBeLessThan(now - 50 * 60_000);
  });

  it('past 500, are exact over the window the answer names, never a lower bound passed off as the hour', async () => {
    const db = gateway.database.db;
    const ids = Object.fromEntries((await db.selectFrom('channels').select(['id', 'name']).execute()).map((row) => [row.name, Number(row.id)]));
    const now = Date.now();
    // 700 failures of "busy" over the last 12 minutes, two of them at the same millisecond at the boundary.
    const busy = Array.from({ length: 700 }, (_, i) => failedCall(now - (i === 500 ? 499 : i) * 1000, ids.busy!, `b${i}`));
    for (let start = 0; start < busy.length; start += 100) await db.insertInto('usage_logs').values(busy.slice(start, start + 100)).execute();
    const seen = await channels();
    const since = Date.parse(seen.busy!.failed_attempts_since);
    expect(seen.busy!.failed_attempts_counted_partly).toBe(true);
    expect(since).toBeGreaterThan(now - 3_600_000);
    // Exact over (since, now]: every failure after the window's start, none before.
    expect(seen.busy!.failed_attempts_last_hour).toBe(busy.filter((row) => row.created_at > since).length);
    expect(seen.busy!.failed_attempts_last_hour).toBe(499);
    // The quiet channel's two failures are older than the window: 0 since then, and the same window.
    expect(seen.quiet).toMatchObject({ failed_attempts_last_hour: 0, failed_attempts_counted_partly: true, failed_attempts_since: seen.busy!.failed_attempts_since });
  });
});
