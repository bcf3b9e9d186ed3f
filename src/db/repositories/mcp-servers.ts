// Upstream MCP servers (src/mcp). credential_encrypted is sealed with a random nonce: callers leave it out
// of an upsert when the plaintext credential did not change, or every apply of the config would rewrite it.
import type { McpServerRow, McpServersTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';
import { mcpServerSettingsColumn, parseJsonColumn, stringListColumn, type McpServerSettings } from '../json-columns.ts';

/** A server as the gateway uses it: its JSON columns parsed, once, here. */
export type McpServer = Omit<McpServerRow, 'settings_json' | 'groups_json'> & { settings: McpServerSettings; groups: string[] };

function toMcpServer(row: McpServerRow): McpServer {
  const { settings_json: settings, groups_json: groups, ...rest } = row;
  return {
    ...rest,
    settings: parseJsonColumn(mcpServerSettingsColumn, settings, `mcp_servers '${row.name}' settings_json`),
    groups: parseJsonColumn(stringListColumn, groups, `mcp_servers '${row.name}' groups_json`),
  };
}

const parsedOrUndefined = (row: McpServerRow | undefined) => (row ? toMcpServer(row) : undefined);

type McpServerFields = Partial<Omit<McpServersTable, 'id' | 'name' | 'created_at' | 'updated_at'>>;

export async function upsertMcpServerByName(db: Db, name: string, fields: McpServerFields, now = Date.now()): Promise<UpsertResult<McpServerRow>> {
  return upsertRow<McpServerRow>(db, { table: 'mcp_servers', key: { name }, fields, idColumn: 'id', now });
}

export async function findMcpServerByName(db: Db, name: string): Promise<McpServer | undefined> {
  return parsedOrUndefined(await db.selectFrom('mcp_servers').selectAll().where('name', '=', name).executeTakeFirst());
}

export async function findMcpServerById(db: Db, id: number): Promise<McpServer | undefined> {
  return parsedOrUndefined(await db.selectFrom('mcp_servers').selectAll().where('id', '=', id).executeTakeFirst());
}

export async function listMcpServers(db: Db): Promise<McpServer[]> {
  return (await db.selectFrom('mcp_servers').selectAll().orderBy('name').execute()).map(toMcpServer);
}

/** A new server; the caller has checked its name is free. */
export async function insertMcpServer(db: Db, name: string, fields: Required<Pick<McpServerFields, 'url' | 'transport' | 'groups_json' | 'status' | 'price_per_call_micros' | 'settings_json'>> & McpServerFields, now = Date.now()): Promise<McpServer> {
  return toMcpServer(await db.insertInto('mcp_servers').values({ name, ...fields, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow());
}

export async function updateMcpServer(db: Db, id: number, fields: McpServerFields, now = Date.now()): Promise<McpServer | undefined> {
  return parsedOrUndefined(await db.updateTable('mcp_servers').set({ ...fields, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirst());
}

export async function deleteMcpServer(db: Db, id: number): Promise<McpServer | undefined> {
  return parsedOrUndefined(await db.deleteFrom('mcp_servers').where('id', '=', id).returningAll().executeTakeFirst());
}

/** Arguments and results of calls to servers that keep them, written behind the calls in one insert. */
export async function insertMcpCallPayloads(db: Db, rows: { request_id: string; created_at: number; arguments_json: string | null; result_json: string | null }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('mcp_call_payloads').values(rows).onConflict((conflict) => conflict.column('request_id').doNothing()).execute();
}

async function findMcpCallPayload(db: Db, requestId: string) {
  return db.selectFrom('mcp_call_payloads').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}
