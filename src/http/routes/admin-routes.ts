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
import { usdToMicros } from '../../metering/pricing.ts';
import { requireAdmin } from '../admin-auth.ts';
import { parseBody } from '../../validate-request.ts';

const keyChangesSchema = z.object({
  enabled: z.boolean().optional(),
  group: z.string().min(1).optional(),
  models: z.array(z.string().min(1)).nullable().optional(),
  quota_usd: z.number().nonnegative().nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ip_allowlist: z.array(z.string().refine(isValidCidr, 'not an IP address or CIDR')).nullable().optional(),
  rpm_limit: z.number().int().positive().nullable().optional(),
  tpm_limit: z.number().int().positive().nullable().optional(),
}).strict();
const newKeySchema = keyChangesSchema.extend({ user: z.string().min(1), name: z.string().min(1).max(128) }).strict();
const grantSchema = z.object({ amount_usd: z.number().finite().refine((n) => n !== 0, 'must not be zero'), note: z.string().max(500).optional() }).strict();
const channelChangesSchema = z.object({ enabled: z.boolean() }).strict();
const channelTestSchema = z.object({ model: z.string().min(1).optional(), reenable: z.boolean().optional() }).strict();
const idParam = z.object({ id: z.coerce.number().int().positive() });

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
    const created = await createKey(deps.db, deps.announce, parseBody(newKeySchema, request.body));
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
    const balance = await grantToWallet(deps.db, deps.accounting, id, usdToMicros(amount_usd), note ?? null);
    return { user_id: id, balance_usd: balance / 1_000_000 };
  });
}
