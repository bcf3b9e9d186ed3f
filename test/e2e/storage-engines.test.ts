// The same storage behaviour on both engines: migrations, the config file applied idempotently, usage
// logs, wallet ledger and balances, statistics upserts, retention, and BIGINT values read as numbers.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';
import { readEnv } from '../../src/config/env.ts';
import { startGateway } from '../../src/start-gateway.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { applyRetention } from '../../src/metering/retention.ts';

const UPSTREAM_KEY = 'sk-upstream-storage';
const KEY = testKey('storageuser');
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
  groups: [{ name: 'half', ratio: 0.5 }],
  channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: [UPSTREAM_KEY, UPSTREAM_KEY], models: ['m'], groups: ['default', 'half'] }],
  models: [{ id: 'm', input_per_mtok: 3, output_per_mtok: 7 }],
  users: [{ name: 'olga', balance: 1_000_000, email: 'olga@example.com' }],
  keys: [{ name: 'k', key: KEY, user: 'olga', group: 'half', quota: 900_000 }],
});

describe.each([
  ['sqlite', () => ({})],
  ['postgres', () => ({ DATABASE_URL: postgres.url })],
])('storage on %s', (engine, extraEnv) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway(config(), { env: extraEnv() });
  });
  afterAll(async () => gateway?.dispose());

  it('runs on the expected engine, and running migrations again changes nothing', async () => {
    expect(gateway.database.engine).toBe(engine);
    await migrateToLatest(gateway.database.db, gateway.database.engine);
    const groups = await gateway.database.db.selectFrom('groups').select(['name', 'ratio_ppm']).orderBy('name').execute();
    expect(groups).toEqual([{ name: 'default', ratio_ppm: 1_000_000 }, { name: 'half', ratio_ppm: 500_000 }]);
  });

  it('reads large BIGINT values back as exact numbers', async () => {
    const user = await gateway.database.db.selectFrom('users').selectAll().where('name', '=', 'olga').executeTakeFirstOrThrow();
    expect(user.balance_micros).toBe(1_000_000_000_000);
    expect(typeof user.created_at).toBe('number');
  });

  it('writes usage logs, ledger, balances, key spend and statistics that agree with each other', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `question number ${i}` }] })));
    await gateway.recorder.flush();
    const db = gateway.database.db;
    const logs = await db.selectFrom('usage_logs').selectAll().execute();
    expect(logs).toHaveLength(25);
    const expectedCosts = answers.map((answer) => Math.round(((answer.usage!.prompt_tokens * 3 + answer.usage!.completion_tokens * 7) * 0.5)));
    expect(logs.map((log) => log.cost_micros).sort()).toEqual(expectedCosts.sort());
    const spent = logs.reduce((sum, log) => sum + log.cost_micros, 0);
    const user = await db.selectFrom('users').selectAll().where('name', '=', 'olga').executeTakeFirstOrThrow();
    const ledger = await db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).execute();
    expect(user.balance_micros).toBe(ledger.reduce((sum, row) => sum + row.amount_micros, 0));
    expect(user.balance_micros).toBe(1_000_000_000_000 - spent);
    const key = await db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
    expect(key.used_micros).toBe(spent);
    const stats = await db.selectFrom('usage_stats').selectAll().where('bucket', '=', 'day').execute();
    expect(stats.reduce((sum, row) => sum + row.requests, 0)).toBe(25);
    expect(stats.reduce((sum, row) => sum + row.cost_micros, 0)).toBe(spent);
  });

  it('applies the config file again without changing anything', async () => {
    const db = gateway.database.db;
    const snapshot = async () => ({
      channels: await db.selectFrom('channels').selectAll().execute(),
      keys: await db.selectFrom('api_keys').select(['name', 'key_hash', 'quota_micros', 'updated_at']).execute(),
      models: await db.selectFrom('models').selectAll().execute(),
      users: await db.selectFrom('users').select(['name', 'email', 'updated_at']).execute(),
    });
    const before = await snapshot();
    const again = await startGateway({ env: readEnv({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: gateway.dir, DATABASE_URL: engine === 'sqlite' ? `sqlite:${gateway.dir}/gateway.db` : postgres.url, LOG_LEVEL: 'silent', GATEWAY_SECRET: 'test-secret-test-secret-test-secret' }), configFile: gateway.configFile });
    await again.stop();
    expect(await snapshot()).toEqual(before);
  });

  it('deletes old rows by retention on this engine', async () => {
    const deleted = await applyRetention(gateway.database.db, 1, Date.now() + 3 * 86_400_000);
    expect(deleted.logs).toBe(25);
  });
});
