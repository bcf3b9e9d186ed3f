// Round trips through the config-side repositories (users, groups, channels, models, keys, settings) on
// both engines, including idempotent upserts.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUser, findUserByEmail, findUserById, findUserByName, listUsers, setUserStatus, upsertUserByName } from '../../src/db/repositories/users.ts';
import { findGroupByName, listGroups, upsertGroupByName } from '../../src/db/repositories/groups.ts';
import { channelOf, findChannelById, findChannelByName, listChannels, setChannelStatus, upsertChannelByName } from '../../src/db/repositories/channels.ts';
import { findModel, findModelById, listModels, upsertModelById } from '../../src/db/repositories/models.ts';
import { findApiKeyByHash, findApiKeyById, insertApiKey, listAllApiKeys, listApiKeysByUser, setApiKeyStatus, updateApiKeyByUserAndName, upsertApiKeyByUserAndName } from '../../src/db/repositories/api-keys.ts';
import { deleteSetting, getSetting, setSetting } from '../../src/db/repositories/settings.ts';
import { inTransaction } from '../../src/db/repositories/repository-helpers.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

describe.each(withTestDatabases())('config repositories on %s', (target) => {
  const database = useTestDatabase(target);
  const db = () => database().db;

  it('users: create, find by id/name/e-mail, status, list', async () => {
    const created = await createUser(db(), 'carla', { email: 'carla@example.com', role: 'admin' }, 1000);
    expect(created).toMatchObject({ name: 'carla', email: 'carla@example.com', role: 'admin', status: 'active', balance_micros: 0, settings_json: '{}', created_at: 1000, updated_at: 1000 });
    expect(await findUserById(db(), created.id)).toEqual(created);
    expect(await findUserByName(db(), 'carla')).toEqual(created);
    expect(await findUserByEmail(db(), 'carla@example.com')).toEqual(created);
    expect(await findUserByName(db(), 'nobody')).toBeUndefined();
    await expect(createUser(db(), 'carla')).rejects.toThrow(/unique|duplicate/i);

    expect(await setUserStatus(db(), created.id, 'disabled', 2000)).toBe(true);
    expect(await setUserStatus(db(), created.id, 'disabled', 3000)).toBe(false);
    expect(await findUserById(db(), created.id)).toMatchObject({ status: 'disabled', updated_at: 2000 });
    expect((await listUsers(db(), { status: 'disabled' })).map((user) => user.name)).toEqual(['carla']);
    await createUser(db(), 'dmitri');
    expect((await listUsers(db())).map((user) => user.name)).toEqual(['carla', 'dmitri']);
    expect((await listUsers(db(), { limit: 1, offset: 1 })).map((user) => user.name)).toEqual(['dmitri']);
  });

  it('users: upsert by name inserts, updates what differs, then changes nothing; never writes the balance', async () => {
    const first = await upsertUserByName(db(), 'erin', { email: 'erin@example.com', rpm_limit: 10 }, 100);
    expect(first.action).toBe('inserted');
    expect(first.row).toMatchObject({ name: 'erin', email: 'erin@example.com', rpm_limit: 10, role: 'user', status: 'active', balance_micros: 0, created_at: 100, updated_at: 100 });
    const same = await upsertUserByName(db(), 'erin', { email: 'erin@example.com', rpm_limit: 10 }, 200);
    expect(same.action).toBe('unchanged');
    expect(same.row.updated_at).toBe(100);
    const changed = await upsertUserByName(db(), 'erin', { rpm_limit: 20, balance_micros: 999 } as never, 300);
    expect(changed.action).toBe('updated');
    expect(changed.row).toMatchObject({ email: 'erin@example.com', rpm_limit: 20, balance_micros: 0, created_at: 100, updated_at: 300 });
    expect(await findUserByName(db(), 'erin')).toEqual(changed.row);
  });

  it('groups: upsert by name, find, list (with the seeded default)', async () => {
    expect((await upsertGroupByName(db(), 'half', { ratio_ppm: 500_000, description: 'cheap' }, 10)).action).toBe('inserted');
    expect((await upsertGroupByName(db(), 'half', { ratio_ppm: 500_000 }, 20)).action).toBe('unchanged');
    const updated = await upsertGroupByName(db(), 'half', { ratio_ppm: 250_000 }, 30);
    expect(updated).toMatchObject({ action: 'updated', row: { name: 'half', ratio_ppm: 250_000, description: 'cheap', updated_at: 30 } });
    expect(await findGroupByName(db(), 'half')).toEqual(updated.row);
    expect((await listGroups(db())).map((group) => [group.name, group.ratio_ppm])).toEqual([['default', 1_000_000], ['half', 250_000]]);
    // The seeded default group is upserted like any other.
    expect((await upsertGroupByName(db(), 'default', { ratio_ppm: 1_000_000 })).action).toBe('unchanged');
  });

  it('upserts of the same new name at once insert one row', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => upsertGroupByName(db(), 'racy', { ratio_ppm: 1_000 + (i % 2) })));
    expect(results.filter((result) => result.action === 'inserted')).toHaveLength(1);
    expect((await listGroups(db())).filter((group) => group.name === 'racy')).toHaveLength(1);
  });

  it('channels: upsert by name, find, list by priority, status changes reported once', async () => {
    const a = await upsertChannelByName(db(), 'primary', { type: 'openai', base_url: 'http://a', api_keys_encrypted: 'sealed-1', priority: 10, models_json: '["m"]' }, 5);
    expect(a.action).toBe('inserted');
    expect(a.row).toMatchObject({ name: 'primary', type: 'openai', weight: 1, status: 'enabled', groups_json: '["default"]', model_mapping_json: '{}', status_reason: null });
    await upsertChannelByName(db(), 'backup', { type: 'anthropic', api_keys_encrypted: 'sealed-2', priority: 1 });
    await expect(upsertChannelByName(db(), 'incomplete', { type: 'openai' })).rejects.toThrow(/null/i);
    // Leaving api_keys_encrypted out leaves the stored keys alone.
    expect((await upsertChannelByName(db(), 'primary', { type: 'openai', priority: 10 })).action).toBe('unchanged');
    expect((await listChannels(db())).map((channel) => channel.name)).toEqual(['primary', 'backup']);
    expect(await findChannelById(db(), a.row.id)).toEqual(channelOf(a.row));
    // Reads parse the JSON columns once, into typed values.
    expect(await findChannelById(db(), a.row.id)).toMatchObject({ models: ['m'], model_mapping: {}, groups: ['default'], settings: {} });
    expect(await findChannelById(db(), a.row.id)).not.toHaveProperty('models_json');
    expect(await findChannelByName(db(), 'backup')).toMatchObject({ type: 'anthropic', base_url: '' });

    expect(await setChannelStatus(db(), a.row.id, 'auto_disabled', 'HTTP 401', 50)).toBe(true);
    expect(await setChannelStatus(db(), a.row.id, 'auto_disabled', 'HTTP 401', 60)).toBe(false);
    expect(await setChannelStatus(db(), a.row.id, 'auto_disabled', 'HTTP 500', 70)).toBe(true);
    expect(await findChannelById(db(), a.row.id)).toMatchObject({ status: 'auto_disabled', status_reason: 'HTTP 500', updated_at: 70 });
    expect(await setChannelStatus(db(), a.row.id, 'enabled', null, 80)).toBe(true);
    expect(await setChannelStatus(db(), a.row.id, 'enabled', null, 90)).toBe(false);
    expect(await findChannelById(db(), a.row.id)).toMatchObject({ status: 'enabled', status_reason: null, updated_at: 80 });
  });

  it('models: upsert by id, find, list', async () => {
    const pricing = JSON.stringify({ inputPerMtok: 3_000_000 });
    expect((await upsertModelById(db(), 'gpt-x', { owned_by: 'openai', pricing_json: pricing, context_window: 128_000 }, 1)).action).toBe('inserted');
    expect((await upsertModelById(db(), 'gpt-x', { owned_by: 'openai', pricing_json: pricing }, 2)).action).toBe('unchanged');
    expect((await upsertModelById(db(), 'gpt-x', { free: 1 }, 3)).row).toMatchObject({ id: 'gpt-x', free: 1, pricing_json: pricing, context_window: 128_000, limits_json: '{}', fallbacks_json: '[]', updated_at: 3 });
    await upsertModelById(db(), 'claude-y', {});
    expect((await listModels(db())).map((model) => model.id)).toEqual(['claude-y', 'gpt-x']);
    expect(await findModelById(db(), 'none')).toBeUndefined();
    expect(await findModel(db(), 'gpt-x')).toMatchObject({ id: 'gpt-x', pricing: { inputPerMtok: 3_000_000 }, limits: {}, fallbacks: [] });
    expect(await findModel(db(), 'gpt-x')).not.toHaveProperty('pricing_json');
  });

  it('models and channels: one parser per JSON column, which reads every shape it holds and refuses others by name', async () => {
    const limits = { imageSizes: ['1024x1024'], maxImages: 2, maxPromptChars: 100, hedgeAfterMs: 0, capabilities: { kind: 'image', tools: false } };
    await upsertModelById(db(), 'shapes', { limits_json: JSON.stringify(limits), fallbacks_json: '["a","b"]' });
    expect((await findModel(db(), 'shapes'))!.limits).toEqual(limits);
    expect((await findModel(db(), 'shapes'))!.fallbacks).toEqual(['a', 'b']);
    await upsertModelById(db(), 'bad-limits', { limits_json: JSON.stringify({ maxImages: 'two' }) });
    await expect(findModel(db(), 'bad-limits')).rejects.toThrow("model 'bad-limits': limits_json does not have its column's shape: maxImages");
    await upsertModelById(db(), 'bad-limits', { limits_json: '{' });
    await expect(findModel(db(), 'bad-limits')).rejects.toThrow("model 'bad-limits': limits_json is not valid JSON");
    await upsertChannelByName(db(), 'bad-groups', { type: 'openai', api_keys_encrypted: 'sealed', groups_json: '"default"' });
    await expect(findChannelByName(db(), 'bad-groups')).rejects.toThrow("channel 'bad-groups': groups_json does not have its column's shape");
  });

  it('api keys: insert, find by hash and id, upsert and update by (user, name), status, list', async () => {
    const owner = await createUser(db(), 'keyowner');
    const other = await createUser(db(), 'otherowner');
    const key = await insertApiKey(db(), { user_id: owner.id, name: 'ci', key_hash: 'hash-ci', key_prefix: 'sk-ab…yz', quota_micros: 5_000_000 }, 7);
    expect(key).toMatchObject({ user_id: owner.id, name: 'ci', group_name: 'default', status: 'active', used_micros: 0, quota_micros: 5_000_000, models_json: null, last_used_at: null, created_at: 7 });
    expect(await findApiKeyByHash(db(), 'hash-ci')).toEqual(key);
    expect(await findApiKeyById(db(), key.id)).toEqual(key);
    expect(await findApiKeyByHash(db(), 'nope')).toBeUndefined();
    // The same name under another user is a different key.
    await insertApiKey(db(), { user_id: other.id, name: 'ci', key_hash: 'hash-other', key_prefix: 'sk-cd…wx' });
    await expect(insertApiKey(db(), { user_id: owner.id, name: 'ci', key_hash: 'hash-3', key_prefix: 'x' })).rejects.toThrow(/unique|duplicate/i);

    expect((await upsertApiKeyByUserAndName(db(), owner.id, 'ci', { quota_micros: 5_000_000 }, 8)).action).toBe('unchanged');
    const rotated = await upsertApiKeyByUserAndName(db(), owner.id, 'ci', { key_hash: 'hash-ci-2', key_prefix: 'sk-ef…uv', group_name: 'half' }, 9);
    expect(rotated).toMatchObject({ action: 'updated', row: { id: key.id, key_hash: 'hash-ci-2', group_name: 'half', updated_at: 9 } });
    expect(await findApiKeyByHash(db(), 'hash-ci')).toBeUndefined();
    const fresh = await upsertApiKeyByUserAndName(db(), owner.id, 'batch', { key_hash: 'hash-batch', key_prefix: 'sk-gh…st' });
    expect(fresh.action).toBe('inserted');

    expect(await updateApiKeyByUserAndName(db(), owner.id, 'missing', { rpm_limit: 1 })).toBeUndefined();
    expect(await updateApiKeyByUserAndName(db(), owner.id, 'ci', { rpm_limit: 60, models_json: '["m"]' }, 10)).toMatchObject({ rpm_limit: 60, models_json: '["m"]', updated_at: 10 });

    expect(await setApiKeyStatus(db(), key.id, 'disabled')).toBe(true);
    expect(await setApiKeyStatus(db(), key.id, 'disabled')).toBe(false);
    expect((await findApiKeyById(db(), key.id))?.status).toBe('disabled');
    expect((await listApiKeysByUser(db(), owner.id)).map((row) => row.name)).toEqual(['ci', 'batch']);
    expect((await listAllApiKeys(db())).map((row) => row.key_hash)).toEqual(['hash-ci-2', 'hash-other', 'hash-batch']);
  });

  it('settings: get, set (JSON values), unchanged values keep updated_at, delete', async () => {
    const signup = z.object({ open: z.boolean(), domains: z.array(z.string()) });
    expect(await getSetting(db(), 'signup', signup)).toBeUndefined();
    await setSetting(db(), 'signup', { open: true, domains: ['example.com'] }, 1);
    await setSetting(db(), 'banner', 'hello', 1);
    expect(await getSetting(db(), 'signup', signup)).toEqual({ open: true, domains: ['example.com'] });
    // Read by the setting's schema: a stored value of another shape is refused by name, not cast.
    await expect(getSetting(db(), 'banner', signup)).rejects.toThrow("settings 'banner' value_json does not have its column's shape");
    await setSetting(db(), 'signup', { open: false }, 2);
    await setSetting(db(), 'banner', 'hello', 3);
    expect(await getSetting(db(), 'signup', z.object({ open: z.boolean() }))).toEqual({ open: false });
    expect(await getSetting(db(), 'banner', z.string())).toBe('hello');
    const stamps = await db().selectFrom('settings').select(['key', 'updated_at']).orderBy('key').execute();
    expect(stamps).toEqual([{ key: 'banner', updated_at: 1 }, { key: 'signup', updated_at: 2 }]);
    await expect(setSetting(db(), 'bad', undefined)).rejects.toThrow(/no JSON form/);
    expect(await deleteSetting(db(), 'banner')).toBe(true);
    expect(await deleteSetting(db(), 'banner')).toBe(false);
  });

  it('repository calls compose inside one transaction and roll back together', async () => {
    await expect(inTransaction(db(), async (trx) => {
      await upsertGroupByName(trx, 'rolled-back', { ratio_ppm: 1 });
      await inTransaction(trx, async (inner) => createUser(inner, 'rolled-back-user'));
      throw new Error('abort');
    })).rejects.toThrow('abort');
    expect(await findGroupByName(db(), 'rolled-back')).toBeUndefined();
    expect(await findUserByName(db(), 'rolled-back-user')).toBeUndefined();
  });
});
