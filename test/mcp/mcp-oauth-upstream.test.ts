// An upstream MCP server that takes OAuth client credentials instead of a static header (issue 32): the
// gateway's SDK client discovers the token endpoint from the server's protected-resource metadata, gets a
// token with the client id and secret the administrator declared, and the user's calls go through with it.
// A wrong secret gives the user a clean MCP error, and the secret is in no answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer } from './mcp-upstream-servers.ts';

const KEY = testKey('mcpoauthuser');
const OAUTH = { clientId: 'gateway-client', clientSecret: 'oauth-client-secret-value-987' };
let files: Awaited<ReturnType<typeof startFilesServer>>;
let gateway: TestGateway;

async function connect(path: string): Promise<Client> {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${KEY}` } } }));
  return client;
}

beforeAll(async () => {
  files = await startFilesServer('issued-access-token-123', OAUTH);
  gateway = await startTestGateway({
    users: [{ name: 'olga', balance: 1 }],
    keys: [{ name: 'olga-key', key: KEY, user: 'olga' }],
    mcp_servers: [
      { name: 'secured', url: files.url, oauth: { client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret, issuer: new URL(files.url).origin }, allow_private_network: true },
      // An issuer other than the one the server names: the secret is never sent to the server's choice.
      { name: 'other-issuer', url: files.url, oauth: { client_id: OAUTH.clientId, client_secret: OAUTH.clientSecret, issuer: 'https://login.example.com' }, allow_private_network: true },
      { name: 'wrong-secret', url: files.url, oauth: { client_id: OAUTH.clientId, client_secret: 'not-the-secret' }, allow_private_network: true },
    ],
  });
});
afterAll(async () => {
  await gateway?.dispose();
  await files?.close();
});

describe('an upstream MCP server behind OAuth client credentials', () => {
  it('gets a token with the declared client credentials and relays the calls with it', async () => {
    const client = await connect('/mcp/secured');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect((await client.callTool({ name: 'echo', arguments: { text: 'via oauth' } })).content).toEqual([{ type: 'text', text: 'echo: via oauth' }]);
    expect(files.tokenRequests).toBeGreaterThanOrEqual(1);
    expect(files.headers.some((headers) => headers.authorization === 'Bearer issued-access-token-123')).toBe(true);
    expect(files.headers.every((headers) => !JSON.stringify(headers).includes(KEY))).toBe(true);
    await client.close();
  });

  it('refuses to send the secret to an authorization server other than the declared issuer', async () => {
    const before = files.tokenRequests;
    const client = await connect('/mcp/other-issuer');
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect((error as McpError).message).toContain("The MCP server 'other-issuer'");
    expect(files.tokenRequests).toBe(before);
    await client.close();
  });

  it('a refused client secret gives the user a clean MCP error naming the server, not the secret', async () => {
    const client = await connect('/mcp/wrong-secret');
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("The MCP server 'wrong-secret'");
    expect((error as McpError).message).not.toContain('not-the-secret');
    await client.close();
  });
});
