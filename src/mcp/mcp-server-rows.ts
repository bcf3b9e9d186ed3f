// Config entries and admin API bodies (human units) → mcp_servers columns (micro-USD, JSON text, the
// credential encrypted), and rows → what the admin API shows (never the credential).
import type { McpServerConfig } from '../config/mcp-server-schema.ts';
import type { McpServer } from '../db/repositories/mcp-servers.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { usdToMicros } from '../metering/pricing.ts';
import type { McpCredential, McpServerSettings } from './mcp-upstream.ts';

export function mcpCredentialOfConfig(server: Pick<McpServerConfig, 'headers' | 'oauth'>): McpCredential | null {
  if (server.oauth) return { oauth: { client_id: server.oauth.client_id, client_secret: server.oauth.client_secret, ...(server.oauth.scope ? { scope: server.oauth.scope } : {}), ...(server.oauth.issuer ? { issuer: server.oauth.issuer } : {}) } };
  if (server.headers && Object.keys(server.headers).length > 0) return { headers: { ...server.headers } };
  return null;
}

export function mcpSettingsOfConfig(server: Pick<McpServerConfig, 'timeout_ms' | 'rpm_limit' | 'log_payloads' | 'allow_private_network'>): McpServerSettings {
  return {
    ...(server.timeout_ms !== undefined ? { timeoutMs: server.timeout_ms } : {}),
    ...(server.rpm_limit !== undefined ? { rpmLimit: server.rpm_limit } : {}),
    ...(server.log_payloads ? { logPayloads: true } : {}),
    ...(server.allow_private_network ? { allowPrivateNetwork: true } : {}),
  };
}

/** The columns the config controls, the credential left to the caller (it compares plaintexts before re-encrypting). */
export function mcpServerColumnsOfConfig(server: McpServerConfig) {
  return {
    url: server.url,
    transport: server.transport,
    groups_json: JSON.stringify([...new Set(server.groups)]),
    status: server.enabled ? 'enabled' as const : 'disabled' as const,
    price_per_call_micros: usdToMicros(server.price_per_call ?? 0),
    settings_json: JSON.stringify(mcpSettingsOfConfig(server)),
  };
}

export function sealMcpCredential(secrets: SecretBox, credential: McpCredential | null): string | null {
  return credential === null ? null : secrets.encrypt(JSON.stringify(credential));
}

/** What administrators see: the kind of credential and the header names, never a value or a secret. */
export function mcpServerView(row: McpServer, secrets: SecretBox) {
  const settings = row.settings;
  let credential: { kind: 'none' } | { kind: 'headers'; header_names: string[] } | { kind: 'oauth'; client_id: string } | { kind: 'unreadable' } = { kind: 'none' };
  if (row.credential_encrypted !== null) {
    try {
      const plain = JSON.parse(secrets.decrypt(row.credential_encrypted)) as McpCredential;
      credential = 'headers' in plain ? { kind: 'headers', header_names: Object.keys(plain.headers) } : { kind: 'oauth', client_id: plain.oauth.client_id };
    } catch {
      credential = { kind: 'unreadable' };
    }
  }
  return {
    id: Number(row.id),
    name: row.name,
    url: row.url,
    transport: row.transport,
    groups: row.groups,
    enabled: row.status === 'enabled',
    price_per_call: Number(row.price_per_call_micros) / 1_000_000,
    timeout_ms: settings.timeoutMs ?? null,
    rpm_limit: settings.rpmLimit ?? null,
    log_payloads: settings.logPayloads === true,
    allow_private_network: settings.allowPrivateNetwork === true,
    credential,
    created_at: new Date(Number(row.created_at)).toISOString(),
    updated_at: new Date(Number(row.updated_at)).toISOString(),
  };
}
