// /api/admin: keys and wallets, for administrators (an admin user's API key as Bearer).
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { GatewayState } from '../../gateway-state.ts';
import type { Accounting } from '../../metering/accounting.ts';
import type { AnnounceChange } from '../../cluster/invalidation-bus.ts';
import { isValidCidr } from '../../accounts/ip-allowlist.ts';
import { createKey, listKeys, revokeKey, updateKey } from '../../admin/admin-keys.ts';
import { grantToWallet } from '../../admin/admin-wallets.ts';
import { listChannels, setChannelEnabled } from '../../admin/admin-channels.ts';
import { testChannel } from '../../routing/channel-tester.ts';
import type { UpstreamAgents } from '../../upstream/upstream-agent.ts';
import { notFound } from '../../admin/admin-keys.ts';
import { requireAdmin } from '../admin-auth.ts';
import { parseBody } from '../../validate-request.ts';
import { GatewayError } from '../../gateway-errors.ts';

// Bounds checked here, at the HTTP edge: a NUL character is refused by PostgreSQL (a 500 before), and
// amounts past these would overflow micro-USD integers (BIGINT on PostgreSQL, safe integers in JS).
const MAX_USD = 1_000_000_000;
const MAX_RATE_LIMIT = 2_147_483_647;
const text = () => z.string().refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');
const usd = () => z.number().finite().min(-MAX_USD).max(MAX_USD);

const keyChangesSchema = z.object({
  enabled: z.boolean().optional(),
  group: text().min(1).max(128).optional(),
  models: z.array(text().min(1).max(256)).max(1_000).nullable().optional(),
  quota_usd: usd().nonnegative().nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ip_allowlist: z.array(z.string().max(64).refine(isValidCidr, 'not an IP address or CIDR')).max(1_000).nullable().optional(),
  rpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional(),
  tpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional(),
}).strict();
const newKeySchema = keyChangesSchema.extend({ user: text().min(1).max(256), name: text().min(1).max(128) }).strict();
const grantSchema = z.object({ amount_usd: usd().refine((n) => n !== 0, 'must not be zero'), note: text().max(500).optional() }).strict();
const channelChangesSchema = z.object({ enabled: z.boolean() }).strict();
const channelTestSchema = z.object({ model: text().min(1).max(256).optional(), reenable: z.boolean().optional() }).strict();
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** A unique index refused the row (SQLite's and PostgreSQL's wording): the client's duplicate, not our fault. */
function isUniqueViolation(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '23505' || (typeof message === 'string' && message.includes('UNIQUE constraint failed'));
}

export interface AdminRouteDeps {
  state: GatewayState;
  db: Kysely<DatabaseSchema>;
  accounting: Accounting;
  announce: AnnounceChange;
  agents: UpstreamAgents;
}

export function adminRoutes(app: FastifyInstance, deps: AdminRouteDeps): void {
  const config = { errorFormat: 'openai' as const };
  app.get('/api/admin/keys', { config }, async (request) => {
    requireAdmin(deps.state, request);
    return { data: await listKeys(deps.db) };
  });
  app.post('/api/admin/keys', { config }, async (request, reply) => {
    requireAdmin(deps.state, request);
    const created = await createKey(deps.db, deps.announce, parseBody(newKeySchema, request.body)).catch((error: unknown) => {
      throw isUniqueViolation(error) ? new GatewayError(409, 'invalid_request_error', 'GW_ERR_CONFLICT', { message: 'This user already has a key with that name.', param: 'name', code: 'conflict' }) : error;
    });
    return reply.code(201).send(created);
  });
  app.patch('/api/admin/keys/:id', { config }, async (request) => {
    requireAdmin(deps.state, request);
    const { id } = parseBody(idParam, request.params);
    await updateKey(deps.db, deps.announce, id, parseBody(keyChangesSchema, request.body));
    return { id, updated: true };
  });
  app.delete('/api/admin/keys/:id', { config }, async (request) => {
    requireAdmin(deps.state, request);
    const { id } = parseBody(idParam, request.params);
    await revokeKey(deps.db, deps.announce, id);
    return { id, revoked: true };
  });
  app.get('/api/admin/channels', { config }, async (request) => {
    requireAdmin(deps.state, request);
    return { data: await listChannels(deps.db) };
  });
  app.patch('/api/admin/channels/:id', { config }, async (request) => {
    requireAdmin(deps.state, request);
    const { id } = parseBody(idParam, request.params);
    const { enabled } = parseBody(channelChangesSchema, request.body);
    await setChannelEnabled(deps.db, deps.announce, id, enabled);
    return { id, enabled };
  });
  app.post('/api/admin/channels/:id/test', { config }, async (request) => {
    requireAdmin(deps.state, request);
    const { id } = parseBody(idParam, request.params);
    const { model, reenable } = parseBody(channelTestSchema, request.body);
    const channel = deps.state.current.routing.anyChannel(id);
    if (!channel) throw notFound(`Channel ${id}`);
    const result = await testChannel(deps.agents, channel, model ?? [...channel.models][0]!);
    if (result.ok && reenable) await setChannelEnabled(deps.db, deps.announce, id, true);
    return { channel: channel.name, model: model ?? [...channel.models][0], ok: result.ok, status: result.status, latency_ms: result.latencyMs, error: result.error, reenabled: result.ok && reenable === true };
  });
  app.post('/api/admin/users/:id/grant', { config }, async (request) => {
    requireAdmin(deps.state, request);
    const { id } = parseBody(idParam, request.params);
    const { amount_usd, note } = parseBody(grantSchema, request.body);
    const balance = await grantToWallet(deps.db, deps.accounting, id, amount_usd, note ?? null);
    return { user_id: id, balance_usd: balance / 1_000_000 };
  });
}
