// An upstream MCP server as the gateway holds it in memory: built from its row at every reload (the
// credential decrypted once then, never per call), shared by every session that reaches it.
import type { McpServer } from '../db/repositories/mcp-servers.ts';
import type { SecretBox } from '../accounts/secret-box.ts';

export type McpCredential =
  | { headers: Record<string, string> }
  | { oauth: { client_id: string; client_secret: string; scope?: string | undefined; issuer?: string | undefined } };

export type { McpServerSettings } from '../db/json-columns.ts';

export interface McpUpstream {
  id: number;
  name: string;
  url: string;
  transport: 'streamable-http' | 'sse';
  credential: McpCredential | null;
  groups: ReadonlySet<string>;
  enabled: boolean;
  pricePerCallMicros: number;
  timeoutMs: number;
  /** Tool calls per minute to this server over every key (rate-limited like a key's rpm_limit); null: none. */
  rpmLimit: number | null;
  logPayloads: boolean;
  allowPrivateNetwork: boolean;
}

/** A call or a list with no answer after this long fails with a clean MCP error, unless the server sets its own. */
const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** The servers by name; a server whose credential cannot be decrypted is left out, and reported. */
export function buildMcpUpstreams(rows: McpServer[], secrets: SecretBox, unreadable?: (name: string, reason: string) => void): ReadonlyMap<string, McpUpstream> {
  const servers = new Map<string, McpUpstream>();
  for (const row of rows) {
    let credential: McpCredential | null = null;
    if (row.credential_encrypted !== null) {
      try {
        credential = JSON.parse(secrets.decrypt(row.credential_encrypted)) as McpCredential;
      } catch (error) {
        unreadable?.(row.name, (error as Error).message);
        continue;
      }
    }
    const settings = row.settings;
    servers.set(row.name, {
      id: Number(row.id),
      name: row.name,
      url: row.url,
      transport: row.transport,
      credential,
      groups: new Set(row.groups),
      enabled: row.status === 'enabled',
      pricePerCallMicros: Number(row.price_per_call_micros),
      timeoutMs: settings.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS,
      rpmLimit: settings.rpmLimit ?? null,
      logPayloads: settings.logPayloads === true,
      allowPrivateNetwork: settings.allowPrivateNetwork === true,
    });
  }
  return servers;
}
