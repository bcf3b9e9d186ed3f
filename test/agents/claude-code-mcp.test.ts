// Claude Code 2.1.332 (the real CLI, headless: `claude -p`) using the gateway's MCP endpoint (issue 32):
// the models through the gateway as the README configures them, and an `--mcp-config` naming the gateway's
// /mcp with the same sk- key. The Anthropic simulator asks for the gateway's MCP tool; Claude Code calls it
// through /mcp, the gateway relays it to an SDK-built upstream with the upstream's own credential, and the
// tool's answer comes back through the model to the CLI's output. The call is in the usage log and charged.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, type UpstreamMcpServer } from '../mcp/mcp-upstream-servers.ts';
import { claudeCodeMcpSnippet } from '../../web/src/pages/keys/mcp-snippet-texts.ts';
import { claudeCodeSettings } from './agent-settings.ts';
import { createAgentSandbox, describeRun, runCli } from './cli-runner.ts';

const KEY = testKey('claudecodemcp');
const MODEL = 'claude-sonnet-4-6';
const CREDENTIAL = 'claude-code-mcp-upstream-credential';
let anthropic: AnthropicSimulator;
let files: UpstreamMcpServer;
let gateway: TestGateway;

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-mcp-anthropic' });
  files = await startFilesServer(CREDENTIAL);
  gateway = await startTestGateway({
    channels: [{ name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-mcp-anthropic', models: [MODEL] }],
    models: [{ id: MODEL, input_per_mtok: 3, output_per_mtok: 15 }],
    users: [{ name: 'coder', balance: 10 }],
    keys: [{ name: 'coder-key', key: KEY, user: 'coder' }],
    mcp_servers: [{ name: 'files', url: files.url, headers: { Authorization: `Bearer ${CREDENTIAL}` }, price_per_call: 0.001, allow_private_network: true }],
  });
});
afterAll(async () => {
  await gateway?.dispose();
  await files?.close();
  await anthropic?.close();
});

describe('Claude Code with the gateway as its MCP server', () => {
  it('calls a gateway MCP tool named in --mcp-config; the upstream answers through the gateway, logged and charged', { timeout: 120_000 }, async () => {
    const sandbox = await createAgentSandbox('claude-code-mcp');
    try {
      const settings = claudeCodeSettings(gateway.url, KEY, MODEL);
      // Claude Code otherwise defers MCP tools behind its ToolSearch tool, and the simulator asks for the tool by name.
      await sandbox.writeFile(join(sandbox.home, '.claude/settings.json'), { env: { ...settings.env, ENABLE_TOOL_SEARCH: 'false' } });
      // The .mcp.json the Keys page shows for Claude Code (docs/mcp.md gives the same), with the key filled in.
      const snippetJson = claudeCodeMcpSnippet(`${gateway.url}/mcp`).split('\n\n')[1]!.replace('sk-…your key…', KEY);
      const mcpConfig = await sandbox.writeFile(join(sandbox.work, 'mcp.json'), JSON.parse(snippetJson) as object);
      anthropic.reset();
      anthropic.script({ toolCall: { name: 'mcp__gateway__files__read_note', arguments: {} } });

      const run = await runCli({
        command: 'claude',
        args: ['-p', 'What does the note say?', '--output-format', 'json', '--mcp-config', mcpConfig, '--strict-mcp-config', '--allowedTools', 'mcp__gateway__files__read_note', '--max-turns', '4'],
        sandbox, timeoutMs: 90_000,
      });

      expect(run.exitCode, describeRun(run)).toBe(0);
      const result = JSON.parse(run.stdout) as { result: string; is_error: boolean };
      expect(result.is_error, describeRun(run)).toBe(false);
      // The simulator's second answer repeats the tool's result: it came from the upstream MCP server.
      expect(result.result).toContain('blue whale');
      expect(files.calls.map((call) => call.name)).toContain('read_note');
      for (const headers of files.headers) expect(JSON.stringify(headers)).not.toContain(KEY);
      await gateway.recorder.flush();
      const rows = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'coder-key').execute();
      const toolRows = rows.filter((row) => row.endpoint === 'mcp/tools/call');
      expect(toolRows.map((row) => ({ model: row.model, tool: row.upstream_model, status: row.status, cost: Number(row.cost_micros) }))).toEqual([{ model: 'mcp:files', tool: 'read_note', status: 200, cost: 1000 }]);
      expect(rows.filter((row) => row.model === MODEL).length).toBeGreaterThanOrEqual(2);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});
