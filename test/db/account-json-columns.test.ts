// The accounts' JSON columns, read in src/db (issue 27, item 4): users.settings_json leniently (a user's
// page never fails on it, and a save writes back what it did not understand), the api_keys list columns
// strictly (a wrong shape is an error naming the key and the column).
import { describe, expect, it } from 'vitest';
import { userPreferencesOf } from '../../src/db/json-columns.ts';
import { apiKeyListsOf } from '../../src/db/repositories/api-keys.ts';
import { passkeyTransportsOf } from '../../src/db/repositories/passkeys.ts';

describe('users.settings_json', () => {
  it('reads the preferences and keeps the keys it does not know (the notifier state), so a save does not lose them', () => {
    const stored = { profile: { name: 'Ada' }, notifications: { low_balance_usd: 5, key_expiry_days: null }, sidebar: { order: ['keys'], hidden: [] }, notification_state: { low_balance_alerted: true } };
    expect(userPreferencesOf(JSON.stringify(stored))).toEqual(stored);
  });

  it('drops a part in another shape and keeps the rest; text that is not an object reads as no preferences', () => {
    expect(userPreferencesOf(JSON.stringify({ profile: { name: 'Ada' }, sidebar: 'left' }))).toEqual({ profile: { name: 'Ada' } });
    expect(userPreferencesOf('{')).toEqual({});
    expect(userPreferencesOf('[1]')).toEqual({});
    expect(userPreferencesOf('null')).toEqual({});
  });
});

describe('api_keys list columns', () => {
  const row = { id: 7, models_json: '["gpt-x"]', mcp_tools_json: null, ip_allowlist_json: '["10.0.0.0/8"]' };

  it('parses the lists; null is no restriction', () => {
    expect(apiKeyListsOf(row)).toEqual({ models: ['gpt-x'], mcpTools: null, ipAllowlist: ['10.0.0.0/8'] });
  });

  it('refuses another shape by key and column', () => {
    expect(() => apiKeyListsOf({ ...row, models_json: '"gpt-x"' })).toThrow("api_keys 7 models_json does not have its column's shape");
    expect(() => apiKeyListsOf({ ...row, ip_allowlist_json: '[1]' })).toThrow("api_keys 7 ip_allowlist_json does not have its column's shape");
  });
});

describe('passkeys.transports', () => {
  it("reads the browser's list; anything else reads as none (a hint only: the passkey still works)", () => {
    expect(passkeyTransportsOf({ transports: '["internal","hybrid"]' })).toEqual({ transports: ['internal', 'hybrid'] });
    expect(passkeyTransportsOf({ transports: null })).toEqual({});
    expect(passkeyTransportsOf({ transports: '["usb","carrier-pigeon"]' })).toEqual({});
    expect(passkeyTransportsOf({ transports: '{' })).toEqual({});
  });
});
