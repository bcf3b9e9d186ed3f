// The admin API for MCP servers (issue 32): add one, test it (its tools listed through its own credential),
// the credential never shown back, disable it and change its groups (the user's /mcp follows at once),
// delete it; the key's tool allowlist set through the key APIs; the OpenAPI document covers the routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, type UpstreamMcpServer } from './mcp-upstream-servers.ts';

const CREDENTIAL = 'admin-api-upstream-credential-42';
const ADMIN = testKey('mcpadminapi');
const USER = testKey('mcpadminuser');
let files: UpstreamMcpServer;
let gateway: TestGateway;

const api = async (method: string, path: string, body?: unknown, key = ADMIN) => {
  const answer = await fetch(`${gateway.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: answer.status, body: await answer.json() as any };
};

async function toolNames(key = USER): Promise<string[]> {
  const client = new Client({ name: 'admin-api-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  files = await startFilesServer(CREDENTIAL);
  gateway = await startTestGateway({
    groups: [{ name: 'default' }, { name: 'staff' }],
    users: [{ name: 'root', role: 'admin' }, { name: 'ursula' }],
    keys: [{ name: 'root-key', key: ADMIN, user: 'root' }, { name: 'ursula-key', key: USER, user: 'ursula' }],
  });
});
afterAll(async () => {
  await gateway?.dispose();
  await files?.close();
});

describe('the MCP servers admin API', () => {
  let id: number;

  it('adds a server, never showing its credential back, and tests it by listing its tools', async () => {
    const created = await api('POST', '/api/admin/mcp-servers', { name: 'files', url: files.url, headers: { Authorization: `Bearer ${CREDENTIAL}` }, allow_private_network: true, price_per_call: 0.01 });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toContain(CREDENTIAL);
    expect(created.body).toMatchObject({ name: 'files', transport: 'streamable-http', groups: ['default'], enabled: true, price_per_call: 0.01, credential: { kind: 'headers', header_names: ['Authorization'] } });
    id = created.body.id;
    const tested = await api('POST', `/api/admin/mcp-servers/${id}/test`);
    expect(tested.body).toMatchObject({ name: 'files', ok: true, error: null });
    expect(tested.body.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(['crash', 'echo', 'hang', 'read_note']);
    expect((await api('GET', '/api/admin/mcp-servers')).body.data.map((server: { name: string }) => server.name)).toEqual(['files']);
    expect(await toolNames()).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note']);
  });

  it('refuses bad input with a 400 naming the field, a taken name with 409, and non-admins with 403', async () => {
    const badName = await api('POST', '/api/admin/mcp-servers', { name: 'Has__Underscores', url: files.url });
    expect(badName.status).toBe(400);
    expect(badName.body.error.param).toBe('name');
    expect((await api('POST', '/api/admin/mcp-servers', { name: 'files', url: files.url })).status).toBe(409);
    expect((await api('POST', '/api/admin/mcp-servers', { name: 'x', url: files.url, groups: ['nobody'] })).status).toBe(400);
    expect((await api('GET', '/api/admin/mcp-servers', undefined, USER)).status).toBe(403);
    expect((await api('PATCH', '/api/admin/mcp-servers/99999', { enabled: false })).status).toBe(404);
    // A price finer than a micro-dollar would be rounded when charged: refused, and nothing changed.
    const { id, price_per_call: before } = (await api('GET', '/api/admin/mcp-servers')).body.data.find((server: { name: string }) => server.name === 'files');
    const finer = await api('PATCH', `/api/admin/mcp-servers/${id}`, { price_per_call: 0.0000015 });
    expect(finer.status).toBe(400);
    expect(finer.body.error.param).toBe('price_per_call');
    expect((await api('GET', '/api/admin/mcp-servers')).body.data.find((server: { name: string }) => server.name === 'files').price_per_call).toBe(before);
  });

  it('a wrong credential fails the test with the upstream\'s refusal, and the right one replaces it', async () => {
    await api('PATCH', `/api/admin/mcp-servers/${id}`, { headers: { Authorization: 'Bearer wrong' } });
    const failed = await api('POST', `/api/admin/mcp-servers/${id}/test`);
    expect(failed.body.ok).toBe(false);
    expect(failed.body.error).toContain("The MCP server 'files'");
    await api('PATCH', `/api/admin/mcp-servers/${id}`, { headers: { Authorization: `Bearer ${CREDENTIAL}` } });
    expect((await api('POST', `/api/admin/mcp-servers/${id}/test`)).body.ok).toBe(true);
  });

  it('disabling a server or moving it to another group takes it from the user at once; an edit keeps what it does not name', async () => {
    const disabled = await api('PATCH', `/api/admin/mcp-servers/${id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, groups: ['default'], price_per_call: 0.01, allow_private_network: true });
    expect(await toolNames()).toEqual([]);
    await api('PATCH', `/api/admin/mcp-servers/${id}`, { enabled: true, groups: ['staff'] });
    expect(await toolNames()).toEqual([]);
    await api('PATCH', `/api/admin/mcp-servers/${id}`, { groups: ['default', 'staff'] });
    expect(await toolNames()).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note']);

    // The server's own rate limit (enforced in mcp-relay-limits.test.ts): set, shown, kept by other edits, cleared.
    expect(disabled.body.rpm_limit).toBeNull();
    expect((await api('PATCH', `/api/admin/mcp-servers/${id}`, { rpm_limit: 120 })).body).toMatchObject({ rpm_limit: 120 });
    expect((await api('PATCH', `/api/admin/mcp-servers/${id}`, { price_per_call: 0.01 })).body).toMatchObject({ rpm_limit: 120 });
    expect((await api('PATCH', `/api/admin/mcp-servers/${id}`, { rpm_limit: 0 })).status).toBe(400);
    expect((await api('PATCH', `/api/admin/mcp-servers/${id}`, { rpm_limit: null })).body).toMatchObject({ rpm_limit: null });
  });

  it('sets a key\'s tool allowlist through the admin key API; the user\'s key list shows it', async () => {
    const keys = (await api('GET', '/api/keys', undefined, USER)).body.data as { id: number; name: string; mcp_tools: string[] | null }[];
    const own = keys.find((key) => key.name === 'ursula-key')!;
    expect(own.mcp_tools).toBeNull();
    expect((await api('PATCH', `/api/admin/keys/${own.id}`, { mcp_tools: ['files__echo', 'files__read_note'] })).status).toBe(200);
    expect(await toolNames()).toEqual(['files__echo', 'files__read_note']);
    expect((await api('PATCH', `/api/admin/keys/${own.id}`, { mcp_tools: ['not a tool'] })).status).toBe(400);
    expect((await api('PATCH', `/api/admin/keys/${own.id}`, { mcp_tools: null })).status).toBe(200);
    expect(await toolNames()).toHaveLength(4);
  });

  it('describes the routes in the OpenAPI document, and deletes a server', async () => {
    const document = await (await fetch(`${gateway.url}/api/openapi.json`)).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/admin/mcp-servers', '/api/admin/mcp-servers/{id}', '/api/admin/mcp-servers/{id}/test']));
    expect((await api('DELETE', `/api/admin/mcp-servers/${id}`)).body).toEqual({ id, deleted: true });
    expect(await toolNames()).toEqual([]);
    const audit = (await api('GET', '/api/admin/audit')).body;
    expect(JSON.stringify(audit)).toContain('mcp_server.delete');
    expect(JSON.stringify(audit)).not.toContain(CREDENTIAL);
  });
});
