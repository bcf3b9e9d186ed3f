// What passes between an upstream MCP server and the client during a call (issue 32), and a server's own
// rate limit. The SDK's Client against the gateway fronting an SDK-built server that talks back:
// - progress: a client that asks for progress (onprogress) gets the upstream's progress notifications,
//   under its own token, on the stream of the call, then the result;
// - server-initiated requests (sampling, elicitation, roots) are refused by the gateway with a clear
//   JSON-RPC error the upstream sees, and the call still answers; the client is never asked;
// - a server's rpm_limit counts every key's calls and refuses the one past it with a 429 as an MCP
//   error (GW_ERR_MCP_SERVER_RATE_LIMITED), without reaching the server, and logs it (its admin API:
//   mcp-admin-api.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startChattyServer, type ChattyMcpServer } from './mcp-chatty-server.ts';

const KEYS = { alice: testKey('mcprelayalice'), bob: testKey('mcprelaybob') };
let chatty: ChattyMcpServer;
let gateway: TestGateway;
const clients: Client[] = [];

async function connect(key: string, capabilities: Record<string, object> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const client = new Client({ name: 'relay-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  chatty = await startChattyServer();
  gateway = await startTestGateway({
    users: [{ name: 'alice', balance: 1 }, { name: 'bob', balance: 1 }],
    keys: [{ name: 'alice-key', key: KEYS.alice, user: 'alice' }, { name: 'bob-key', key: KEYS.bob, user: 'bob' }],
    mcp_servers: [
      { name: 'chatty', url: chatty.url, allow_private_network: true },
      // The same server under another name, limited to three calls a minute over every key.
      { name: 'limited', url: chatty.url, allow_private_network: true, rpm_limit: 3 },
    ],
  });
});
afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await gateway?.dispose();
  await chatty?.close();
});

describe('progress and server-initiated requests', () => {
  it("relays the upstream's progress notifications to the client that asked, under its token, before the result", async () => {
    const client = await connect(KEYS.alice);
    const seen: Progress[] = [];
    const result = await client.callTool({ name: 'chatty__countdown', arguments: {} }, undefined, { onprogress: (progress) => seen.push(progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'lift-off' }]);
    expect(seen).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step} of 3` })));
    // The upstream got a token of the gateway's, not the client's: asking for progress is passed on.
    expect(chatty.progressTokens.at(-1)).not.toBeUndefined();

    // Without onprogress the upstream is not asked for progress and the client gets none.
    const quiet = await client.callTool({ name: 'chatty__countdown', arguments: {} });
    expect(quiet.content).toEqual([{ type: 'text', text: 'lift-off' }]);
    expect(chatty.progressTokens.at(-1)).toBeUndefined();
  });

  it("refuses the upstream's sampling, elicitation and roots requests with a clear error; the client is never asked", async () => {
    let asked = 0;
    const client = await connect(KEYS.alice, { sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked++;
      return { role: 'assistant', content: { type: 'text', text: 'from the client' }, model: 'x' };
    });
    const result = await client.callTool({ name: 'chatty__ask_client', arguments: {} });
    const lines = (result.content as { text: string }[])[0]!.text.split('\n');
    expect(lines).toHaveLength(3);
    for (const [i, method] of ['sampling/createMessage', 'elicitation/create', 'roots/list'].entries()) {
      // Method not found, with the gateway's reason (the SDK puts "MCP error -32601:" before a message on each side).
      expect(lines[i]).toMatch(new RegExp(`^${method}: -32601 (MCP error -32601: )+The model gateway does not relay requests from MCP servers to its clients \\('${method}'\\): sampling, elicitation and roots are not available through it\\.$`));
    }
    expect(asked).toBe(0);
  });
});

describe("a server's rpm_limit", () => {
  it('counts every key and refuses the call past it with 429 as an MCP error, without reaching the server', async () => {
    const alice = await connect(KEYS.alice);
    const bob = await connect(KEYS.bob);
    const calls = chatty.progressTokens.length;
    for (const client of [alice, bob, alice]) expect((await client.callTool({ name: 'limited__countdown', arguments: {} })).content).toEqual([{ type: 'text', text: 'lift-off' }]);
    const refused = await bob.callTool({ name: 'limited__countdown', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toMatch(/^(MCP error -32000: )+The MCP server 'limited' takes at most 3 tool calls a minute through the gateway\. Try again in \d+ s\.$/);
    expect((refused as McpError).data).toMatchObject({ gateway_code: 'GW_ERR_MCP_SERVER_RATE_LIMITED', code: 'mcp_server_rate_limited', status: 429, type: 'rate_limit_error' });
    expect(chatty.progressTokens.length).toBe(calls + 3);
    // Logged as a refused call (its error code, zero cost), without its arguments: limited keeps no payloads.
    await gateway.recorder.flush();
    const rows = await gateway.database.db.selectFrom('usage_logs').selectAll().where('model', '=', 'mcp:limited').orderBy('id').execute();
    expect(rows.map((row) => [row.key_name, row.status, row.error_code, Number(row.cost_micros)])).toEqual([
      ['alice-key', 200, null, 0], ['bob-key', 200, null, 0], ['alice-key', 200, null, 0], ['bob-key', 429, 'GW_ERR_MCP_SERVER_RATE_LIMITED', 0],
    ]);
    expect(rows[3]).toMatchObject({ upstream_model: 'countdown', endpoint: 'mcp/tools/call', requests: 0 });
    expect(rows[3]!.error).toMatch(/^The MCP server 'limited' takes at most 3 tool calls a minute/);
    // Another server is not limited by it.
    expect((await bob.callTool({ name: 'chatty__countdown', arguments: {} })).content).toEqual([{ type: 'text', text: 'lift-off' }]);
  });
});
