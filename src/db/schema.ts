// Table types for Kysely: the one schema shared by SQLite and PostgreSQL.
// Conventions that keep both engines identical:
// - times are integer epoch milliseconds (`*_at`), never engine-specific timestamp types;
// - money is integer micro-USD (`*_micros`); ratios are integer parts-per-million (`*_ppm`);
// - lists and small records are JSON text columns (`*_json`), parsed by the repositories;
// - booleans are integers 0/1.
import type { Generated, Insertable, Selectable } from 'kysely';
import type { RecoveryCodesTable, LoginFailuresTable, MailOutboxTable, AuditLogTable, IdentityProvidersTable, McpServersTable, UserIdentitiesTable, SigninFlowsTable, PasskeysTable, UsedChallengesTable, McpCallPayloadsTable, OrganisationRole, OrganisationsTable, OrganisationMembersTable, OrganisationInvitesTable } from './schema-accounts.ts';

export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string | null;
  password_hash: string | null;
  role: 'user' | 'admin';
  status: 'active' | 'disabled';
  /** Migration 0019: 'organisation' for an organisation's wallet account (no e-mail, no password, no sign-in). */
  kind: Generated<'person' | 'organisation'>;
  email_verified_at: number | null;
  /** TOTP secret, encrypted with GATEWAY_SECRET; null while 2FA is off. */
  totp_secret_encrypted: string | null;
  /** A secret being set up (not yet confirmed with a code), encrypted. */
  totp_pending_encrypted: string | null;
  /** The last accepted TOTP time step, so a code is never accepted twice. */
  totp_last_step: number | null;
  /** Cached balance; always equals the sum of this user's wallet_ledger rows. */
  balance_micros: number;
  rpm_limit: number | null;
  tpm_limit: number | null;
  /** Profile, notification and sidebar preferences. */
  settings_json: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** Public random id, for the sessions list and revoking; not the token. */
  id: string;
  /** SHA-256 of the session token; the token itself lives only in the browser cookie. */
  token_hash: string;
  user_id: number;
  /** 'pending_totp' between the password and the second factor (see migration 0005). */
  stage: 'active' | 'pending_totp';
  created_at: number;
  last_seen_at: number;
  /** The absolute end; the idle end is last_seen_at + the idle timeout. */
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

export interface EmailTokensTable {
  /** SHA-256 of the token sent by e-mail. */
  token_hash: string;
  user_id: number;
  purpose: 'verify_email' | 'reset_password' | 'change_email' | 'set_password';
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** Purpose-specific payload, e.g. the new address of a change_email token. */
  data: string | null;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  /** Price multiplier in parts per million: 1_000_000 is ×1, 500_000 is ×0.5. */
  ratio_ppm: number;
  description: string | null;
  rpm_limit: number | null;
  tpm_limit: number | null;
  created_at: number;
  updated_at: number;
}

export interface ChannelsTable {
  id: Generated<number>;
  name: string;
  /** Provider type: openai, anthropic, gemini, … (src/providers). */
  type: string;
  base_url: string;
  /** JSON array of upstream keys, encrypted as a whole with GATEWAY_SECRET. */
  api_keys_encrypted: string;
  models_json: string;
  model_mapping_json: string;
  groups_json: string;
  priority: number;
  weight: number;
  status: 'enabled' | 'disabled' | 'auto_disabled';
  status_reason: string | null;
  /** Timeouts and other per-channel options. */
  settings_json: string;
  created_at: number;
  updated_at: number;
}

export interface ModelsTable {
  /** The public model id clients send. */
  id: string;
  owned_by: string;
  /** Prices by kind in integer micro-USD (see src/metering). */
  pricing_json: string;
  /** 1 when the operator marks the model free; otherwise a model without a price is refused. */
  free: number;
  fallbacks_json: string;
  context_window: number | null;
  max_output_tokens: number | null;
  /** Endpoint limits (image sizes, largest n, longest prompt), JSON; '{}' when the defaults apply. */
  limits_json: string;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 (hex) of the whole key; the key itself is never stored. */
  key_hash: string;
  /** Shown in lists: `sk-AbCd…wXyZ`. */
  key_prefix: string;
  group_name: string;
  /** JSON array of model ids, or null for no restriction. */
  models_json: string | null;
  quota_micros: number | null;
  used_micros: number;
  expires_at: number | null;
  /** JSON array of CIDRs, or null for any address. */
  ip_allowlist_json: string | null;
  /** 'deleted' is final: a deleted key is never enabled again. */
  status: 'active' | 'disabled' | 'deleted';
  rpm_limit: number | null;
  tpm_limit: number | null;
  created_at: number;
  updated_at: number;
  last_used_at: number | null;
  /** Migration 0014: JSON array of MCP tools the key may list and call (server__tool, server__*), or null for every tool its group sees. */
  mcp_tools_json: string | null;
  /** Migration 0019: on an organisation's key (user_id is the organisation's wallet account), the member who holds it. */
  member_user_id: number | null;
}

