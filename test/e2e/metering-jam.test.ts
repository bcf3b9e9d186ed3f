// The metering write path cannot be jammed, on PostgreSQL (the engine that refuses what SQLite stores):
// a NUL echoed by the upstream into a usage row's error no longer stops billing; a row the database still
// refuses is set aside (dead-lettered, counted in /metrics) while every other call is logged and charged;
// and while the database cannot keep up, new calls get 503 with Retry-After instead of piling up in memory,
// and every call that was answered is logged and charged once the database is back.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBalanceMismatches } from '../../src/db/repositories/wallet-ledger.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, type TestPostgres } from '../helpers/test-postgres.ts';

const UPSTREAM_KEY = 'sk-upstream-jam';
const key = testKey('jamkey');
let upstream: OpenAISimulator;
let postgres: TestPostgres;
let gateway: TestGateway;

beforeAll(async () => {
  upstream = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  postgres = await createTestPostgres();
  gateway = await startTestGateway({
    channels: [{ name: 'up', type: 'openai', base_url: upstream.url, api_key: UPSTREAM_KEY, models: ['m'] }],
    models: [{ id: 'm', input_per_mtok: 1, output_per_mtok: 2 }],
    users: [{ name: 'payer', balance: 100 }],
    keys: [{ name: 'k', key, user: 'payer' }],
  }, { env: { DATABASE_URL: postgres.url, METERING_QUEUE_LIMIT: '100' } });
});
afterAll(async () => {
  await gateway?.dispose();
  await upstream?.close();
  await postgres?.drop();
});

async function chat(role = 'user') {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role, content: 'hello' }] }),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), requestId: response.headers.get('x-request-id')!, body: await response.json() as Record<string, any> };
}

async function books(requestIds: string[]) {
  await gateway.recorder.flush();
  const db = gateway.database.db;
  const logs = await db.selectFrom('usage_logs').select(['request_id', 'cost_micros', 'error']).where('request_id', 'in', requestIds).execute();
  return { logs, mismatches: await findBalanceMismatches(db) };
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = text.split('\n').find((entry) => entry.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function ledgerCharged(): Promise<number> {
  const rows = await gateway.database.db.selectFrom('wallet_ledger').select('amount_micros').where('kind', '=', 'charge').execute();
  return -rows.reduce((sum, row) => sum + row.amount_micros, 0);
}

describe('metering writes on PostgreSQL', () => {
  it('keeps billing after an upstream error echoes a NUL character into the usage row', async () => {
    upstream.script({ status: 400, body: { error: { message: "Invalid value: 'x\u0000y'. Supported values are: 'system', 'assistant', 'user'.", type: 'invalid_request_error', param: 'messages[0].role', code: 'invalid_value' } } });
    const refused = await chat('x\u0000y');
    expect(refused.status).toBe(400);
    const paid = [];
    for (let i = 0; i < 20; i++) paid.push(await chat());
    expect(paid.every((call) => call.status === 200)).toBe(true);

    const { logs, mismatches } = await books([refused.requestId, ...paid.map((call) => call.requestId)]);
    expect(logs).toHaveLength(21);
    expect(logs.find((row) => row.request_id === refused.requestId)!.error).toContain('x\uFFFDy');
    const paidCost = logs.filter((row) => row.request_id !== refused.requestId).reduce((sum, row) => sum + row.cost_micros, 0);
    expect(paidCost).toBeGreaterThan(0);
    expect(await ledgerCharged()).toBe(paidCost);
    expect(mismatches).toEqual([]);
  });

  it('sets aside a row the database refuses, counts it in /metrics, and logs and charges the calls around it', async () => {
    // A rule the database enforces that the gateway cannot know about: rows whose error mentions "refuse-me".
    await sql`alter table usage_logs add constraint test_refuse check (error is null or error not like '%refuse-me%')`.execute(gateway.database.db);
    const deadBefore = await metric('gateway_metering_dead_letters_total');
    upstream.script({ status: 400, body: { error: { message: 'refuse-me', type: 'invalid_request_error', param: null, code: null } } });
    const calls = [await chat(), await chat(), await chat()];
    expect(calls.map((call) => call.status)).toEqual([400, 200, 200]);

    const { logs, mismatches } = await books(calls.map((call) => call.requestId));
    expect(logs.map((row) => row.request_id).sort()).toEqual([calls[1]!.requestId, calls[2]!.requestId].sort());
    const dead = await gateway.database.db.selectFrom('metering_dead_letters').selectAll().where('request_id', '=', calls[0]!.requestId).execute();
    expect(dead).toHaveLength(1);
    expect(dead[0]!.error).toContain('test_refuse');
    expect(await metric('gateway_metering_dead_letters_total')).toBe(deadBefore + 1);
    expect(mismatches).toEqual([]);
    await sql`alter table usage_logs drop constraint test_refuse`.execute(gateway.database.db);
  });

  it('answers 503 with Retry-After while the database cannot take the backlog, and loses no answered call', async () => {
    // Another session holds the usage log: every metering write waits, the backlog grows to its bound.
    const blocker = new pg.Client({ connectionString: postgres.url });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('lock table usage_logs in access exclusive mode');
    const answered: string[] = [];
    const refusals: { retryAfter: string | null; code: string }[] = [];
    try {
      const worker = async () => {
        while (refusals.length < 5) {
          const call = await chat();
          if (call.status === 200) answered.push(call.requestId);
          else if (call.status === 503) refusals.push({ retryAfter: call.retryAfter, code: call.body.error?.code });
          else throw new Error(`unexpected ${call.status}`);
          if (answered.length > 1_000) throw new Error('no back-pressure');
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    } finally {
      await blocker.query('commit');
      await blocker.end();
    }
    expect(answered.length).toBeGreaterThanOrEqual(100);
    expect(refusals[0]).toEqual({ retryAfter: '1', code: 'service_unavailable' });
    expect(await metric('gateway_metering_backpressure_refusals_total')).toBeGreaterThanOrEqual(5);

    // The database is back: the backlog drains, new calls are served, and nothing answered was lost.
    const { logs, mismatches } = await books(answered);
    expect(logs).toHaveLength(answered.length);
    expect((await chat()).status).toBe(200);
    expect(await metric('gateway_metering_queue_entries')).toBeLessThan(100);
    expect(mismatches).toEqual([]);
    await gateway.recorder.flush();
    const allLogged = await gateway.database.db.selectFrom('usage_logs').select('cost_micros').execute();
    expect(await ledgerCharged()).toBe(allLogged.reduce((sum, row) => sum + row.cost_micros, 0));
  }, 60_000);
});
