// Upstream MCP servers (src/mcp). credential_encrypted is sealed with a random nonce: callers leave it out
// of an upsert when the plaintext credential did not change, or every apply of the config would rewrite it.
import type { McpServerRow, McpServersTable } from '../schema.ts';
import { upsertRow } from './upsert.ts';
import type { Db, UpsertResult } from './repository-helpers.ts';

type McpServerFields = Partial<Omit<McpServersTable, 'id' | 'name' | 'created_at' | 'updated_at'>>;

export async function upsertMcpServerByName(db: Db, name: string, fields: McpServerFields, now = Date.now()): Promise<UpsertResult<McpServerRow>> {
  return upsertRow<McpServerRow>(db, { table: 'mcp_servers', key: { name }, fields, idColumn: 'id', now });
}

export async function findMcpServerByName(db: Db, name: string): Promise<McpServerRow | undefined> {
  return db.selectFrom('mcp_servers').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findMcpServerById(db: Db, id: number): Promise<McpServerRow | undefined> {
  return db.selectFrom('mcp_servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listMcpServers(db: Db): Promise<McpServerRow[]> {
  return db.selectFrom('mcp_servers').selectAll().orderBy('name').execute();
}

export async function updateMcpServer(db: Db, id: number, fields: McpServerFields, now = Date.now()): Promise<McpServerRow | undefined> {
  return db.updateTable('mcp_servers').set({ ...fields, updated_at: now }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteMcpServer(db: Db, id: number): Promise<McpServerRow | undefined> {
  return db.deleteFrom('mcp_servers').where('id', '=', id).returningAll().executeTakeFirst();
}

/** Arguments and results of calls to servers that keep them, written behind the calls in one insert. */
export async function insertMcpCallPayloads(db: Db, rows: { request_id: string; created_at: number; arguments_json: string | null; result_json: string | null }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('mcp_call_payloads').values(rows).onConflict((conflict) => conflict.column('request_id').doNothing()).execute();
}

async function findMcpCallPayload(db: Db, requestId: string) {
  return db.selectFrom('mcp_call_payloads').selectAll().where('request_id', '=', requestId).executeTakeFirst();
}
