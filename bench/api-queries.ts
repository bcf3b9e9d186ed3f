// `node bench/api-queries.ts [sqlite|postgres] [rows]`: seeds ROWS usage-log rows (default 1,000,000) with
// their statistics aggregates and wallet ledger, then measures p50/p95 of the queries behind /api/logs,
// /api/logs/:id, /api/stats and /api/wallet (the service functions the routes call, without HTTP).
// Half the rows belong to one heavy user, the worst case for a user's own pages. Not a test: run by hand;
// figures go to docs/performance.md. PostgreSQL: TEST_POSTGRES_URL or postgres://postgres@127.0.0.1:5432.
// BENCH_DATABASE_URL=…: measure an already seeded database again (no seeding, nothing dropped).
// BENCH_KEEP=1: keep the seeded database and print its URL (to measure again or EXPLAIN; drop it by hand).
// BENCH_ONLY=regex: measure only the cases whose names match (e.g. BENCH_ONLY=platform).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { insertUsageLogBatch } from '../src/db/repositories/usage-logs.ts';
import { upsertUsageStatsBatch, type UsageStatsRow } from '../src/db/repositories/usage-stats.ts';
import { addToStatRollups } from '../src/db/repositories/usage-stats-rollups.ts';
import { readLogDetail, readLogPage } from '../src/accounts/usage-log-reader.ts';
import { readStatsReport } from '../src/accounts/usage-stats-reader.ts';
import { readLedgerPage, readWalletSummary } from '../src/accounts/wallet-reader.ts';
import { createTestPostgres } from '../test/helpers/test-postgres.ts';
import type { NewUsageLog } from '../src/db/schema.ts';

const engine = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const ROWS = Number(process.argv[3] ?? 1_000_000);
const USERS = 1000;
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet', 'gemini-flash', 'o3', 'embed'];
const DAYS = 30;
const NOW = Date.now();
const START = NOW - DAYS * 86_400_000;
const HEAVY = 1;

let dir: string | undefined;
let drop: (() => Promise<void>) | undefined;
let url: string | undefined = process.env.BENCH_DATABASE_URL;
let database: Database;
const reuse = process.env.BENCH_DATABASE_URL;
if (reuse) {
  database = await openDatabase(reuse);
} else if (engine === 'postgres') {
  const pg = await createTestPostgres();
  drop = pg.drop;
  url = pg.url;
  database = await openDatabase(pg.url);
} else {
  dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  url = `sqlite:${join(dir, 'bench.db')}`;
  database = await openDatabase(url);
}
const db = database.db;
await migrateToLatest(db, database.engine);

