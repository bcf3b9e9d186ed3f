// The gateway's own store of Responses on its own: the size cap per response, the bounds on a rebuilt
// chain, users kept apart, and retention (following the usage log) deleting kept responses and their items.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createKeptResponses, MAX_CHAIN_RESPONSES, MAX_KEPT_RESPONSE_CHARS, type KeptResponses } from '../../src/responses/kept-responses.ts';
import { applyRetention } from '../../src/metering/retention.ts';

let database: Database;
let kept: KeptResponses;
beforeEach(async () => {
  database = await openDatabase('sqlite::memory:');
  await migrateToLatest(database.db);
  kept = createKeptResponses({ db: database.db, retentionMs: 7 * 86_400_000 });
});
afterEach(async () => {
  await database?.close();
});

const turn = (id: string, previous: string | null, text: string, userId = 1) => ({
  id, userId, keyId: null, channelId: null, model: 'm', previousResponseId: previous,
  input: [{ role: 'user', content: text }],
  response: { id, object: 'response', output: [{ id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `re: ${text}` }] }] },
});

describe('kept responses', () => {
  it('rebuilds a chain oldest first, and only for its owner', async () => {
    await kept.save(turn('resp_a', null, 'one'));
    await kept.save(turn('resp_b', 'resp_a', 'two'));
    const texts = (await kept.conversation('resp_b', 1))!.map((item) => (item.content as { text: string }[])[0]!.text);
    expect(texts).toEqual(['one', 're: one', 'two', 're: two']);
    expect(await kept.conversation('resp_b', 2)).toBeNull();
    await kept.delete('resp_b');
    expect(await kept.conversation('resp_b', 1)).toBeNull();
    expect((await kept.conversation('resp_a', 1))?.length).toBe(2);
    expect(await kept.response('resp_b', 2)).toBeNull();
    expect([...(await kept.items(2, ['msg_resp_a'])).keys()]).toEqual([]);
    expect([...(await kept.items(1, ['msg_resp_a'])).keys()]).toEqual(['msg_resp_a']);
  });

  it('does not keep a response over the size cap', async () => {
    const big = turn('resp_big', null, 'x'.repeat(MAX_KEPT_RESPONSE_CHARS));
    expect(await kept.save(big)).toBe(false);
    expect(await database.db.selectFrom('responses').select('id').execute()).toEqual([]);
  });

  it('refuses to rebuild a chain longer than the bound', async () => {
    let previous: string | null = null;
    for (let i = 0; i <= MAX_CHAIN_RESPONSES; i++) {
      await kept.save(turn(`resp_${i}`, previous, `turn ${i}`));
      previous = `resp_${i}`;
    }
    await expect(kept.conversation(previous!, 1)).rejects.toMatchObject({ status: 400, code: 'response_chain_too_long', param: 'previous_response_id' });
  });

  it('deletes kept responses and their items past the usage-log retention', async () => {
    await kept.save(turn('resp_old', null, 'old'));
    const deleted = await applyRetention(database.db, 3, Date.now() + 4 * 86_400_000);
    expect(deleted.responses).toBe(1);
    expect(await database.db.selectFrom('responses').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('response_items').select('item_id').execute()).toEqual([]);
  });
});
