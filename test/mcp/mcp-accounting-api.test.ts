// What the dashboard's API shows of MCP tool calls (issue 32): a server without log_payloads keeps neither
// the arguments nor the result of a call (its rows, read through /api/logs and /api/logs/{id}, and the
// payload table hold neither, while a server with log_payloads beside it does keep them), and tool calls
// are counted in the statistics (/api/stats: requests, errors and cost, by the model `mcp:{server}`), for
// the key, its user and the platform. The SDK's Client against the gateway fronting an SDK-built server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, type UpstreamMcpServer } from './mcp-upstream-servers.ts';

const UPSTREAM_CREDENTIAL = 'files-upstream-credential-accounting';
const KEYS = { alice: testKey('mcpaccountsalice'), admin: testKey('mcpaccountsadmin') };
/** Sent as a tool's argument; the echo tool's result repeats it. */
const PLAIN_MARKER = 'plain-argument-7f3a9c';
const KEPT_MARKER = 'kept-argument-51be02';

let files: UpstreamMcpServer;
let gateway: TestGateway;
let client: Client;

async function api(path: string, key: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: answer.status, text: await answer.text() };
}

beforeAll(async () => {
  files = await startFilesServer(UPSTREAM_CREDENTIAL);
  const server = { url: files.url, headers: { Authorization: `Bearer ${UPSTREAM_CREDENTIAL}` }, allow_private_network: true };
  gateway = await startTestGateway({
    users: [{ name: 'alice', balance: 1 }, { name: 'root', role: 'admin' }],
    keys: [{ name: 'alice-key', key: KEYS.alice, user: 'alice', mcp_tools: ['plain__echo', 'kept__echo'] }, { name: 'root-key', key: KEYS.admin, user: 'root' }],
    mcp_servers: [
      // The same upstream twice: without payloads (the default), and with them.
      { name: 'plain', ...server, price_per_call: 0.003 },
      { name: 'kept', ...server, log_payloads: true },
    ],
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEYS.alice}` } } });
  client = new Client({ name: 'mcp-accounting-test', version: '1.0.0' });
  await client.connect(transport);
  for (let i = 0; i < 2; i++) {
    expect((await client.callTool({ name: 'plain__echo', arguments: { text: PLAIN_MARKER } })).content).toEqual([{ type: 'text', text: `echo: ${PLAIN_MARKER}` }]);
  }
  // Outside the key's allowlist: refused by the gateway, logged with its error.
  await expect(client.callTool({ name: 'plain__read_note', arguments: { text: PLAIN_MARKER } })).rejects.toThrow(/Unknown tool/);
  // Last: once its payload is written, the plain server's would have been too.
  expect((await client.callTool({ name: 'kept__echo', arguments: { text: KEPT_MARKER } })).content).toEqual([{ type: 'text', text: `echo: ${KEPT_MARKER}` }]);
  await gateway.recorder.flush();
});

afterAll(async () => {
  await client?.close();
  await gateway?.dispose();
  await files?.close();
});

describe('MCP tool calls in the API', () => {
  it('keeps neither the arguments nor the result of a call to a server without log_payloads', async () => {
    const db = gateway.database.db;
    const kept = await db.selectFrom('usage_logs').select('request_id').where('model', '=', 'mcp:kept').executeTakeFirstOrThrow();
    let keptPayload;
    for (let i = 0; i < 60 && !keptPayload; i++) {
      keptPayload = await db.selectFrom('mcp_call_payloads').selectAll().where('request_id', '=', kept.request_id).executeTakeFirst();
      if (!keptPayload) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The server beside it, with log_payloads, keeps both: the payload writer has run.
    expect(keptPayload?.arguments_json).toContain(KEPT_MARKER);
    expect(keptPayload?.result_json).toContain(`echo: ${KEPT_MARKER}`);

    const plainIds = (await db.selectFrom('usage_logs').select('request_id').where('model', '=', 'mcp:plain').execute()).map((row) => row.request_id);
    expect(plainIds).toHaveLength(3);
    expect(await db.selectFrom('mcp_call_payloads').selectAll().where('request_id', 'in', plainIds).execute()).toEqual([]);

    // What the user and an administrator read of those calls: the rows, with no trace of the argument or result.
    const page = await api(`/api/logs?model=${encodeURIComponent('mcp:plain')}`, KEYS.alice);
    expect(page.status).toBe(200);
    const rows = (JSON.parse(page.text) as { data: { id: number; status: number; endpoint: string }[] }).data;
    expect(rows.map((row) => [row.endpoint, row.status]).sort()).toEqual([['mcp/tools/call', 200], ['mcp/tools/call', 200], ['mcp/tools/call', 404]]);
    expect(page.text).not.toContain(PLAIN_MARKER);
    for (const row of rows) {
      for (const [path, key] of [[`/api/logs/${row.id}`, KEYS.alice], [`/api/admin/logs/${row.id}`, KEYS.admin]] as const) {
        const detail = await api(path, key);
        expect(detail.status).toBe(200);
        expect(JSON.parse(detail.text)).toMatchObject({ id: row.id, model: 'mcp:plain' });
        expect(detail.text).not.toContain(PLAIN_MARKER);
      }
    }
  });

  it('counts tool calls in the statistics: requests, errors and cost, by the model mcp:{server}', async () => {
    type Sums = { requests: number; errors: number; costMicros: number };
    type Stats = { totals: Sums; by_model: (Sums & { model: string })[] };
    const keyStats = JSON.parse((await api('/api/stats?bucket=minute', KEYS.alice)).text) as Stats;
    const userStats = JSON.parse((await api('/api/stats?bucket=minute&scope=user', KEYS.alice)).text) as Stats;
    const platform = JSON.parse((await api('/api/stats?bucket=minute&scope=platform', KEYS.admin)).text) as Stats;
    for (const stats of [keyStats, userStats, platform]) {
      // Two paid calls at 0.003 USD, a refused one (an error, free), one free call on the other server.
      expect(stats.totals).toMatchObject({ requests: 4, errors: 1, costMicros: 6000 });
      const byModel = Object.fromEntries(stats.by_model.map((row) => [row.model, { requests: row.requests, errors: row.errors, costMicros: row.costMicros }]));
      expect(byModel).toEqual({ 'mcp:plain': { requests: 3, errors: 1, costMicros: 6000 }, 'mcp:kept': { requests: 1, errors: 0, costMicros: 0 } });
    }
  });
});
