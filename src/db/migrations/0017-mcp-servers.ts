// The MCP gateway (issue 32): the upstream MCP servers an administrator declares, each key's optional tool
// allowlist, and the arguments and results of tool calls for the servers whose administrator asked to keep
// them (the calls themselves are usage-log rows, like model calls, so statistics and charges follow them).
import type { Kysely, Migration } from 'kysely';
import type { DatabaseEngine } from '../engine.ts';
import { idColumn } from './column-helpers.ts';

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export function mcpServers(engine: DatabaseEngine): Migration {
  const id = idColumn(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createTable('mcp_servers')
        .addColumn('id', id.type, id.build)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('url', 'text', (c) => c.notNull())
        // 'streamable-http' (the current specification) or 'sse' (the older HTTP+SSE transport).
        .addColumn('transport', 'text', (c) => c.notNull())
        // The upstream's credential (a header, or OAuth client credentials) as JSON, encrypted with GATEWAY_SECRET; null: none.
        .addColumn('credential_encrypted', 'text')
        .addColumn('groups_json', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('enabled'))
        // Charged to the caller's wallet per tool call (times the group ratio); 0: free.
        .addColumn('price_per_call_micros', 'bigint', (c) => c.notNull().defaultTo(0))
        // Timeout, whether payloads are logged, whether a private-network address is allowed.
        .addColumn('settings_json', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      // JSON array of prefixed tool names (server__tool, or server__* for a whole server); null: every tool the group sees.
      await db.schema.alterTable('api_keys').addColumn('mcp_tools_json', 'text').execute();
      await db.schema.createTable('mcp_call_payloads')
        .addColumn('request_id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('arguments_json', 'text')
        .addColumn('result_json', 'text')
        .execute();
      await db.schema.createIndex('mcp_call_payloads_created_at').on('mcp_call_payloads').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('mcp_call_payloads').execute();
      await db.schema.alterTable('api_keys').dropColumn('mcp_tools_json').execute();
      await db.schema.dropTable('mcp_servers').execute();
    },
  };
}
