// An MCP server that echoes the credential it refused (a 401 body "invalid token …") must not hand the
// gateway's credential for it to the key holders of the group: not in the MCP error of tools/list or
// tools/call, not in the user's own usage log, not in the administrator's server test.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { ApiClient } from '../helpers/api-client.ts';

const TOKEN = 'mcp-secret-credential-42-abcdef';
const API_KEY = 'mcp-header-credential-99-uvwxyz';
const USER = { email: 'echo-user@example.com', password: 'echo user password 1' };
const ADMIN = { email: 'echo-admin@example.com', password: 'echo admin password 1' };
const KEY = testKey('mcpechouser');
let echo: Server;
let echoUrl = '';
let gateway: TestGateway;

beforeAll(async () => {
  // Answers every request 401, echoing whatever credential it was sent.
  echo = createServer((request, response) => {
    const bearer = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    response.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid token ${bearer} ${request.headers['x-api-key'] ?? ''}`);
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as { port: number }).port}/mcp`;
  gateway = await startTestGateway({
    users: [{ name: 'echo-user', email: USER.email, password: USER.password, balance: 1 }, { name: 'root', email: ADMIN.email, password: ADMIN.password, role: 'admin' }],
    keys: [{ name: 'echo-key', key: KEY, user: 'echo-user' }],
    mcp_servers: [{ name: 'echo', url: echoUrl, headers: { Authorization: `Bearer ${TOKEN}`, 'X-Api-Key': API_KEY }, groups: ['default'], allow_private_network: true }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await new Promise((resolve) => echo?.close(resolve));
});

async function failureOf(run: (client: Client) => Promise<unknown>): Promise<string> {
  const client = new Client({ name: 'echo-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp/echo`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
  try {
    await run(client);
    return 'no error';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.close();
  }
}

describe('an MCP server echoing its credential', () => {
  it('never shows it to the key holder, in their log or in the admin test', async () => {
    const listed = await failureOf((client) => client.listTools());
    const called = await failureOf((client) => client.callTool({ name: 'echo__anything', arguments: {} }));
    for (const message of [listed, called]) {
      // The failure is still explained: the server's name and its HTTP status.
      expect(message).toMatch(/echo/);
      expect(message).toMatch(/401/);
      expect(message).not.toContain(TOKEN);
      expect(message).not.toContain(API_KEY);
    }
    const user = new ApiClient(gateway.url);
    expect((await user.post('/api/auth/login', USER)).status).toBe(200);
    await gateway.recorder.flush();
    const logs = JSON.stringify((await user.get('/api/logs')).body);
    expect(logs).toMatch(/401/);
    expect(logs).not.toContain(TOKEN);
    expect(logs).not.toContain(API_KEY);
    const admin = new ApiClient(gateway.url);
    expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
    const servers = (await admin.get<{ data: { id: number; name: string }[] }>('/api/admin/mcp-servers')).body.data;
    const tested = JSON.stringify((await admin.post(`/api/admin/mcp-servers/${servers.find((server) => server.name === 'echo')!.id}/test`)).body);
    expect(tested).toMatch(/401/);
    expect(tested).not.toContain(TOKEN);
    expect(tested).not.toContain(API_KEY);
  });
});
