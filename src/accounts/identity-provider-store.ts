// Identity providers for sign-in: OpenID Connect by discovery, or GitHub's OAuth. The client secret is
// stored encrypted (secret-box) and never leaves in an answer; the view says only whether one is set.
import type { AccountsDeps } from './accounts-deps.ts';
import { apiNotFound, conflict } from '../gateway-errors.ts';
import {
  deleteIdentityProviderRow, findIdentityProviderRowById, findIdentityProviderRowBySlug, insertIdentityProvider, listIdentityProviderRows, updateIdentityProviderRow,
  type IdentityProviderRow,
} from '../db/repositories/identity-providers.ts';

export type { IdentityProviderRow };

interface IdentityProviderInput {
  slug: string;
  kind: 'oidc' | 'github';
  name: string;
  /** OIDC: the issuer URL. GitHub: the web base (https://github.com, or a GitHub Enterprise Server). */
  issuer?: string | null | undefined;
  client_id: string;
  client_secret: string;
  scopes?: string | undefined;
  enabled?: boolean | undefined;
}

export const GITHUB_DEFAULT_BASE = 'https://github.com';
const defaultScopes = (kind: IdentityProviderInput['kind']) => (kind === 'github' ? 'read:user user:email' : 'openid email profile');

export function identityProviderView(row: IdentityProviderRow) {
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    name: row.name,
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret_set: row.client_secret_encrypted !== '',
    scopes: row.scopes,
    enabled: row.enabled === 1,
    source: row.source,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function listIdentityProviders(deps: Pick<AccountsDeps, 'db'>, onlyEnabled = false): Promise<IdentityProviderRow[]> {
  return listIdentityProviderRows(deps.db, onlyEnabled);
}

export async function findIdentityProviderBySlug(deps: Pick<AccountsDeps, 'db'>, slug: string): Promise<IdentityProviderRow | undefined> {
  return findIdentityProviderRowBySlug(deps.db, slug);
}

async function requireProvider(deps: Pick<AccountsDeps, 'db'>, id: number): Promise<IdentityProviderRow> {
  const row = await findIdentityProviderRowById(deps.db, id);
  if (!row) throw apiNotFound('This identity provider');
  return row;
}

export async function createIdentityProvider(deps: Pick<AccountsDeps, 'db' | 'secrets'>, input: IdentityProviderInput, source: 'config' | 'admin' = 'admin', now = Date.now()): Promise<IdentityProviderRow> {
  if (await findIdentityProviderBySlug(deps, input.slug)) throw conflict(`An identity provider named '${input.slug}' exists.`, 'slug', 'slug_taken');
  return insertIdentityProvider(deps.db, {
    slug: input.slug,
    kind: input.kind,
    name: input.name,
    issuer: input.kind === 'github' ? (input.issuer ?? GITHUB_DEFAULT_BASE) : (input.issuer ?? null),
    client_id: input.client_id,
    client_secret_encrypted: deps.secrets.encrypt(input.client_secret),
    scopes: input.scopes ?? defaultScopes(input.kind),
    enabled: input.enabled === false ? 0 : 1,
    source,
    created_at: now,
    updated_at: now,
  });
}

interface IdentityProviderChanges {
  name?: string | undefined;
  issuer?: string | undefined;
  client_id?: string | undefined;
  /** Omitted: the stored secret stays. */
  client_secret?: string | undefined;
  scopes?: string | undefined;
  enabled?: boolean | undefined;
}

export async function updateIdentityProvider(deps: Pick<AccountsDeps, 'db' | 'secrets'>, id: number, changes: IdentityProviderChanges, now = Date.now()): Promise<IdentityProviderRow> {
  await requireProvider(deps, id);
  await updateIdentityProviderRow(deps.db, id, {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.issuer !== undefined ? { issuer: changes.issuer } : {}),
    ...(changes.client_id !== undefined ? { client_id: changes.client_id } : {}),
    ...(changes.client_secret !== undefined ? { client_secret_encrypted: deps.secrets.encrypt(changes.client_secret) } : {}),
    ...(changes.scopes !== undefined ? { scopes: changes.scopes } : {}),
    ...(changes.enabled !== undefined ? { enabled: changes.enabled ? 1 : 0 } : {}),
    updated_at: now,
  });
  return requireProvider(deps, id);
}

/** Deleting a provider unlinks every identity of it (the accounts stay). */
export async function deleteIdentityProvider(deps: Pick<AccountsDeps, 'db'>, id: number): Promise<void> {
  await requireProvider(deps, id);
  await deleteIdentityProviderRow(deps.db, id);
}

/** The config file's entry: created, or brought in line (the secret re-encrypted only when it changed). */
export async function upsertIdentityProviderFromConfig(deps: Pick<AccountsDeps, 'db' | 'secrets'>, input: IdentityProviderInput, now = Date.now()): Promise<void> {
  const existing = await findIdentityProviderBySlug(deps, input.slug);
  if (!existing) {
    await createIdentityProvider(deps, input, 'config', now);
    return;
  }
  let secretChanged = true;
  try {
    secretChanged = deps.secrets.decrypt(existing.client_secret_encrypted) !== input.client_secret;
  } catch { /* stored under another GATEWAY_SECRET: replace it */ }
  const issuer = input.kind === 'github' ? (input.issuer ?? GITHUB_DEFAULT_BASE) : (input.issuer ?? null);
  const scopes = input.scopes ?? defaultScopes(input.kind);
  const enabled = input.enabled === false ? 0 : 1;
  if (!secretChanged && existing.kind === input.kind && existing.name === input.name && existing.issuer === issuer && existing.client_id === input.client_id && existing.scopes === scopes && existing.enabled === enabled && existing.source === 'config') return;
  await updateIdentityProviderRow(deps.db, existing.id, {
    kind: input.kind, name: input.name, issuer, client_id: input.client_id, scopes, enabled, source: 'config', updated_at: now,
    ...(secretChanged ? { client_secret_encrypted: deps.secrets.encrypt(input.client_secret) } : {}),
  });
}
