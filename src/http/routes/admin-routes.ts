// /api/admin: keys, wallets and users, for administrators: an admin's session (with CSRF) or an admin's
// sk- key as a Bearer token. Every change is written to the audit log. Channels, models, groups and
// settings are in admin-catalog-routes.ts.
import { z } from 'zod';
import type { GatewayState } from '../../gateway-state.ts';
import type { Accounting } from '../../metering/accounting.ts';
import { isValidCidr } from '../../accounts/ip-allowlist.ts';
import { revokeKey, createKey, listKeys, updateKey } from '../../admin/admin-keys.ts';
import { grantToWallet } from '../../admin/admin-wallets.ts';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { ApiCaller } from '../api-caller.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { recordAudit, listAudit, type AuditActor } from '../../admin/audit-log.ts';
import { adminCreateUser, adminResetTwoFactor, adminUpdateUser, adminUserView, findUserOr404, searchUsers } from '../../admin/admin-users.ts';
import { keyView } from '../../accounts/user-keys.ts';
import { findApiKeyById } from '../../db/repositories/api-keys.ts';
import { requireKnownGroups } from '../../admin/admin-number-rules.ts';
import { hasAtMostDecimals } from '../../metering/money-bounds.ts';
import { emailField, passwordField } from './api-auth-routes.ts';
import { mcpToolEntry } from '../../config/mcp-server-schema.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminAnswers = () => import('./answers/admin-answers.ts');

// Bounds checked here, at the HTTP edge: a NUL character is refused by PostgreSQL (a 500 before), and
// amounts past these would overflow micro-USD integers (BIGINT on PostgreSQL, safe integers in JS).
const MAX_USD = 1_000_000_000;
const MAX_RATE_LIMIT = 2_147_483_647;
const text = () => z.string().refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');
// Exact to a micro-dollar, as stored: $0.0000005 would otherwise be rounded to a micro-dollar or to nothing.
const usd = () => z.number().finite().min(-MAX_USD).max(MAX_USD).refine((value) => hasAtMostDecimals(value, 6), 'must be exact to a micro-dollar (at most 6 decimals)');
const keyChangesSchema = z.object({
  enabled: z.boolean().optional(),
  group: text().min(1).max(128).optional(),
  models: z.array(text().min(1).max(256)).max(1_000).nullable().optional(),
  /** MCP tools the key may list and call (server__tool, server__*); null: every tool its group sees. */
  mcp_tools: z.array(mcpToolEntry).max(1_000).nullable().optional(),
  quota_usd: usd().nonnegative().nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ip_allowlist: z.array(z.string().max(64).refine(isValidCidr, 'not an IP address or CIDR')).max(1_000).nullable().optional(),
  rpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional(),
  tpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional(),
}).strict();
const newKeySchema = keyChangesSchema.extend({ user: text().min(1).max(256), name: text().min(1).max(128) }).strict();
const grantSchema = z.object({ amount_usd: usd().refine((n) => n !== 0, 'must not be zero'), note: text().max(500).optional() }).strict();

interface AdminRouteDeps {
  state: GatewayState;
  accounting: Accounting;
}

export const actorOf = (caller: ApiCaller): AuditActor => ({ userId: caller.user.id, name: caller.user.email ?? caller.user.name });

