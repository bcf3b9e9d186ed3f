// The shared wallet under concurrent spending (issue 34): 100 calls at once from four members' keys against
// a wallet that covers only some of them never overdraw it, a member's monthly cap is never passed, and
// afterwards the balance equals the ledger. In memory on SQLite, and in Redis on PostgreSQL.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from '../helpers/test-gateway.ts';
import { startTestSmtp, linkIn, type TestSmtp } from '../helpers/test-smtp.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { ApiClient } from '../helpers/api-client.ts';
import { sumLedgerByUser } from '../../src/db/repositories/wallet-ledger.ts';

const UPSTREAM_KEY = 'sk-upstream-organisation-money';
const MEMBERS = ['owner', 'ann', 'ben', 'cid'] as const;

describe.each([
  { engine: 'SQLite', accounting: 'memory' },
  { engine: 'PostgreSQL', accounting: 'Redis' },
])('a shared wallet on $engine ($accounting accounting)', ({ engine, accounting }) => {
  let upstream: OpenAISimulator;
  let smtp: TestSmtp;
  let postgres: TestPostgres | undefined;
  let gateway: TestGateway;
  let org: { id: number; walletUserId: number };
  const keys: Record<string, string> = {};
  const memberIds: Record<string, number> = {};

  beforeAll(async () => {
    upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
    smtp = await startTestSmtp();
    postgres = engine === 'PostgreSQL' ? await createTestPostgres() : undefined;
    gateway = await startTestGateway({
      channels: [{ name: 'sim', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['priced'] }],
      // 100 micro-USD per token in and out: a call of ~20 tokens costs ~2,000 micro-USD.
      models: [{ id: 'priced', input_per_mtok: 100, output_per_mtok: 100 }],
      users: [
        { name: 'root', email: 'root@example.com', password: 'root password 123', role: 'admin' },
        ...MEMBERS.map((name) => ({ name, email: `${name}@example.com`, password: `${name} password 123` })),
      ],
    }, {
      env: {
        SMTP_URL: smtp.url, MAIL_POLL_MS: '50',
        ...(postgres ? { DATABASE_URL: postgres.url, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: testRedisPrefix() } : {}),
      },
    });
    const clients: Record<string, ApiClient> = {};
    for (const name of MEMBERS) {
      clients[name] = new ApiClient(gateway.url);
      await clients[name].post('/api/auth/login', { email: `${name}@example.com`, password: `${name} password 123` });
      memberIds[name] = (await clients[name].get('/api/me')).body.user.id;
    }
    const created = await clients.owner!.post('/api/orgs', { name: 'Shared' });
    org = { id: created.body.id, walletUserId: 0 };
    for (const name of MEMBERS.slice(1)) {
      const since = smtp.mails.length;
      await clients.owner!.post(`/api/orgs/${org.id}/invites`, { email: `${name}@example.com`, role: name === 'ann' ? 'billing' : 'member' });
      const mail = await smtp.waitFor(`${name}@example.com`, /Join/, since);
      expect((await clients[name]!.post('/api/orgs/join', { token: new URL(linkIn(mail, '/orgs/join?token=')).searchParams.get('token') })).status).toBe(200);
    }
    for (const name of MEMBERS) keys[name] = (await clients[name]!.post(`/api/orgs/${org.id}/keys`, { name: `${name}-key` })).body.key;
    // Ben may spend at most 10,000 micro-USD this month.
    expect((await clients.owner!.patch(`/api/orgs/${org.id}/members/${memberIds.ben}`, { monthly_cap_usd: 0.01 })).status).toBe(200);
    const row = await gateway.database.db.selectFrom('organisations').select('wallet_user_id').where('id', '=', org.id).executeTakeFirstOrThrow();
    org.walletUserId = Number(row.wallet_user_id);
    // 0.05 USD: enough for a part of the 100 calls only.
    const root = new ApiClient(gateway.url);
    await root.post('/api/auth/login', { email: 'root@example.com', password: 'root password 123' });
    expect((await root.post(`/api/admin/users/${org.walletUserId}/grant`, { amount_usd: 0.05 })).status).toBe(200);
  });

  afterAll(async () => {
    await gateway?.dispose();
    await postgres?.drop();
    await smtp?.close();
    await upstream?.close();
  });

  it('100 concurrent calls from four members never overdraw the wallet nor pass a cap, and the balance equals the ledger', async () => {
    const calls = Array.from({ length: 100 }, (_, i) => {
      const member = MEMBERS[i % MEMBERS.length]!;
      return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: keys[member]!, maxRetries: 0 })
        .chat.completions.create({ model: 'priced', max_tokens: 10, messages: [{ role: 'user', content: `call ${i}` }] })
        .then(() => ({ member, ok: true as const }), (error: { status?: number; code?: string }) => ({ member, ok: false as const, status: error.status, code: error.code }));
    });
    const results = await Promise.all(calls);
    const succeeded = results.filter((result) => result.ok);
    const refused = results.filter((result) => !result.ok);
    expect(succeeded.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const result of refused) expect(result).toMatchObject({ status: 429, code: 'insufficient_quota' });
    await gateway.recorder.flush();
    const db = gateway.database.db;
    const wallet = await db.selectFrom('users').select('balance_micros').where('id', '=', org.walletUserId).executeTakeFirstOrThrow();
    expect(Number(wallet.balance_micros)).toBeGreaterThanOrEqual(0);
    expect(Number(wallet.balance_micros)).toBe(await sumLedgerByUser(db, org.walletUserId));
    // The live balance agrees with the books.
    expect(await gateway.accounting.balance(org.walletUserId)).toBe(Number(wallet.balance_micros));
    // Every successful call is one charge of the shared wallet; the members' personal wallets are untouched.
    const logs = await db.selectFrom('usage_logs').select(['cost_micros', 'status', 'key_id', 'user_id']).where('user_id', '=', org.walletUserId).execute();
    expect(logs.filter((log) => log.status === 200)).toHaveLength(succeeded.length);
    const charged = logs.reduce((sum, log) => sum + Number(log.cost_micros), 0);
    expect(50_000 - charged).toBe(Number(wallet.balance_micros));
    for (const name of MEMBERS) expect(await sumLedgerByUser(db, memberIds[name]!)).toBe(0);
    // Ben's calls stayed under his cap.
    const benKey = await db.selectFrom('api_keys').select('id').where('member_user_id', '=', memberIds.ben!).executeTakeFirstOrThrow();
    const benSpent = logs.filter((log) => log.key_id === Number(benKey.id)).reduce((sum, log) => sum + Number(log.cost_micros), 0);
    expect(benSpent).toBeGreaterThan(0);
    expect(benSpent).toBeLessThanOrEqual(10_000);
  });
});
