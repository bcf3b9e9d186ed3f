// What /api/keys and /api/groups answer (src/http/routes/api-keys-routes.ts): a key as keyView shows it
// (src/accounts/user-keys.ts; the secret only in the answers that create or rotate one), the groups a user
// may pick.
import { z } from 'zod';
import { listOf, rowId } from './common-answers.ts';

export const keyAnswer = z.object({
  id: rowId,
  name: z.string(),
  /** The secret's first characters, to recognise it by. */
  prefix: z.string(),
  group: z.string(),
  /** null: every model of the group. */
  models: z.array(z.string()).nullable(),
  /** MCP tools the key may use (server__tool, server__*); null: every tool of its group's servers. */
  mcp_tools: z.array(z.string()).nullable(),
  quota_usd: z.number().nullable(),
  spent_usd: z.number(),
  expires_at: z.string().nullable(),
  ip_allowlist: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

export const keysAnswer = listOf(keyAnswer);
/** A key just created or rotated, with its secret (`key`), answered this once. */
export const keyWithSecretAnswer = keyAnswer.extend({ key: z.string() });
export const keyDeletedAnswer = z.object({ id: rowId, deleted: z.literal(true) });

export const groupsAnswer = listOf(z.object({
  name: z.string(),
  description: z.string().nullable(),
  /** The price multiplier (1 = list price). */
  ratio: z.number(),
  models: z.array(z.string()),
}));
