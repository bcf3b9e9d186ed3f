// The MCP gateway end to end: the SDK's Client against the gateway's /mcp and /mcp/{server}, the gateway
// fronting two SDK-built upstream servers on real ports (one over Streamable HTTP that needs its own
// credential, one over the older SSE transport). What a user sees: the tools of the servers their group
// may use, prefixed; the key's allowlist; calls relayed with the upstream's credential, never the user's
// key; every call in the usage log and charged to the wallet (balance = ledger); a hanging or dying
// upstream giving a clean MCP error within its timeout; sessions bound to their key; private addresses
// refused unless allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, startWeatherSseServer, type UpstreamMcpServer } from './mcp-upstream-servers.ts';

const UPSTREAM_CREDENTIAL = 'files-upstream-credential-0123456789';
const KEYS = {
  alice: testKey('mcpalice'),
  limited: testKey('mcplimited'),
  staff: testKey('mcpstaff'),
  slow: testKey('mcpslowratelimit'),
  poor: testKey('mcppoor'),
  flood: testKey('mcpflood'),
};

let files: UpstreamMcpServer;
let weather: UpstreamMcpServer;
let gateway: TestGateway;
const clients: Client[] = [];

async function connect(key: string, path = '/mcp'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}${path}`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
  const client = new Client({ name: 'mcp-gateway-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function rowsOf(keyName: string) {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', keyName).orderBy('id').execute();
}

/** The payload kept beside a call's row (written behind it), or undefined if none came within `waitMs`. */
async function payloadOf(requestId: string, waitMs = 2000) {
  for (const deadline = Date.now() + waitMs; ;) {
    const payload = await gateway.database.db.selectFrom('mcp_call_payloads').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    if (payload || Date.now() > deadline) return payload;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  files = await startFilesServer(UPSTREAM_CREDENTIAL);
  weather = await startWeatherSseServer();
  gateway = await startTestGateway({
    groups: [{ name: 'default' }, { name: 'staff', ratio: 0.5 }],
    users: [{ name: 'alice', balance: 1 }, { name: 'stan', balance: 1 }, { name: 'pat', balance: 0 }],
    keys: [
      { name: 'alice-all', key: KEYS.alice, user: 'alice' },
      { name: 'alice-limited', key: KEYS.limited, user: 'alice', mcp_tools: ['files__echo'] },
      { name: 'stan-staff', key: KEYS.staff, user: 'stan', group: 'staff' },
      { name: 'alice-slow', key: KEYS.slow, user: 'alice', rpm_limit: 1 },
      { name: 'pat-poor', key: KEYS.poor, user: 'pat' },
      { name: 'alice-flood', key: KEYS.flood, user: 'alice' },
    ],
    mcp_servers: [
      { name: 'files', url: files.url, headers: { Authorization: `Bearer ${UPSTREAM_CREDENTIAL}` }, groups: ['default', 'staff'], price_per_call: 0.002, timeout_ms: 1500, log_payloads: true, allow_private_network: true },
      { name: 'weather', url: weather.url, transport: 'sse', groups: ['staff'], allow_private_network: true },
      // The same server without the explicit allow: its loopback address is refused.
      { name: 'private', url: files.url, headers: { Authorization: `Bearer ${UPSTREAM_CREDENTIAL}` }, groups: ['default'] },
    ],
  });
});

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await gateway?.dispose();
  await files?.close();
  await weather?.close();
});

describe('the MCP gateway', () => {
  it('lists the tools of the servers the key\'s group may use, prefixed with the server name', async () => {
    const { client } = await connect(KEYS.alice);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    // weather is the staff group's; private is on a loopback address without allow_private_network.
    expect(names).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note']);
    const staff = (await connect(KEYS.staff)).client;
    expect((await staff.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note', 'weather__forecast']);
  });

  it('relays a call with the upstream\'s own credential, never the user\'s key; logs it and charges the wallet (balance = ledger)', async () => {
    const { client } = await connect(KEYS.alice);
    const seen = files.headers.length;
    const result = await client.callTool({ name: 'files__echo', arguments: { text: 'hello', api_key: 'sk-user-secret-value-123456' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hello' }]);
    const upstreamHeaders = files.headers.slice(seen);
    expect(upstreamHeaders.length).toBeGreaterThan(0);
    for (const headers of upstreamHeaders) {
      expect(headers.authorization).toBe(`Bearer ${UPSTREAM_CREDENTIAL}`);
      expect(JSON.stringify(headers)).not.toContain(KEYS.alice);
    }
    const rows = (await rowsOf('alice-all')).filter((row) => row.upstream_model === 'echo');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'mcp:files', endpoint: 'mcp/tools/call', inbound_format: 'mcp', status: 200, error: null });
    expect(Number(rows[0]!.cost_micros)).toBe(2000);
    const user = await gateway.database.db.selectFrom('users').select(['id', 'balance_micros']).where('name', '=', 'alice').executeTakeFirstOrThrow();
    const ledger = await gateway.database.db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).execute();
    expect(Number(user.balance_micros)).toBe(ledger.reduce((sum, entry) => sum + Number(entry.amount_micros), 0));
    expect(ledger.some((entry) => entry.kind === 'charge')).toBe(true);
    // The server keeps payloads: the arguments and result are stored, the secret-looking field redacted.
    let payload;
    for (let i = 0; i < 40 && !payload; i++) {
      payload = await gateway.database.db.selectFrom('mcp_call_payloads').selectAll().where('request_id', '=', rows[0]!.request_id).executeTakeFirst();
      if (!payload) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(JSON.parse(payload!.arguments_json!)).toEqual({ text: 'hello', api_key: '[redacted]' });
    expect(payload!.result_json).toContain('echo: hello');
  });

  it('charges at the group\'s ratio, and refuses a call the wallet cannot pay for', async () => {
    const staff = (await connect(KEYS.staff)).client;
    await staff.callTool({ name: 'files__read_note', arguments: {} });
    expect(Number((await rowsOf('stan-staff')).at(-1)!.cost_micros)).toBe(1000);
    const poor = (await connect(KEYS.poor)).client;
    const refused = await poor.callTool({ name: 'files__echo', arguments: { text: 'x' } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toMatch(/balance is too low/);
    expect((refused as McpError).data).toMatchObject({ gateway_code: 'GW_ERR_INSUFFICIENT_QUOTA' });
    // Logged like a refused model call: its error code, nothing charged, no request counted.
    const rows = await rowsOf('pat-poor');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'mcp:files', upstream_model: 'echo', endpoint: 'mcp/tools/call', status: 429, error_code: 'GW_ERR_INSUFFICIENT_QUOTA', cost_micros: 0, requests: 0 });
    expect(rows[0]!.error).toMatch(/balance is too low/);
    // files keeps payloads: the refused call's arguments are kept beside its row, with no result.
    expect(await payloadOf(rows[0]!.request_id)).toMatchObject({ arguments_json: JSON.stringify({ text: 'x' }), result_json: null });
  });

  it('relays to a server over the older SSE transport', async () => {
    const staff = (await connect(KEYS.staff)).client;
    const result = await staff.callTool({ name: 'weather__forecast', arguments: { city: 'Lyon' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Lyon' }]);
    expect(weather.calls).toContainEqual({ name: 'forecast', arguments: { city: 'Lyon' } });
    expect((await rowsOf('stan-staff')).some((row) => row.model === 'mcp:weather' && row.upstream_model === 'forecast' && row.status === 200)).toBe(true);
  });

  it('keeps to the key\'s tool allowlist: other tools are neither listed nor callable', async () => {
    const { client } = await connect(KEYS.limited);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['files__echo']);
    const before = files.calls.length;
    const refused = await client.callTool({ name: 'files__read_note', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).message).toContain("Unknown tool: 'files__read_note'");
    const unknown = await client.callTool({ name: 'files__no_such_tool', arguments: { text: 'secret-argument' } }).catch((error: unknown) => error);
    expect((unknown as McpError).message).toContain("Unknown tool: 'files__no_such_tool'");
    expect(files.calls.length).toBe(before);
    // Both logged alike (what the client named, the same error code), with no payload even though files keeps them.
    const rows = (await rowsOf('alice-limited')).filter((row) => row.status !== 200);
    expect(rows.map((row) => [row.model, row.upstream_model, row.status, row.error_code, Number(row.cost_micros)])).toEqual([
      ['mcp:files', 'read_note', 404, 'GW_ERR_MCP_TOOL_NOT_FOUND', 0],
      ['mcp:files', 'no_such_tool', 404, 'GW_ERR_MCP_TOOL_NOT_FOUND', 0],
    ]);
    for (const row of rows) expect(await payloadOf(row.request_id, 600)).toBeUndefined();
  });

  it('answers a server the group may not use like an unknown one (404), on /mcp/{server} and in a call', async () => {
    const refused = await connect(KEYS.alice, '/mcp/weather').catch((error: unknown) => error);
    const unknown = await connect(KEYS.alice, '/mcp/nonexistent').catch((error: unknown) => error);
    expect(String(refused)).toContain('404');
    expect(String(unknown)).toContain('404');
    expect(String(refused).replace('weather', 'X')).toBe(String(unknown).replace('nonexistent', 'X'));
    const { client } = await connect(KEYS.alice);
    const call = await client.callTool({ name: 'weather__forecast', arguments: { city: 'Paris' } }).catch((error: unknown) => error);
    expect((call as McpError).message).toContain("Unknown tool: 'weather__forecast'");
    expect((await rowsOf('alice-all')).filter((row) => row.model === 'mcp:weather')).toMatchObject([{ upstream_model: 'forecast', status: 404, error_code: 'GW_ERR_MCP_TOOL_NOT_FOUND', cost_micros: 0 }]);
  });

  it('serves one server alone on /mcp/{server}, with its own tool names', async () => {
    const { client } = await connect(KEYS.staff, '/mcp/weather');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['forecast']);
    expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
  });

  it('passes resources and prompts through', async () => {
    const { client } = await connect(KEYS.alice);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['note://hello']);
    expect((await client.readResource({ uri: 'note://hello' })).contents).toEqual([{ uri: 'note://hello', text: 'hello from files' }]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['files__greet']);
    const prompt = await client.getPrompt({ name: 'files__greet', arguments: { who: 'Ada' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Say hello to Ada' });
  });

  it('gives a clean MCP error within the timeout when the upstream hangs, logged and not charged', async () => {
    const { client } = await connect(KEYS.alice);
    const started = Date.now();
    const error = await client.callTool({ name: 'files__hang', arguments: {} }, undefined, { timeout: 20_000 }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain("The MCP server 'files' did not answer within 1500 ms");
    const row = (await rowsOf('alice-all')).find((entry) => entry.upstream_model === 'hang')!;
    expect(row).toMatchObject({ status: 504, error_code: 'GW_ERR_MCP_UPSTREAM_TIMEOUT' });
    expect(Number(row.cost_micros)).toBe(0);
  });

  it('gives a clean MCP error when the upstream dies mid-call, and reaches it again afterwards', async () => {
    const { client } = await connect(KEYS.alice);
    const error = await client.callTool({ name: 'files__crash', arguments: {} }, undefined, { timeout: 20_000 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toMatch(/The MCP server 'files' (did not answer within 1500 ms|closed the connection|could not be reached)/);
    const row = (await rowsOf('alice-all')).find((entry) => entry.upstream_model === 'crash')!;
    expect([502, 504]).toContain(row.status);
    expect(Number(row.cost_micros)).toBe(0);
    expect((await client.callTool({ name: 'files__echo', arguments: { text: 'again' } })).content).toEqual([{ type: 'text', text: 'echo: again' }]);
  });

  it('refuses an upstream on a private network unless allowed', async () => {
    const { client } = await connect(KEYS.alice, '/mcp/private');
    const error = await client.listTools().catch((caught: unknown) => caught);
    expect((error as McpError).message).toContain("The MCP server 'private' is on a private network");
  });

  it('binds a session to the key that opened it: another key, or none, cannot use it', async () => {
    const { transport } = await connect(KEYS.alice);
    const sessionId = transport.sessionId!;
    expect(sessionId.length).toBeGreaterThanOrEqual(40);
    const request = (key: string | null) => fetch(`${gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const other = await request(KEYS.staff);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { gateway_code: 'GW_ERR_MCP_SESSION_NOT_FOUND' } } });
    const none = await request(null);
    expect(none.status).toBe(401);
    expect((await request(KEYS.alice)).status).toBe(200);
    const noSession = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.alice}`, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    const badJson = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.alice}`, 'content-type': 'application/json' }, body: '{not json' });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ jsonrpc: '2.0', error: { data: { gateway_code: 'GW_ERR_INVALID_JSON' } } });
  });

  it('limits tool calls per key with its requests-per-minute limit', async () => {
    const { client } = await connect(KEYS.slow);
    await client.callTool({ name: 'files__echo', arguments: { text: 'one' } });
    const error = await client.callTool({ name: 'files__echo', arguments: { text: 'two' } }).catch((caught: unknown) => caught);
    expect((error as McpError).message).toContain('Rate limit reached');
    expect((error as McpError).data).toMatchObject({ gateway_code: 'GW_ERR_RATE_LIMITED' });
    const rows = await rowsOf('alice-slow');
    expect(rows.map((row) => [row.model, row.upstream_model, row.status, row.error_code])).toEqual([
      ['mcp:files', 'echo', 200, null],
      ['mcp:files', 'echo', 429, 'GW_ERR_RATE_LIMITED'],
    ]);
    expect(Number(rows[1]!.cost_micros)).toBe(0);
  });

  it('logs one refused call per HTTP request: a JSON-RPC batch of refusals is one row, as a refused model call is', async () => {
    const { transport } = await connect(KEYS.flood);
    const post = async (ids: number[]) => {
      const answer = await fetch(`${gateway.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.flood}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify(ids.map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `nothing__tool_${id}`, arguments: {} } }))),
      });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      // Every call of the batch is refused all the same.
      for (const id of ids) expect(text).toContain(`"id":${id}`);
      expect(text.match(/GW_ERR_MCP_TOOL_NOT_FOUND/g)).toHaveLength(ids.length);
    };
    await post([1, 2, 3, 4, 5, 6, 7, 8]);
    await post([9, 10]);
    const rows = await rowsOf('alice-flood');
    expect(rows.map((row) => [row.model, row.upstream_model, row.status, row.error_code])).toEqual([
      ['mcp:nothing', 'tool_1', 404, 'GW_ERR_MCP_TOOL_NOT_FOUND'],
      ['mcp:nothing', 'tool_9', 404, 'GW_ERR_MCP_TOOL_NOT_FOUND'],
    ]);
  });
});
