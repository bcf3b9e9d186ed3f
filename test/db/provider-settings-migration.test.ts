// Migration 0018 moves the three types' own settings, which sat beside the common ones in their own
// spellings (Bedrock's region, Azure's and Vertex's camelCase blocks), under settings_json's `provider` key
// in the config file's shape, on both engines; the routing table then builds each channel's provider from
// them; other settings and other rows are untouched, and running it again changes nothing.
import { describe, expect, it } from 'vitest';
import { migrateTo, migrateToLatest } from '../../src/db/migrate.ts';
import { listChannels } from '../../src/db/repositories/channels.ts';
import { buildRoutingTable } from '../../src/routing/routing-table.ts';
import { createSecretBox } from '../../src/accounts/secret-box.ts';
import { useTestDatabase, withTestDatabases } from './test-databases.ts';

const box = createSecretBox('migration-test-secret-migration-test');

const before: Record<string, { type: string; base_url?: string; settings: object }> = {
  bedrock: { type: 'bedrock', settings: { region: 'eu-west-1', timeouts: { connectMs: 500 } } },
  azure: { type: 'azure-openai', base_url: 'https://r.openai.azure.com', settings: { azure: { apiVersion: '2025-04-01-preview', pathStyle: 'v1' }, supportsPrefill: false } },
  vertex: { type: 'vertex', settings: { vertex: { project: 'my-project', location: 'europe-west4', tokenUrl: 'https://token.example.com/token' } } },
  openai: { type: 'openai', settings: { chatFormat: 'openai-responses' } },
};

const after: Record<string, object> = {
  bedrock: { timeouts: { connectMs: 500 }, provider: { region: 'eu-west-1' } },
  azure: { supportsPrefill: false, provider: { azure: { api_version: '2025-04-01-preview', path_style: 'v1' } } },
  vertex: { provider: { vertex: { project: 'my-project', location: 'europe-west4', token_url: 'https://token.example.com/token' } } },
  openai: { chatFormat: 'openai-responses' },
};

describe.each(withTestDatabases())('migration 0018 on $engine', (target) => {
  const database = useTestDatabase(target, { migrate: false });

  it("moves each type's own settings under provider, in the config file's shape, and the channels route with them", async () => {
    const { db } = database();
    await migrateTo(db, '0014-otel-overhead');
    const now = Date.now();
    await db.insertInto('channels').values(Object.entries(before).map(([name, channel]) => ({
      name, type: channel.type, base_url: channel.base_url ?? '', api_keys_encrypted: box.encrypt(JSON.stringify(['AKID:SECRET'])),
      models_json: JSON.stringify([`m-${name}`]), model_mapping_json: '{}', groups_json: '["default"]', priority: 0, weight: 1,
      status: 'enabled', status_reason: null, settings_json: JSON.stringify(channel.settings), created_at: now, updated_at: now,
    }))).execute();
    expect(await migrateToLatest(db)).toContain('0018-contract-provider-settings');

    const stored = async () => Object.fromEntries((await db.selectFrom('channels').select(['name', 'settings_json']).execute()).map((row) => [row.name, JSON.parse(row.settings_json) as object]));
    expect(await stored()).toEqual(after);
    const routing = buildRoutingTable(await listChannels(db), [], box);
    expect([...routing.unreadableChannels.values()]).toEqual([]);
    const channels = (await db.selectFrom('channels').select('id').execute()).map((row) => routing.anyChannel(row.id)!);
    const find = (name: string) => channels.find((channel) => channel.name === name)!;
    expect(find('bedrock').origin).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com');
    expect(find('azure').provider.path('chat', 'dep')).toBe('/openai/v1/chat/completions');
    expect(find('vertex').provider.path('chat', 'gemini-2.5-flash')).toBe('/v1/projects/my-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent');

    expect(await migrateToLatest(db)).toEqual([]);
    expect(await stored()).toEqual(after);
  });
});
