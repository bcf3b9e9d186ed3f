// MCP sessions across instances (issue 32): two gateways on one PostgreSQL and one Redis, and a load
// balancer in front of them that is not sticky (round robin, every request to the other instance). The
// SDK's Client opens a session on one instance and uses it on both: listing and calling tools, each call
// logged and charged once. A session is still bound to its key and path on the other instance (404 like an
// unknown id), and a DELETE on one instance ends it on both. A server's rpm_limit counts calls on both.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { createTestPostgres, testRedisPrefix, type TestPostgres } from '../helpers/test-postgres.ts';
import { startFilesServer, type UpstreamMcpServer } from './mcp-upstream-servers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CREDENTIAL = 'scale-out-files-credential';
const KEYS = { alice: testKey('mcpscalealice'), bob: testKey('mcpscalebob') };

let postgres: TestPostgres;
let files: UpstreamMcpServer;
let a: TestGateway;
let b: TestGateway;
let balancer: { url: string; instances: string[]; close(): Promise<void> };

/** A round-robin reverse proxy: request n goes to instance n mod 2, whatever its Mcp-Session-Id. */
async function startRoundRobin(targets: string[]) {
  const instances: string[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const target = new URL(targets[next++ % targets.length]!);
    instances.push(target.origin);
    const forwarded = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    instances,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

const config = () => ({
  users: [{ name: 'alice', balance: 1 }, { name: 'bob', balance: 1 }],
  keys: [{ name: 'alice-key', key: KEYS.alice, user: 'alice' }, { name: 'bob-key', key: KEYS.bob, user: 'bob' }],
  mcp_servers: [
    { name: 'files', url: files.url, headers: { Authorization: `Bearer ${CREDENTIAL}` }, price_per_call: 0.002, allow_private_network: true },
    // Two calls a minute over every key and both instances.
    { name: 'scarce', url: files.url, headers: { Authorization: `Bearer ${CREDENTIAL}` }, rpm_limit: 2, allow_private_network: true },
  ],
});

beforeAll(async () => {
  postgres = await createTestPostgres();
  files = await startFilesServer(CREDENTIAL);
  const env = { DATABASE_URL: postgres.url, REDIS_URL, REDIS_PREFIX: testRedisPrefix() };
  a = await startTestGateway(config(), { env });
  b = await startTestGateway(config(), { env });
  balancer = await startRoundRobin([a.url, b.url]);
  // A PostgreSQL database, migrations and two gateways: past the default 30 s on a loaded CI machine.
}, 90_000);
afterAll(async () => {
  await balancer?.close();
  await a?.dispose();
  await b?.dispose();
  await files?.close();
  await postgres?.drop();
});

/** A raw MCP POST, as a client holding the session id would send it. */
function post(gateway: TestGateway, path: string, key: string, sessionId: string, body: object) {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'mcp-session-id': sessionId, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
}

describe('an MCP session behind a load balancer that is not sticky', () => {
  it('is opened on one instance and served by both: tools listed and called, each call logged and charged once', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEYS.alice}` } } });
    const client = new Client({ name: 'scale-out-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith('files__')).sort();
      expect(tools).toEqual(['files__crash', 'files__echo', 'files__hang', 'files__read_note']);
      const answers: string[] = [];
      for (const text of ['one', 'two', 'three']) {
        const result = await client.callTool({ name: 'files__echo', arguments: { text } });
        answers.push((result.content as { text: string }[])[0]!.text);
      }
      expect(answers).toEqual(['echo: one', 'echo: two', 'echo: three']);
      // The session's requests really went to both instances.
      expect(new Set(balancer.instances)).toEqual(new Set([new URL(a.url).origin, new URL(b.url).origin]));

      await a.recorder.flush();
      await b.recorder.flush();
      const rows = await a.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'alice-key').where('endpoint', '=', 'mcp/tools/call').execute();
      expect(rows.map((row) => ({ status: row.status, cost: Number(row.cost_micros) }))).toEqual([1, 2, 3].map(() => ({ status: 200, cost: 2000 })));
      const user = await a.database.db.selectFrom('users').select(['id', 'balance_micros']).where('name', '=', 'alice').executeTakeFirstOrThrow();
      const ledger = await a.database.db.selectFrom('wallet_ledger').select('amount_micros').where('user_id', '=', user.id).execute();
      expect(Number(user.balance_micros)).toBe(ledger.reduce((sum, entry) => sum + Number(entry.amount_micros), 0));
      expect(Number(user.balance_micros)).toBe(1_000_000 - 6000);
    } finally {
      await client.close();
    }
  });

  it("refuses the session on the other instance to another key and on another path, as an unknown id; a DELETE on one instance ends it on both", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEYS.alice}` } } });
    const client = new Client({ name: 'scale-out-test', version: '1.0.0' });
    await client.connect(transport);
    const id = transport.sessionId!;
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'files__read_note', arguments: {} } };

    const stolen = await post(b, '/mcp', KEYS.bob, id, call);
    const otherPath = await post(b, '/mcp/files', KEYS.alice, id, { ...call, params: { name: 'read_note', arguments: {} } });
    const unknown = await post(b, '/mcp', KEYS.bob, 'x'.repeat(43), call);
    for (const answer of [stolen, otherPath, unknown]) {
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { error: { data: { code: string } } }).error.data.code).toBe('mcp_session_not_found');
    }
    const served = await post(b, '/mcp', KEYS.alice, id, call);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('blue whale');

    // Ended through B: A's copy of the session is gone too.
    const ended = await fetch(`${b.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${KEYS.alice}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
    expect(ended.status).toBe(200);
    const afterEnd = await post(a, '/mcp', KEYS.alice, id, call);
    expect(afterEnd.status).toBe(404);
    await client.close().catch(() => {});
  });

  it("counts a server's rpm_limit over both instances (Redis): the third call in the minute is refused, wherever it lands", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${KEYS.bob}` } } });
    const client = new Client({ name: 'scale-out-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const landed = balancer.instances.length;
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: 'scarce__read_note', arguments: {} })).isError).toBeFalsy();
      const refused = await client.callTool({ name: 'scarce__read_note', arguments: {} }).catch((error: unknown) => error);
      expect((refused as { data?: { gateway_code?: string } }).data?.gateway_code).toBe('GW_ERR_MCP_SERVER_RATE_LIMITED');
      // The three calls were not all on one instance.
      expect(new Set(balancer.instances.slice(landed)).size).toBe(2);
    } finally {
      await client.close();
    }
  });
});
