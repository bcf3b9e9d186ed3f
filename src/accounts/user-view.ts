// What the API shows of a user: never the password hash, the TOTP secret or anything derived from them.
import type { UserRow } from '../db/schema.ts';
import { userPreferencesOf, type UserPreferences } from '../db/json-columns.ts';

export type { UserPreferences };

export function preferencesOf(user: Pick<UserRow, 'settings_json'>): UserPreferences {
  return userPreferencesOf(user.settings_json);
}

export function userView(user: UserRow) {
  const preferences = preferencesOf(user);
  return {
    id: user.id,
    email: user.email,
    name: preferences.profile?.name ?? user.name,
    handle: user.name,
    role: user.role,
    /** 'organisation': an organisation's wallet account (nobody signs in to it). */
    kind: user.kind,
    status: user.status,
    email_verified: user.email === null || user.email_verified_at !== null,
    two_factor_enabled: user.totp_secret_encrypted !== null,
    balance_usd: user.balance_micros / 1_000_000,
    created_at: new Date(user.created_at).toISOString(),
  };
}

export function settingsView(user: UserRow) {
  const preferences = preferencesOf(user);
  return {
    notifications: { low_balance_usd: preferences.notifications?.low_balance_usd ?? null, key_expiry_days: preferences.notifications?.key_expiry_days ?? null },
    sidebar: preferences.sidebar ?? null,
  };
}