export function adminRoutes(api: ApiRouter, deps: AdminRouteDeps, accounts: AccountsDeps): void {
  const tag = 'Administration';
  const admin = { tag, access: 'admin' as const, allowKeys: true };
  const audit = (caller: ApiCaller, action: string, target: string, before: unknown, after: unknown) => recordAudit(accounts.db, actorOf(caller), action, target, before, after);
  const keyRow = (id: number) => findApiKeyById(accounts.db, id);

  api.route({ ...admin, method: 'GET', url: '/api/admin/keys', answer: lazyAnswer(adminAnswers, (m) => m.adminKeysAnswer), summary: "Every user's keys.", handler: async () => ({ data: await listKeys(accounts.db) }) });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/keys', answer: lazyAnswer(adminAnswers, (m) => m.createdKeyAnswer), status: 201, body: newKeySchema, summary: 'Create a key for a user; the secret is in this answer only.',
    handler: async ({ caller, body }) => {
      await requireKnownGroups(accounts.db, [body.group ?? 'default'], 'group');
      const created = await createKey(accounts.db, accounts.announce, body);
      const row = await keyRow(created.id);
      await audit(caller, 'key.create', `key:${created.id}`, null, row ? keyView(row) : null);
      return created;
    },
  });
  api.route({
    ...admin, method: 'PATCH', url: '/api/admin/keys/:id', answer: lazyAnswer(adminAnswers, (m) => m.keyUpdatedAnswer), params: idParams, body: keyChangesSchema, summary: "Change any key's settings (a deleted key stays deleted).",
    handler: async ({ caller, params, body }) => {
      if (body.group !== undefined) await requireKnownGroups(accounts.db, [body.group], 'group');
      const before = await keyRow(params.id);
      await updateKey(accounts.db, accounts.announce, params.id, body);
      const after = await keyRow(params.id);
      await audit(caller, 'key.update', `key:${params.id}`, before ? keyView(before) : null, after ? keyView(after) : null);
      return { id: params.id, updated: true as const };
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/keys/:id', answer: lazyAnswer(adminAnswers, (m) => m.keyRevokedAnswer), params: idParams, summary: 'Delete a key, for good: it can never be enabled again, by anyone.',
    handler: async ({ caller, params }) => {
      const before = await keyRow(params.id);
      await revokeKey(accounts.db, accounts.announce, params.id);
      await audit(caller, 'key.delete', `key:${params.id}`, before ? keyView(before) : null, { status: 'deleted' });
      return { id: params.id, revoked: true as const };
    },
  });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/users', answer: lazyAnswer(adminAnswers, (m) => m.adminUsersAnswer), summary: 'Search users by e-mail or name.',
    query: z.object({ q: z.string().max(200).optional(), limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.coerce.number().int().nonnegative().optional() }).strict(),
    handler: async ({ query }) => searchUsers(accounts, { q: query.q, limit: query.limit, after: query.cursor }),
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/users', answer: lazyAnswer(adminAnswers, (m) => m.createdUserAnswer), status: 201, summary: 'Create a user; without a password, a one-time link to set it is mailed and answered.',
    body: z.object({ email: emailField, name: z.string().trim().min(1).max(100).optional(), role: z.enum(['user', 'admin']).optional(), password: passwordField.optional() }).strict(),
    handler: async ({ caller, body }) => {
      const { user, set_password_url } = await adminCreateUser(accounts, body);
      await audit(caller, 'user.create', `user:${user.id}`, null, adminUserView(user));
      return { user: adminUserView(user), set_password_url };
    },
  });
  api.route({
    ...admin, method: 'GET', url: '/api/admin/users/:id', answer: lazyAnswer(adminAnswers, (m) => m.adminUserAnswer), params: idParams, summary: 'One user.',
    handler: async ({ params }) => adminUserView(await findUserOr404(accounts, params.id)),
  });
  api.route({
    ...admin, method: 'PATCH', url: '/api/admin/users/:id', answer: lazyAnswer(adminAnswers, (m) => m.adminUserAnswer), params: idParams, summary: 'Disable or enable, change role or limits. A role or status change ends their sessions.',
    body: z.object({ status: z.enum(['active', 'disabled']).optional(), role: z.enum(['user', 'admin']).optional(), rpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional(), tpm_limit: z.number().int().positive().max(MAX_RATE_LIMIT).nullable().optional() }).strict(),
    handler: async ({ caller, params, body }) => {
      const { before, after } = await adminUpdateUser(accounts, params.id, body);
      await audit(caller, 'user.update', `user:${params.id}`, adminUserView(before), adminUserView(after));
      return adminUserView(after);
    },
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/users/:id/reset-2fa', answer: lazyAnswer(adminAnswers, (m) => m.twoFactorResetAnswer), params: idParams, summary: "Turn off a user's two-factor sign-in (and end their sessions).",
    handler: async ({ caller, params }) => {
      const before = await adminResetTwoFactor(accounts, params.id);
      await audit(caller, 'user.reset_2fa', `user:${params.id}`, { two_factor_enabled: before.totp_secret_encrypted !== null }, { two_factor_enabled: false });
      return { id: params.id, two_factor_enabled: false as const };
    },
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/users/:id/grant', answer: lazyAnswer(adminAnswers, (m) => m.grantAnswer), params: idParams, body: grantSchema, summary: 'Grant (positive) or debit (negative) a wallet, with a note; a ledger row.',
    handler: async ({ caller, params, body }) => {
      await findUserOr404(accounts, params.id);
      const before = await deps.accounting.balance(params.id);
      const balance = await grantToWallet(accounts.db, deps.accounting, params.id, body.amount_usd, body.note ?? null);
      await audit(caller, body.amount_usd > 0 ? 'wallet.grant' : 'wallet.debit', `user:${params.id}`, { balance_usd: before / 1_000_000 }, { balance_usd: balance / 1_000_000, amount_usd: body.amount_usd, note: body.note ?? null });
      return { user_id: params.id, balance_usd: balance / 1_000_000 };
    },
  });
  api.route({
    ...admin, method: 'GET', url: '/api/admin/audit', answer: lazyAnswer(adminAnswers, (m) => m.auditAnswer), summary: 'The audit log, newest first: who, what, before and after, when.',
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(50), cursor: z.coerce.number().int().positive().optional() }).strict(),
    handler: async ({ query }) => listAudit(accounts.db, query.limit, query.cursor),
  });
}
