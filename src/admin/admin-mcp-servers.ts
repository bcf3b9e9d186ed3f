// Administering upstream MCP servers: create, edit (the credential is write-only: replaced when given,
// never shown), delete, and test (connect with the server's credential and list its tools). Every change
// reloads every instance's snapshot through the caller's announce.
import type { z } from 'zod';
import type { SecretBox } from '../accounts/secret-box.ts';
import type { McpServerConfig, mcpServerPatchSchema } from '../config/mcp-server-schema.ts';
import { deleteMcpServer, findMcpServerById, findMcpServerByName, insertMcpServer, updateMcpServer, type McpServer } from '../db/repositories/mcp-servers.ts';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { apiNotFound, conflict } from '../gateway-errors.ts';
import { mcpCredentialOfConfig, mcpServerColumnsOfConfig, mcpSettingsOfConfig, sealMcpCredential } from '../mcp/mcp-server-rows.ts';
import { buildMcpUpstreams } from '../mcp/mcp-upstream.ts';
import { usdToMicros } from '../metering/pricing.ts';

type McpServerPatch = z.infer<typeof mcpServerPatchSchema>;

export async function createMcpServer(db: Db, secrets: SecretBox, server: McpServerConfig): Promise<McpServer> {
  if (await findMcpServerByName(db, server.name)) throw conflict(`An MCP server named '${server.name}' exists already.`, 'name', 'name_taken');
  return insertMcpServer(db, server.name, {
    ...mcpServerColumnsOfConfig(server),
    credential_encrypted: sealMcpCredential(secrets, mcpCredentialOfConfig(server)),
  });
}

export async function findMcpServerOr404(db: Db, id: number): Promise<McpServer> {
  const row = await findMcpServerById(db, id);
  if (!row) throw apiNotFound('MCP server');
  return row;
}

export async function editMcpServer(db: Db, secrets: SecretBox, id: number, patch: McpServerPatch): Promise<{ before: McpServer; after: McpServer }> {
  const before = await findMcpServerOr404(db, id);
  const settings = before.settings;
  const current = mcpSettingsOfConfig({ timeout_ms: settings.timeoutMs, rpm_limit: settings.rpmLimit, log_payloads: settings.logPayloads, allow_private_network: settings.allowPrivateNetwork });
  const merged = mcpSettingsOfConfig({
    timeout_ms: patch.timeout_ms === undefined ? current.timeoutMs : patch.timeout_ms ?? undefined,
    rpm_limit: patch.rpm_limit === undefined ? current.rpmLimit : patch.rpm_limit ?? undefined,
    log_payloads: patch.log_payloads ?? current.logPayloads,
    allow_private_network: patch.allow_private_network ?? current.allowPrivateNetwork,
  });
  // headers or oauth replace the credential; null for both clears it; neither keeps it.
  let credential: { credential_encrypted: string | null } | Record<string, never> = {};
  if (patch.headers || patch.oauth) credential = { credential_encrypted: sealMcpCredential(secrets, mcpCredentialOfConfig({ headers: patch.headers ?? undefined, oauth: patch.oauth ?? undefined })) };
  else if (patch.headers === null || patch.oauth === null) credential = { credential_encrypted: null };
  const after = await updateMcpServer(db, id, {
    ...(patch.url !== undefined ? { url: patch.url } : {}),
    ...(patch.transport !== undefined ? { transport: patch.transport } : {}),
    ...(patch.groups !== undefined ? { groups_json: JSON.stringify([...new Set(patch.groups)]) } : {}),
    ...(patch.enabled !== undefined ? { status: patch.enabled ? 'enabled' as const : 'disabled' as const } : {}),
    ...(patch.price_per_call !== undefined ? { price_per_call_micros: usdToMicros(patch.price_per_call) } : {}),
    settings_json: JSON.stringify(merged),
    ...credential,
  });
  if (!after) throw apiNotFound('MCP server');
  return { before, after };
}

export async function removeMcpServer(db: Db, id: number): Promise<McpServer> {
  const row = await deleteMcpServer(db, id);
  if (!row) throw apiNotFound('MCP server');
  return row;
}

/** Connects to the server as a session would (its credential, its timeout, the private-network rule) and lists its tools. */
export async function testMcpServer(row: McpServer, secrets: SecretBox): Promise<{ ok: boolean; latency_ms: number; tools: { name: string; description: string | null }[]; error: string | null }> {
  const started = performance.now();
  const upstream = buildMcpUpstreams([row], secrets).get(row.name);
  if (!upstream) return { ok: false, latency_ms: 0, tools: [], error: 'Its credential cannot be decrypted with this GATEWAY_SECRET; enter it again.' };
  const { connectUpstream, upstreamError } = await import('../mcp/mcp-upstream-client.ts');
  let client;
  try {
    client = await connectUpstream(upstream);
    const answer = client.getServerCapabilities()?.tools ? await client.listTools(undefined, { timeout: upstream.timeoutMs }) : { tools: [] };
    return { ok: true, latency_ms: Math.round(performance.now() - started), tools: answer.tools.slice(0, 500).map((tool) => ({ name: tool.name, description: tool.description ?? null })), error: null };
  } catch (error) {
    return { ok: false, latency_ms: Math.round(performance.now() - started), tools: [], error: upstreamError(upstream, error).message.slice(0, 500) };
  } finally {
    await client?.close().catch(() => {});
  }
}


