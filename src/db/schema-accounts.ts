// Table types of the accounts side (sign-in, mail, audit, identity providers, passkeys, MCP servers,
// organisations), for Kysely; schema.ts puts them into the one DatabaseSchema and re-exports them. The
// conventions are schema.ts's.
import type { Generated } from 'kysely';

// ── Accounts (migration 0005) ──
export interface RecoveryCodesTable {
  user_id: number;
  /** SHA-256 of the recovery code. */
  code_hash: string;
  used_at: number | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  /** 'ip:<address>' or 'account:<email>'. */
  subject: string;
  at: number;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  next_attempt_at: number;
  locked_until: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_user_id: number | null;
  /** Who: the admin's name, or 'cli'. */
  actor: string;
  action: string;
  target: string;
  before_json: string | null;
  after_json: string | null;
}

/** Identity providers for sign-in (migration 0015_signin; renumbered from 0014 on merging main). */
export interface IdentityProvidersTable {
  id: Generated<number>;
  slug: string;
  kind: 'oidc' | 'github';
  name: string;
  /** The OpenID Connect issuer (discovery at <issuer>/.well-known/openid-configuration); null for GitHub. */
  issuer: string | null;
  client_id: string;
  client_secret_encrypted: string;
  /** Space-separated. */
  scopes: string;
  enabled: number;
  source: 'config' | 'admin';
  created_at: number;
  updated_at: number;
}

/** An upstream MCP server (migration 0017, src/mcp). */
export interface McpServersTable {
  id: Generated<number>;
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  /** JSON of the credential ({ header, value } or { oauth: … }), encrypted with GATEWAY_SECRET; null: none. */
  credential_encrypted: string | null;
  groups_json: string;
  status: 'enabled' | 'disabled';
  price_per_call_micros: number;
  /** timeoutMs, logPayloads, allowPrivateNetwork. */
  settings_json: string;
  created_at: number;
  updated_at: number;
}

export interface UserIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  provider_id: number;
  /** The provider's stable id of the person (OIDC `sub`, GitHub's numeric id). */
  subject: string;
  email: string | null;
  created_at: number;
  last_used_at: number;
}

export interface SigninFlowsTable {
  id_hash: string;
  provider_id: number;
  data_encrypted: string;
  expires_at: number;
}

export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter; a lower or equal one later means a cloned authenticator. */
  counter: number;
  /** JSON array of transports, as the browser reported them. */
  transports: string | null;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface UsedChallengesTable {
  challenge_hash: string;
  expires_at: number;
}

/** Arguments and result of a tool call, kept only for servers that log payloads (secrets redacted). */
export interface McpCallPayloadsTable {
  request_id: string;
  created_at: number;
  arguments_json: string | null;
  result_json: string | null;
}

export type OrganisationRole = 'owner' | 'admin' | 'billing' | 'member';

export interface OrganisationsTable {
  id: Generated<number>;
  name: string;
  wallet_user_id: number;
  group_name: string;
  created_at: number;
  updated_at: number;
}

export interface OrganisationMembersTable {
  organisation_id: number;
  user_id: number;
  role: OrganisationRole;
  monthly_cap_micros: number | null;
  created_at: number;
}

export interface OrganisationInvitesTable {
  id: Generated<number>;
  organisation_id: number;
  email: string;
  role: OrganisationRole;
  token_hash: string;
  invited_by: number | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: number | null;
  revoked_at: number | null;
}
