// What the /api/admin routes of admin-routes.ts answer (keys, users, wallets, the audit log), and the pieces
// the other admin answer files share (timestamps, channel status).
import { z } from 'zod';
import { userAnswer } from './auth-answers.ts';
import { listOf, micros, pageOf, rowId } from './common-answers.ts';

/** A timestamp the handler sends as an ISO 8601 string (Date.toISOString). */
export const isoTime = z.iso.datetime();
/** Epoch milliseconds, as a row stores them. */
const epochMs = z.number().int();
const limit = z.number().int().positive().nullable();
/** A channel's status (channels.status). */
export const channelStatus = z.enum(['enabled', 'disabled', 'auto_disabled']);

/** A key as GET /api/admin/keys lists it: the row's columns (never the hash) and its owner. */
const adminKeyRow = z.object({
  id: rowId,
  name: z.string(),
  key_prefix: z.string(),
  group_name: z.string(),
  status: z.enum(['active', 'disabled', 'deleted']),
  quota_micros: micros.nullable(),
  used_micros: micros,
  expires_at: epochMs.nullable(),
  created_at: epochMs,
  last_used_at: epochMs.nullable(),
  /** The owner's handle. */
  user: z.string(),
  user_email: z.string().nullable(),
  /** JSON arrays as stored (null: no restriction). */
  models_json: z.string().nullable(),
  ip_allowlist_json: z.string().nullable(),
  rpm_limit: limit,
  tpm_limit: limit,
});
export const adminKeysAnswer = listOf(adminKeyRow);
/** The secret, in this answer only. */
export const createdKeyAnswer = z.object({ id: rowId, key: z.string() });
export const keyUpdatedAnswer = z.object({ id: rowId, updated: z.literal(true) });
export const keyRevokedAnswer = z.object({ id: rowId, revoked: z.literal(true) });

/** A user as administrators see it (src/admin/admin-users.ts adminUserView): userView and the limits. */
export const adminUserAnswer = userAnswer.extend({
  created_at: isoTime,
  rpm_limit: limit,
  tpm_limit: limit,
  updated_at: isoTime,
});
export const adminUsersAnswer = pageOf(adminUserAnswer);
/** Without a password, the one-time link to set it (also mailed). */
export const createdUserAnswer = z.object({ user: adminUserAnswer, set_password_url: z.string().nullable() });
export const twoFactorResetAnswer = z.object({ id: rowId, two_factor_enabled: z.literal(false) });
export const grantAnswer = z.object({ user_id: rowId, balance_usd: z.number() });

export const auditAnswer = pageOf(z.object({
  id: rowId,
  at: isoTime,
  actor: z.string(),
  actor_user_id: z.number().int().nullable(),
  action: z.string(),
  target: z.string(),
  /** The views before and after the change, as recorded (any JSON; null when there was none). */
  before: z.unknown(),
  after: z.unknown(),
}));
