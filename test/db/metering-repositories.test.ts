// Usage logs, the wallet ledger and usage statistics on both engines: batch writes, idempotency,
// balances that always equal the ledger, counters that add up under concurrency.
import { describe, expect, it } from 'vitest';
import type { NewUsageLog } from '../../src/db/schema.ts';
import { createUser } from '../../src/db/repositories/users.ts';
import { deleteUsageLogsOlderThan, insertUsageLogBatch, listUsageLogs, type UsageLogCursor } from '../../src/db/repositories/usage-logs.ts';
import { appendLedgerBatch, findBalanceMismatches, listLedgerByUser, sumLedgerByUser, type LedgerEntry } from '../../src/db/repositories/wallet-ledger.ts';
import { deleteUsageStatsOlderThan, listUsageStats, upsertUsageStatsBatch, type UsageStatsRow } from '../../src/db/repositories/usage-stats.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

function log(i: number, overrides: Partial<NewUsageLog> = {}): NewUsageLog {
  return {
    created_at: 1_000_000 + i, request_id: `req-${i}`, user_id: i % 2 === 0 ? 1 : 2, key_id: i % 3, key_name: `k${i % 3}`,
    model: i % 5 === 0 ? 'big' : 'small', upstream_model: null, channel_id: 7, inbound_format: 'openai-chat', endpoint: '/v1/chat/completions',
    stream: i % 2, status: i % 10 === 9 ? 502 : 200, latency_ms: 100 + i, ttft_ms: null, input_tokens: i, cached_tokens: 0,
    output_tokens: 2 * i, reasoning_tokens: 0, cost_micros: 10 * i, error: null, attempts_json: null,
    cache_write_tokens: i % 4, image_count: i % 3, image_size: i % 3 ? '1024x1024' : null, image_quality: i % 3 ? 'hd' : null,
    audio_ms: 1500 * i, characters: 7 * i, searches: i % 2, requests: i % 10 === 9 ? 0 : 1, ratio_ppm: 1_000_000 + i,
    tokens_counted: i % 2, error_code: i % 10 === 9 ? 'GW_ERR_UPSTREAM_STATUS' : null, cache_write_1h_tokens: i % 4 === 3 ? 2 : 0, overhead_us: i % 3 === 2 ? null : 100 + i, ...overrides,
  };
}

