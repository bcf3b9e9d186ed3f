// Amounts the admin and key APIs take are stored exactly or refused (issue 31): a grant, a debit or a key
// quota finer than a micro-dollar is a 400 naming the field, and the wallet, read back, has not moved
// (it used to be rounded to the nearest micro-dollar, or to nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

let gateway: TestGateway;
let admin: ApiClient;
let user: ApiClient;

beforeAll(async () => {
  gateway = await startTestGateway({
    users: [
      { name: 'root', email: 'exact-root@example.com', password: 'exact root password', role: 'admin' },
      { name: 'una', email: 'exact-user@example.com', password: 'exact user password', balance: 2 },
    ],
  });
  admin = new ApiClient(gateway.url);
  expect((await admin.post('/api/auth/login', { email: 'exact-root@example.com', password: 'exact root password' })).status).toBe(200);
  user = new ApiClient(gateway.url);
  expect((await user.post('/api/auth/login', { email: 'exact-user@example.com', password: 'exact user password' })).status).toBe(200);
});

afterAll(async () => {
  await gateway?.dispose();
});

describe('exact amounts', () => {
  it('refuses grants, debits and quotas finer than a micro-dollar, and nothing moves', async () => {
    const una = ((await admin.get('/api/admin/users?q=exact-user')).body.data as Array<{ id: number }>)[0]!;
    const balance = async () => ((await admin.get(`/api/admin/users/${una.id}`)).body as { balance_usd: number }).balance_usd;
    expect(await balance()).toBe(2);
    for (const amount of [0.0000005, 1.1234567, -0.0000001]) {
      const answer = await admin.post(`/api/admin/users/${una.id}/grant`, { amount_usd: amount });
      expect({ amount, status: answer.status, param: answer.body.error?.param }).toEqual({ amount, status: 400, param: 'amount_usd' });
    }
    expect(await balance()).toBe(2);
    expect((await admin.post(`/api/admin/users/${una.id}/grant`, { amount_usd: 0.000001 })).status).toBe(200);
    expect(await balance()).toBe(2.000001);

    const created = await user.post('/api/keys', { name: 'exact', quota_usd: 0.0000001 });
    expect({ status: created.status, param: created.body.error?.param }).toEqual({ status: 400, param: 'quota_usd' });
    expect((await user.get('/api/keys')).body.data).toEqual([]);
    expect((await admin.post('/api/admin/keys', { user: 'una', name: 'k', quota_usd: 1.0000001 })).body.error?.param).toBe('quota_usd');
  });

  it("refuses a channel's priority or weight past what the dashboard's form takes, and creates nothing", async () => {
    const channel = { type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-upstream', models: ['bounded-model'] };
    const names = async () => ((await admin.get('/api/admin/channels')).body.data as Array<{ name: string }>).map((row) => row.name);
    for (const [field, value] of [['priority', 1_000_001], ['priority', -1_000_001], ['priority', 1.5], ['weight', -1], ['weight', 1_000_001]] as const) {
      const answer = await admin.post('/api/admin/channels', { ...channel, name: `bounded-${field}-${value}`, [field]: value });
      expect({ field, value, status: answer.status, param: answer.body.error?.param }).toEqual({ field, value, status: 400, param: field });
    }
    expect((await names()).filter((name) => name.startsWith('bounded-'))).toEqual([]);
    const edge = await admin.post('/api/admin/channels', { ...channel, name: 'bounded-edge', priority: -1_000_000, weight: 1_000_000 });
    expect(edge.status).toBe(201);
    expect(await names()).toContain('bounded-edge');
  });
});
