// A key whose list setting (models, MCP tools, IP allowlist) cannot be read is restricted to nothing, not
// opened to everything, and the rest of the keys keep working (issue 27, item 4: the key index reads the
// columns through the api-keys repository's lenient parser). Before, a list that was JSON but not an array
// read as null, which means "no restriction"; text that was not JSON failed the reload of every key.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const NARROW = testKey('narrowkey1');
const BROKEN = testKey('brokenkey1');
const FENCED = testKey('fencedkey1');
const logLines: Array<{ msg?: string; keyId?: number }> = [];
let gateway: TestGateway;

const modelsSeenBy = async (key: string) => {
  const answer = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  return { status: answer.status, ids: answer.ok ? ((await answer.json()) as { data: Array<{ id: string }> }).data.map((model) => model.id).sort() : [] };
};

beforeAll(async () => {
  const sink = new Writable({ write(chunk, _encoding, done) { for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line)); done(); } });
  gateway = await startTestGateway({
    channels: [{ name: 'up', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: 'sk-up', models: ['m1', 'm2'] }],
    models: [{ id: 'm1', input_per_mtok: 1, output_per_mtok: 1 }, { id: 'm2', input_per_mtok: 1, output_per_mtok: 1 }],
    users: [{ name: 'kim', balance: 5 }],
    keys: [
      { name: 'narrow', key: NARROW, user: 'kim', models: ['m1'] },
      { name: 'broken', key: BROKEN, user: 'kim', models: ['m1'] },
      { name: 'fenced', key: FENCED, user: 'kim', ip_allowlist: ['127.0.0.1/32', '::1/128'] },
    ],
  }, { logger: pino({ level: 'error' }, sink) });
});

afterAll(async () => gateway?.dispose());

describe('a key whose list setting cannot be read', () => {
  it('is restricted to nothing, logged by id, while the other keys keep their own lists', async () => {
    expect(await modelsSeenBy(BROKEN)).toEqual({ status: 200, ids: ['m1'] });
    const db = gateway.database.db;
    // A JSON string where a list belongs (it read as "every model" before), and text that is not JSON.
    await db.updateTable('api_keys').set({ models_json: '"m1"' }).where('name', '=', 'broken').execute();
    await db.updateTable('api_keys').set({ ip_allowlist_json: '[127.0.0.1' }).where('name', '=', 'fenced').execute();
    await gateway.state.reload();
    expect(await modelsSeenBy(BROKEN)).toEqual({ status: 200, ids: [] });
    expect((await modelsSeenBy(FENCED)).status).toBe(403);
    expect(await modelsSeenBy(NARROW)).toEqual({ status: 200, ids: ['m1'] });
    const ids = async (name: string) => (await db.selectFrom('api_keys').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    const logged = logLines.filter((line) => line.msg === 'key restricted to nothing: a list setting of it cannot be read').map((line) => line.keyId);
    expect(logged.sort()).toEqual([await ids('broken'), await ids('fenced')].sort());
  });
});