describe.each(withTestDatabases())('metering repositories on %s', (target) => {
  const database = useTestDatabase(target);
  const db = () => database().db;

  describe('usage logs', () => {
    it('inserts a batch of any size in one go, with every column round-tripped', async () => {
      const rows = Array.from({ length: 301 }, (_, i) => log(i));
      expect(await insertUsageLogBatch(db(), rows)).toBe(301);
      expect(await insertUsageLogBatch(db(), [])).toBe(0);
      const stored = await db().selectFrom('usage_logs').selectAll().orderBy('created_at').execute();
      expect(stored).toHaveLength(301);
      expect(stored.map(({ id: _id, ...rest }) => rest)).toEqual(rows);
      expect(stored.reduce((sum, row) => sum + row.cost_micros, 0)).toBe(10 * (300 * 301) / 2);
    });

    it('fills defaults for omitted optional columns', async () => {
      const { stream: _s, input_tokens: _i, cost_micros: _c, ...partial } = log(1000, { request_id: 'sparse', created_at: 5 });
      await insertUsageLogBatch(db(), [partial as NewUsageLog]);
      const row = await db().selectFrom('usage_logs').selectAll().where('request_id', '=', 'sparse').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ stream: 0, input_tokens: 0, cost_micros: 0 });
    });

    it('all rows of a batch or none', async () => {
      const before = await db().selectFrom('usage_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = Array.from({ length: 40 }, (_, i) => log(i, { request_id: `atomic-${i}` }));
      rows[39] = { ...rows[39]!, model: null as never }; // NOT NULL violation in the last statement
      await expect(insertUsageLogBatch(db(), rows)).rejects.toThrow();
      const after = await db().selectFrom('usage_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(before.n);
    });

    it('lists newest first with filters and keyset pages', async () => {
      const userOne = await listUsageLogs(db(), { userId: 1, since: 1_000_000 }, { limit: 1000 });
      expect(userOne.rows).toHaveLength(151);
      expect(userOne.next).toBeNull();
      expect(userOne.rows[0]!.created_at).toBe(1_000_300);
      expect(userOne.rows.every((row, i, all) => row.user_id === 1 && (i === 0 || all[i - 1]!.created_at > row.created_at))).toBe(true);

      const filtered = await listUsageLogs(db(), { keyId: 0, model: 'big', since: 1_000_100, until: 1_000_200 }, { limit: 100 });
      expect(filtered.rows.map((row) => row.created_at - 1_000_000)).toEqual([195, 180, 165, 150, 135, 120, 105]);
      const failed = await listUsageLogs(db(), { failed: true, since: 1_000_000 }, { limit: 1000 });
      expect(failed.rows).toHaveLength(30);

      const seen: number[] = [];
      let after: UsageLogCursor | null = null;
      let pages = 0;
      do {
        const page = await listUsageLogs(db(), { userId: 2, since: 1_000_000 }, { limit: 40, after });
        seen.push(...page.rows.map((row) => row.created_at));
        after = page.next;
        pages++;
      } while (after);
      expect(pages).toBe(4);
      expect(seen).toHaveLength(150);
      expect(new Set(seen).size).toBe(150);
      expect(seen[0]).toBe(1_000_299);
    });

    it('pages rows sharing one created_at without losing or repeating any', async () => {
      await insertUsageLogBatch(db(), Array.from({ length: 7 }, (_, i) => log(i, { created_at: 42, request_id: `tie-${i}`, user_id: 99 })));
      const ids: number[] = [];
      let after: UsageLogCursor | null = null;
      do {
        const page = await listUsageLogs(db(), { userId: 99 }, { limit: 3, after });
        ids.push(...page.rows.map((row) => row.id));
        after = page.next;
      } while (after);
      expect(ids).toHaveLength(7);
      expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    });

    it('deletes rows older than a cutoff, in chunks', async () => {
      const total = await db().selectFrom('usage_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const deleted = await deleteUsageLogsOlderThan(db(), 1_000_100, 30);
      expect(deleted).toBe(100 + 1 + 7); // i = 0..99, plus the 'sparse' row at 5 and the seven at 42
      const left = await db().selectFrom('usage_logs').select((eb) => eb.fn.min('created_at').as('oldest')).executeTakeFirstOrThrow();
      expect(Number(left.oldest)).toBe(1_000_100);
      const after = await db().selectFrom('usage_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(after.n).toBe(total.n - deleted);
      expect(await deleteUsageLogsOlderThan(db(), 1_000_100)).toBe(0);
    });
  });

  describe('wallet ledger', () => {
    it('applies a batch and keeps the balance equal to the ledger', async () => {
      const ada = await createUser(db(), 'ada');
      const bob = await createUser(db(), 'bob');
      const result = await appendLedgerBatch(db(), [
        { user_id: ada.id, kind: 'topup', amount_micros: 10_000_000, reference: 'pay-1', note: 'stripe' },
        { user_id: ada.id, kind: 'charge', amount_micros: -1_500, reference: 'req-a' },
        { user_id: bob.id, kind: 'grant', amount_micros: 300, reference: null },
        { user_id: bob.id, kind: 'grant', amount_micros: 200, reference: null },
      ], 77);
      expect(result.applied).toHaveLength(4);
      expect(result.skipped).toEqual([]);
      expect(Object.fromEntries(result.deltas)).toEqual({ [ada.id]: 9_998_500, [bob.id]: 500 });
      expect(result.applied.every((row) => row.created_at === 77 && typeof row.id === 'number')).toBe(true);
      expect(await sumLedgerByUser(db(), ada.id)).toBe(9_998_500);
      expect(await sumLedgerByUser(db(), bob.id)).toBe(500);
      expect(await sumLedgerByUser(db(), 123_456)).toBe(0);
      const users = await db().selectFrom('users').select(['name', 'balance_micros']).where('name', 'in', ['ada', 'bob']).orderBy('name').execute();
      expect(users).toEqual([{ name: 'ada', balance_micros: 9_998_500 }, { name: 'bob', balance_micros: 500 }]);
      // Newest first by id; a batch writes its rows in (kind, reference) order.
      expect((await listLedgerByUser(db(), ada.id)).map((row) => row.reference)).toEqual(['pay-1', 'req-a']);
    });

    it('skips a duplicate (kind, reference), in the table or within the batch, instead of applying it twice', async () => {
      const cleo = await createUser(db(), 'cleo');
      await appendLedgerBatch(db(), [{ user_id: cleo.id, kind: 'topup', amount_micros: 1_000, reference: 'pay-cleo' }]);
      const retry = await appendLedgerBatch(db(), [
        { user_id: cleo.id, kind: 'topup', amount_micros: 1_000, reference: 'pay-cleo' }, // webhook replay
        { user_id: cleo.id, kind: 'charge', amount_micros: -10, reference: 'req-c1' },
        { user_id: cleo.id, kind: 'charge', amount_micros: -10, reference: 'req-c1' }, // retried within the batch
        { user_id: cleo.id, kind: 'refund', amount_micros: 10, reference: 'req-c1' }, // other kind, same reference: applies
      ]);
      expect(retry.applied.map((row) => `${row.kind}:${row.reference}`)).toEqual(['charge:req-c1', 'refund:req-c1']);
      expect(retry.skipped.map((entry) => `${entry.kind}:${entry.reference}`).sort()).toEqual(['charge:req-c1', 'topup:pay-cleo']);
      expect(await sumLedgerByUser(db(), cleo.id)).toBe(1_000);
      expect((await db().selectFrom('users').select('balance_micros').where('id', '=', cleo.id).executeTakeFirstOrThrow()).balance_micros).toBe(1_000);
      const all = await appendLedgerBatch(db(), [{ user_id: cleo.id, kind: 'topup', amount_micros: 1_000, reference: 'pay-cleo' }]);
      expect(all.applied).toEqual([]);
      expect(all.deltas.size).toBe(0);
    });

    it('refuses non-integer amounts before writing anything', async () => {
      const dana = await createUser(db(), 'dana');
      await expect(appendLedgerBatch(db(), [
        { user_id: dana.id, kind: 'grant', amount_micros: 5, reference: 'ok' },
        { user_id: dana.id, kind: 'grant', amount_micros: 0.5, reference: 'bad' },
      ])).rejects.toThrow(/integer/);
      expect(await sumLedgerByUser(db(), dana.id)).toBe(0);
    });

    it('rolls back the ledger rows when a balance update fails (unknown user)', async () => {
      const eve = await createUser(db(), 'eve');
      await expect(appendLedgerBatch(db(), [
        { user_id: eve.id, kind: 'grant', amount_micros: 5, reference: 'eve-1' },
        { user_id: 987_654, kind: 'grant', amount_micros: 5, reference: 'ghost' },
      ])).rejects.toThrow(/foreign key/i);
      expect(await sumLedgerByUser(db(), eve.id)).toBe(0);
      expect((await db().selectFrom('users').select('balance_micros').where('id', '=', eve.id).executeTakeFirstOrThrow()).balance_micros).toBe(0);
    });

    it('20 concurrent batches over shared users and overlapping references: each reference once, balance == ledger', async () => {
      const users = await Promise.all(['p1', 'p2', 'p3'].map((name) => createUser(db(), name)));
      const batches = Array.from({ length: 20 }, (_, b) => Array.from({ length: 25 }, (_, i): LedgerEntry => {
        const user = users[(b + i) % users.length]!;
        // References repeat across batches (i < 10 is the same request in every batch), the rest are unique.
        const reference = i < 10 ? `shared-${i}` : `b${b}-${i}`;
        return { user_id: user.id, kind: 'charge', amount_micros: -(i + 1), reference };
      }));
      // Reverse half of them so batches present their rows in different orders.
      batches.forEach((batch, b) => b % 2 === 1 && batch.reverse());
      const results = await Promise.all(batches.map((batch) => appendLedgerBatch(db(), batch)));
      const applied = results.flatMap((result) => result.applied);
      expect(applied.filter((row) => row.reference!.startsWith('shared-'))).toHaveLength(10);
      expect(applied).toHaveLength(10 + 20 * 15);
      expect(results.reduce((sum, result) => sum + result.skipped.length, 0)).toBe(19 * 10);
      for (const user of users) {
        const balance = (await db().selectFrom('users').select('balance_micros').where('id', '=', user.id).executeTakeFirstOrThrow()).balance_micros;
        const expected = applied.filter((row) => row.user_id === user.id).reduce((sum, row) => sum + row.amount_micros, 0);
        expect(balance).toBe(expected);
        expect(await sumLedgerByUser(db(), user.id)).toBe(expected);
      }
      expect(await findBalanceMismatches(db())).toEqual([]);
    });

    it('finds users whose cached balance drifted from the ledger', async () => {
      const drift = await createUser(db(), 'drift');
      await appendLedgerBatch(db(), [{ user_id: drift.id, kind: 'grant', amount_micros: 100, reference: null }]);
      await db().updateTable('users').set({ balance_micros: 7 }).where('id', '=', drift.id).execute();
      expect(await findBalanceMismatches(db())).toEqual([{ user_id: drift.id, balance_micros: 7, ledger_micros: 100 }]);
      await db().updateTable('users').set({ balance_micros: 100 }).where('id', '=', drift.id).execute();
    });
  });

  describe('usage stats', () => {
    const stat = (overrides: Partial<UsageStatsRow>): UsageStatsRow => ({
      bucket: 'hour', bucket_start: 3_600_000, user_id: 1, key_id: 1, model: 'm', requests: 1, errors: 0, input_tokens: 10, output_tokens: 20, cost_micros: 5, ...overrides,
    });

    it('adds to existing counters, merging duplicate keys within a batch', async () => {
      expect(await upsertUsageStatsBatch(db(), [stat({}), stat({}), stat({ model: 'n', errors: 1 })])).toBe(2);
      await upsertUsageStatsBatch(db(), [stat({ requests: 3, input_tokens: 1, output_tokens: 2, cost_micros: 1_000_000_000_000 })]);
      const rows = await listUsageStats(db(), { bucket: 'hour' });
      expect(rows).toEqual([
        { bucket: 'hour', bucket_start: 3_600_000, user_id: 1, key_id: 1, model: 'm', requests: 5, errors: 0, input_tokens: 21, output_tokens: 42, cost_micros: 1_000_000_000_010 },
        { bucket: 'hour', bucket_start: 3_600_000, user_id: 1, key_id: 1, model: 'n', requests: 1, errors: 1, input_tokens: 10, output_tokens: 20, cost_micros: 5 },
      ]);
      expect(await upsertUsageStatsBatch(db(), [])).toBe(0);
    });

    it('counters add up under 20 concurrent batches', async () => {
      const batch = (b: number) => Array.from({ length: 50 }, (_, i) => stat({ bucket: 'minute', bucket_start: 60_000 * (i % 5), key_id: 1 + (i % 2), model: b % 2 ? 'x' : 'y', requests: 1, input_tokens: i, cost_micros: b }));
      await Promise.all(Array.from({ length: 20 }, (_, b) => upsertUsageStatsBatch(db(), batch(b))));
      const rows = await listUsageStats(db(), { bucket: 'minute' });
      expect(rows).toHaveLength(5 * 2 * 2);
      expect(rows.reduce((sum, row) => sum + row.requests, 0)).toBe(20 * 50);
      expect(rows.reduce((sum, row) => sum + row.input_tokens, 0)).toBe(20 * (49 * 50) / 2);
      expect(rows.reduce((sum, row) => sum + row.cost_micros, 0)).toBe(50 * (19 * 20) / 2);
      const filtered = await listUsageStats(db(), { bucket: 'minute', since: 120_000, until: 180_000, keyId: 2, model: 'x' });
      expect(filtered).toHaveLength(1);
      expect(filtered[0]).toMatchObject({ bucket_start: 120_000, key_id: 2, model: 'x', requests: 10 * 5 });
    });

    it('deletes old buckets of one granularity only', async () => {
      expect(await deleteUsageStatsOlderThan(db(), 'minute', 120_000)).toBe(8);
      expect(await listUsageStats(db(), { bucket: 'minute', until: 120_000 })).toEqual([]);
      expect(await listUsageStats(db(), { bucket: 'hour' })).toHaveLength(2);
    });
  });
});
