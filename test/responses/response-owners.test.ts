// The response-id owner registry on its own: bounded memory, the database behind it, first owner wins.
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createResponseOwners, type ResponseOwners } from '../../src/responses/response-owners.ts';

let database: Database;
let owners: ResponseOwners;
afterEach(async () => {
  await owners?.close();
  await database?.close();
});

async function setUp(memoryEntries: number) {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database.db);
  owners = createResponseOwners({ db: database.db, logger: pino({ level: 'silent' }), flushIntervalMs: 10_000, memoryEntries });
}

const entry = (id: string, userId: number) => ({ id, userId, keyId: null, channelId: 7, model: 'm' });

describe('response owners', () => {
  it('keeps at most the configured number of ids in memory; older ones are read from the database', async () => {
    await setUp(4);
    for (let i = 0; i < 10; i++) owners.remember(entry(`resp_${i}`, 1));
    // Not yet written: only the recent ids are known.
    expect(await owners.lookup('resp_0')).toBeNull();
    expect(await owners.lookup('resp_9')).toEqual({ userId: 1, channelId: 7, keptBy: 'upstream' });
    await owners.flush();
    expect(await owners.lookup('resp_0')).toEqual({ userId: 1, channelId: 7, keptBy: 'upstream' });
  });

  it('keeps the first owner of an id that repeats, in memory and in the database', async () => {
    await setUp(100);
    owners.remember(entry('resp_same', 1));
    owners.remember(entry('resp_same', 2));
    expect(await owners.lookup('resp_same')).toEqual({ userId: 1, channelId: 7, keptBy: 'upstream' });
    await owners.flush();
    const rows = await database.db.selectFrom('responses').selectAll().execute();
    expect(rows.map((row) => row.user_id)).toEqual([1]);
  });

  it('forgets a deleted id, and ignores ids too long to be real', async () => {
    await setUp(100);
    owners.remember(entry('resp_gone', 1));
    await owners.forget('resp_gone');
    expect(await owners.lookup('resp_gone')).toBeNull();
    owners.remember(entry(`resp_${'x'.repeat(300)}`, 1));
    await owners.flush();
    expect(await database.db.selectFrom('responses').select('id').execute()).toEqual([{ id: 'resp_gone' }]);
    expect(await owners.lookup('y'.repeat(10_000))).toBeNull();
  });
});