if (!reuse) await seed();
async function seed(): Promise<void> {
// Users and one key each (the heavy user has 20 keys).
const now = Date.now();
await db.insertInto('users').values(Array.from({ length: USERS }, (_, i) => ({ name: `u${i + 1}`, email: `u${i + 1}@bench.test`, password_hash: null, role: 'user' as const, status: 'active' as const, email_verified_at: now, totp_secret_encrypted: null, totp_pending_encrypted: null, totp_last_step: null, balance_micros: 0, rpm_limit: null, tpm_limit: null, settings_json: '{}', created_at: now, updated_at: now }))).execute();
const keyOf = (user: number, n: number) => (user === HEAVY ? 1 + (n % 20) : 20 + user);
for (let start = 0; start < USERS + 20; start += 500) {
  const ids = Array.from({ length: Math.min(500, USERS + 20 - start) }, (_, i) => start + i + 1);
  await db.insertInto('api_keys').values(ids.map((id) => ({ user_id: id <= 20 ? HEAVY : id - 20, name: `k${id}`, key_hash: `h${id}`, key_prefix: 'sk-…', group_name: 'default', models_json: null, quota_micros: null, used_micros: 0, expires_at: null, ip_allowlist_json: null, status: 'active' as const, rpm_limit: null, tpm_limit: null, created_at: now, updated_at: now, last_used_at: null }))).execute();
}

console.log(`${engine}: seeding ${ROWS.toLocaleString()} usage rows…`);
const seedStart = performance.now();
const stats = new Map<string, UsageStatsRow>();
const BUCKETS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const BATCH = 5000;
let batch: NewUsageLog[] = [];
let ledger: { user_id: number; created_at: number; kind: 'charge'; amount_micros: number; reference: string; note: null }[] = [];
for (let i = 0; i < ROWS; i++) {
  const user = i % 2 === 0 ? HEAVY : 2 + (i % (USERS - 1));
  const key = keyOf(user, i);
  const createdAt = START + Math.floor((i / ROWS) * (NOW - START));
  const model = MODELS[i % MODELS.length]!;
  const failed = i % 37 === 0;
  const cost = failed ? 0 : 100 + (i % 900);
  batch.push({ created_at: createdAt, request_id: `req_${i}`, user_id: user, key_id: key, key_name: `k${key}`, model, upstream_model: model, channel_id: 1, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions', stream: i % 3 === 0 ? 1 : 0, status: failed ? 502 : 200, latency_ms: 200 + (i % 800), ttft_ms: null, input_tokens: 50 + (i % 500), cached_tokens: 0, output_tokens: 20 + (i % 300), reasoning_tokens: 0, cost_micros: cost, error: failed ? 'upstream error' : null, attempts_json: null });
  // Ledger rows as the metering writer makes them: one per user per flush (here: per 10 calls).
  if (i % 10 === 0) ledger.push({ user_id: user, created_at: createdAt, kind: 'charge', amount_micros: -cost * 10, reference: `b${i}`, note: null });
  for (const [bucket, size] of Object.entries(BUCKETS)) {
    if (bucket === 'minute' && createdAt < NOW - 2 * 86_400_000) continue; // minute buckets are kept for days, not months
    const bucketStart = createdAt - (createdAt % size);
    const id = `${bucket}|${bucketStart}|${user}|${key}|${model}`;
    const row = stats.get(id) ?? { bucket, bucket_start: bucketStart, user_id: user, key_id: key, model, requests: 0, errors: 0, input_tokens: 0, output_tokens: 0, cost_micros: 0 };
    row.requests++;
    row.errors += failed ? 1 : 0;
    row.input_tokens += 50 + (i % 500);
    row.output_tokens += 20 + (i % 300);
    row.cost_micros += cost;
    stats.set(id, row);
  }
  if (batch.length === BATCH) {
    await insertUsageLogBatch(db, batch);
    await db.insertInto('wallet_ledger').values(ledger).execute();
    batch = [];
    ledger = [];
  }
}
if (batch.length) await insertUsageLogBatch(db, batch);
if (ledger.length) await db.insertInto('wallet_ledger').values(ledger).execute();
const statRows = [...stats.values()];
for (let i = 0; i < statRows.length; i += 20_000) {
  // The roll-ups as the metering writer keeps them (usage_stats_platform, usage_stats_keys).
  await upsertUsageStatsBatch(db, statRows.slice(i, i + 20_000));
  await addToStatRollups(db, statRows.slice(i, i + 20_000));
}
await sql`analyze`.execute(db);
const rollups = await Promise.all((['usage_stats_platform', 'usage_stats_keys'] as const).map(async (table) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)));
console.log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(0)} s: ${statRows.length.toLocaleString()} aggregate rows; roll-ups: ${rollups[0]!.toLocaleString()} platform, ${rollups[1]!.toLocaleString()} per key`);
}

const heavyPage2 = (await readLogPage(db, {}, HEAVY, 50, undefined)).next_cursor!;
const someId = (await readLogPage(db, {}, HEAVY, 1, undefined)).data[0]!.id;
const cases: [string, () => Promise<unknown>][] = [
  ['logs: first page (heavy user)', () => readLogPage(db, {}, HEAVY, 50, undefined)],
  ['logs: next page by cursor', () => readLogPage(db, {}, HEAVY, 50, heavyPage2)],
  ['logs: filter model', () => readLogPage(db, { model: 'o3' }, HEAVY, 50, undefined)],
  ['logs: filter key', () => readLogPage(db, { key_id: 7 }, HEAVY, 50, undefined)],
  ['logs: errors only', () => readLogPage(db, { outcome: 'error' }, HEAVY, 50, undefined)],
  ['logs: last 24 h range', () => readLogPage(db, { from: NOW - 86_400_000, to: NOW }, HEAVY, 50, undefined)],
  ['logs: a light user', () => readLogPage(db, {}, 500, 50, undefined)],
  ['logs: admin, everyone', () => readLogPage(db, {}, null, 50, undefined)],
  ['logs: one call detail', () => readLogDetail(db, someId, HEAVY)],
  ['stats: 24 h by hour (heavy user)', () => readStatsReport(db, { kind: 'user', userId: HEAVY }, 'hour', NOW - 86_400_000, NOW)],
  ['stats: 30 d by day (heavy user)', () => readStatsReport(db, { kind: 'user', userId: HEAVY }, 'day', START, NOW)],
  ['stats: 1 h by minute (heavy user)', () => readStatsReport(db, { kind: 'user', userId: HEAVY }, 'minute', NOW - 3_600_000, NOW)],
  ['stats: 30 d by hour (heavy user)', () => readStatsReport(db, { kind: 'user', userId: HEAVY }, 'hour', START, NOW)],
  ['stats: 30 d by day (one key)', () => readStatsReport(db, { kind: 'key', keyId: 7 }, 'day', START, NOW)],
  ['stats: 7 d by hour, platform', () => readStatsReport(db, { kind: 'platform' }, 'hour', NOW - 7 * 86_400_000, NOW)],
  ['stats: 30 d by hour, platform', () => readStatsReport(db, { kind: 'platform' }, 'hour', START, NOW)],
  ['stats: 30 d by day, platform', () => readStatsReport(db, { kind: 'platform' }, 'day', START, NOW)],
  ['stats: 24 h by minute, platform', () => readStatsReport(db, { kind: 'platform' }, 'minute', NOW - 86_400_000, NOW)],
  ['stats: 1 h by minute, platform', () => readStatsReport(db, { kind: 'platform' }, 'minute', NOW - 3_600_000, NOW)],
  ['wallet: summary (heavy user)', () => readWalletSummary(db, HEAVY, 0)],
  ['wallet: ledger page (heavy user)', () => readLedgerPage(db, HEAVY, 50, undefined)],
];
const RUNS = 60;
console.log(`query                                  p50 ms   p95 ms   (${RUNS} runs after 5 warm-ups)`);
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
for (const [name, run] of cases) {
  if (only && !only.test(name)) continue;
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${name.padEnd(38)} ${at(0.5).padStart(6)}   ${at(0.95).padStart(6)}`);
}
await database.close();
if (process.env.BENCH_KEEP) {
  console.log(`kept: BENCH_DATABASE_URL=${url}`);
} else {
  await drop?.();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