export interface UsageLogsTable {
  id: Generated<number>;
  created_at: number;
  request_id: string;
  user_id: number | null;
  key_id: number | null;
  key_name: string | null;
  model: string;
  upstream_model: string | null;
  channel_id: number | null;
  /** openai-chat, anthropic-messages, gemini-generate, openai-responses, … */
  inbound_format: string;
  endpoint: string;
  stream: number;
  status: number;
  latency_ms: number;
  ttft_ms: number | null;
  input_tokens: number;
  cached_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost_micros: number;
  error: string | null;
  /** JSON array of attempts: channel, status, error, latency. */
  attempts_json: string | null;
  // Migration 0006: every quantity the cost came from, so a row's cost can be recomputed (metering/log-cost.ts).
  cache_write_tokens: Generated<number>;
  image_count: Generated<number>;
  image_size: string | null;
  image_quality: string | null;
  audio_ms: Generated<number>;
  characters: Generated<number>;
  searches: Generated<number>;
  /** 1 when the call was billed (per-request price included), 0 when it was not (a failed call). */
  requests: Generated<number>;
  /** The group ratio in force, in parts per million. */
  ratio_ppm: Generated<number>;
  /** 1 when the gateway counted input or output tokens itself because the upstream reported none. */
  tokens_counted: Generated<number>;
  /** The gateway error code (GW_ERR_…) of a failed call. */
  error_code: string | null;
  /** Migration 0012: the part of cache_write_tokens written to a one-hour cache (priced apart). */
  cache_write_1h_tokens: Generated<number>;
  /** Migration 0014: the gateway's own time in microseconds (the call's time less its upstream waits); null when unknown. */
  overhead_us: number | null;
}

export interface WalletLedgerTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  kind: 'charge' | 'refund' | 'topup' | 'grant' | 'redemption';
  /** Signed: charges are negative, top-ups and grants positive. */
  amount_micros: number;
  /** Request id for charges, payment id for top-ups; unique per kind so a retry cannot double-apply. */
  reference: string | null;
  note: string | null;
}

export interface UsageStatsTable {
  /** 'minute' | 'hour' | 'day' */
  bucket: string;
  /** Bucket start, epoch ms. */
  bucket_start: number;
  user_id: number;
  key_id: number;
  model: string;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cost_micros: number;
}

/** usage_stats summed over users and keys (migration 0009): the platform's series, by-model rows, rates. */
export type UsageStatsPlatformTable = Omit<UsageStatsTable, 'user_id' | 'key_id'>;

/** usage_stats summed over models (migration 0009): the by-key breakdown without a row per model. */
export type UsageStatsKeysTable = Omit<UsageStatsTable, 'model'>;

export interface PaymentsTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  provider_session_id: string;
  amount_micros: number;
  /** completed: credited; refunded: credited, then (partly or wholly) refunded. */
  status: 'pending' | 'completed' | 'failed' | 'refunded';
  created_at: number;
  completed_at: number | null;
  /** The Stripe PaymentIntent, which refunds (charge.refunded) name. */
  payment_intent: string | null;
  refunded_micros: Generated<number>;
  receipt_url: string | null;
  checkout_url: string | null;
  updated_at: number | null;
}

export interface RedemptionCodesTable {
  id: Generated<number>;
  code_hash: string;
  code_prefix: string;
  amount_micros: number;
  note: string | null;
  created_by: number | null;
  created_at: number;
  redeemed_by: number | null;
  redeemed_at: number | null;
  revoked_at: number | null;
  revoked_by: number | null;
}

