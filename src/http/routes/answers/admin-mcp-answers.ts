// What /api/admin/mcp-servers answers (admin-mcp-routes.ts): a server's credential only as its kind and
// header names (or OAuth client id), never a value.
import { z } from 'zod';
import { listOf, rowId } from './common-answers.ts';
import { isoTime } from './admin-answers.ts';

/** An upstream MCP server (src/mcp/mcp-server-rows.ts mcpServerView). */
export const mcpServerAnswer = z.object({
  id: rowId,
  name: z.string(),
  url: z.string(),
  transport: z.enum(['streamable-http', 'sse']),
  groups: z.array(z.string()),
  enabled: z.boolean(),
  /** USD per call. */
  price_per_call: z.number().nonnegative(),
  timeout_ms: z.number().int().positive().nullable(),
  rpm_limit: z.number().int().positive().nullable(),
  log_payloads: z.boolean(),
  allow_private_network: z.boolean(),
  credential: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('none') }),
    z.object({ kind: z.literal('headers'), header_names: z.array(z.string()) }),
    z.object({ kind: z.literal('oauth'), client_id: z.string() }),
    /** Stored, but it cannot be decrypted with this GATEWAY_SECRET. */
    z.object({ kind: z.literal('unreadable') }),
  ]),
  created_at: isoTime,
  updated_at: isoTime,
});
export const mcpServersAnswer = listOf(mcpServerAnswer);
export const mcpServerDeletedAnswer = z.object({ id: rowId, deleted: z.literal(true) });

/** POST /api/admin/mcp-servers/:id/test: connected and listed its tools, or why not. */
export const mcpServerTestAnswer = z.object({
  name: z.string(),
  ok: z.boolean(),
  latency_ms: z.number().int().nonnegative(),
  tools: z.array(z.object({ name: z.string(), description: z.string().nullable() })),
  error: z.string().nullable(),
});