export interface SettingsTable {
  key: string;
  value_json: string;
  updated_at: number;
}

/** A metering entry the database refused (src/metering/isolate-refused-rows.ts). */
export interface MeteringDeadLettersTable {
  id: Generated<number>;
  created_at: number;
  request_id: string;
  user_id: number | null;
  key_id: number | null;
  charge_micros: number;
  /** 1: the charge is in the ledger (or there was none); 0: it could not be applied and waits here to be replayed. */
  charge_applied: number;
  /** Why the database refused the entry. */
  error: string;
  /** The whole entry ({ log, chargeMicros }) as JSON. */
  entry_json: string;
}

/** Responses API ids the gateway relayed, with their owner (see migrations/0004-responses.ts). */
export interface ResponsesTable {
  /** The response id clients see (`resp_…`). */
  id: string;
  user_id: number;
  key_id: number | null;
  /** The channel holding the response upstream; null when the gateway keeps it. */
  channel_id: number | null;
  model: string;
  /** 'upstream': the channel keeps the conversation; 'gateway': response_json/input_json do. */
  state_kept_by: 'upstream' | 'gateway';
  response_json: string | null;
  input_json: string | null;
  created_at: number;
  /** After this the id is forgotten (rows are swept); null: kept. */
  expires_at: number | null;
  /** Set by DELETE /v1/responses/{id}: the id then answers 404 to everyone. */
  deleted_at: number | null;
  /** The response this one continues, for a gateway-kept chain (migration 0010). */
  previous_response_id: Generated<string | null>;
}

/** Items of gateway-kept responses, and owners of upstream-kept output items (migration 0010). */
export interface ResponseItemsTable {
  response_id: string;
  position: number;
  user_id: number;
  item_id: string;
  kind: 'input' | 'output';
  /** The item itself when the gateway keeps it; null when only its owner is recorded. */
  item_json: string | null;
  created_at: number;
  expires_at: number | null;
}

export type { RecoveryCodesTable, LoginFailuresTable, MailOutboxTable, AuditLogTable, IdentityProvidersTable, McpServersTable, UserIdentitiesTable, SigninFlowsTable, PasskeysTable, UsedChallengesTable, McpCallPayloadsTable, OrganisationRole, OrganisationsTable, OrganisationMembersTable, OrganisationInvitesTable } from './schema-accounts.ts';

export interface DatabaseSchema {
  organisations: OrganisationsTable;
  organisation_members: OrganisationMembersTable;
  organisation_invites: OrganisationInvitesTable;
  mcp_servers: McpServersTable;
  mcp_call_payloads: McpCallPayloadsTable;
  users: UsersTable;
  sessions: SessionsTable;
  email_tokens: EmailTokensTable;
  groups: GroupsTable;
  channels: ChannelsTable;
  models: ModelsTable;
  api_keys: ApiKeysTable;
  usage_logs: UsageLogsTable;
  wallet_ledger: WalletLedgerTable;
  usage_stats: UsageStatsTable;
  usage_stats_platform: UsageStatsPlatformTable;
  usage_stats_keys: UsageStatsKeysTable;
  payments: PaymentsTable;
  redemption_codes: RedemptionCodesTable;
  settings: SettingsTable;
  metering_dead_letters: MeteringDeadLettersTable;
  responses: ResponsesTable;
  response_items: ResponseItemsTable;
  recovery_codes: RecoveryCodesTable;
  login_failures: LoginFailuresTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  identity_providers: IdentityProvidersTable;
  user_identities: UserIdentitiesTable;
  signin_flows: SigninFlowsTable;
  passkeys: PasskeysTable;
  used_challenges: UsedChallengesTable;
}

export type UserRow = Selectable<UsersTable>;
export type GroupRow = Selectable<GroupsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type ModelRow = Selectable<ModelsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type UsageLogRow = Selectable<UsageLogsTable>;
export type NewUsageLog = Insertable<UsageLogsTable>;
export type WalletLedgerRow = Selectable<WalletLedgerTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type OrganisationRow = Selectable<OrganisationsTable>;
export type OrganisationMemberRow = Selectable<OrganisationMembersTable>;
export type OrganisationInviteRow = Selectable<OrganisationInvitesTable>;
export type McpServerRow = Selectable<McpServersTable>;
