// Codex CLI 0.171.0 (the real CLI, headless: `codex exec`) using the gateway's MCP endpoint (issue 32): the
// models through the gateway as docs/coding-agents.md configures them (a custom provider, Responses over
// HTTP), and the `[mcp_servers.gateway]` table the Keys page shows (docs/mcp.md): the gateway's /mcp over
// Streamable HTTP, the same sk- key read from the environment variable `bearer_token_env_var` names. The
// OpenAI simulator asks for the gateway's MCP tool; Codex calls it through /mcp, the gateway relays it to
// an SDK-built upstream with the upstream's own credential, and the tool's answer comes back through the
// model to Codex's final message. The call is in the usage log and charged; nothing leaves for the internet.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startFilesServer, type UpstreamMcpServer } from '../mcp/mcp-upstream-servers.ts';
import { codexMcpSnippet } from '../../web/src/pages/keys/mcp-snippet-texts.ts';
import { createAgentSandbox, describeRun, runCli } from './cli-runner.ts';

const KEY = testKey('codexmcp');
const MODEL = 'gpt-4o-mini';
const CREDENTIAL = 'codex-mcp-upstream-credential';
let openai: OpenAISimulator;
let files: UpstreamMcpServer;
let gateway: TestGateway;

beforeAll(async () => {
  openai = await startOpenAISimulator({ apiKey: 'sk-codex-mcp-openai' });
  files = await startFilesServer(CREDENTIAL);
  gateway = await startTestGateway({
    channels: [{ name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-codex-mcp-openai', models: [MODEL] }],
    // gpt-4o-mini does not reason: its entry says so (OpenAI refuses reasoning settings for it, and Codex sends them).
    models: [{ id: MODEL, input_per_mtok: 3, output_per_mtok: 15, capabilities: { reasoning: false } }],
    users: [{ name: 'codex-coder', balance: 10 }],
    keys: [{ name: 'codex-coder-key', key: KEY, user: 'codex-coder' }],
    mcp_servers: [{ name: 'files', url: files.url, headers: { Authorization: `Bearer ${CREDENTIAL}` }, price_per_call: 0.001, allow_private_network: true }],
  });
});
afterAll(async () => {
  await gateway?.dispose();
  await files?.close();
  await openai?.close();
});

/** $CODEX_HOME/config.toml: the custom provider of docs/coding-agents.md, then the Keys page's MCP snippet verbatim. */
function codexConfig(): string {
  return [
    `model = "${MODEL}"`, 'model_provider = "gateway"',
    'check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', '',
    // Plugins and apps would fetch their catalogues from github.com and chatgpt.com at start.
    '[features]', 'plugins = false', 'remote_plugin = false', 'plugin_sharing = false', 'apps = false', '',
    '[model_providers.gateway]', 'name = "Model gateway"', `base_url = "${gateway.url}/v1"`, 'env_key = "GATEWAY_API_KEY"', 'wire_api = "responses"', '',
    codexMcpSnippet(`${gateway.url}/mcp`), '',
  ].join('\n');
}

describe('Codex with the gateway as its MCP server', () => {
  it('calls a gateway MCP tool from the Keys page\'s [mcp_servers.gateway]; the upstream answers through the gateway, logged and charged', { timeout: 150_000 }, async () => {
    const sandbox = await createAgentSandbox('codex-mcp');
    try {
      const codexHome = join(sandbox.home, '.codex');
      await sandbox.writeFile(join(codexHome, 'config.toml'), codexConfig());
      openai.reset();
      openai.script({ toolCall: { name: 'mcp__gateway.files__read_note', arguments: {} } });

      const run = await runCli({
        command: 'codex',
        // A headless run cannot answer Codex's approval prompt for an MCP tool: the gateway's tools are
        // approved on the command line (as --allowedTools does for Claude Code), the config file stays the snippet.
        args: ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', '-c', 'mcp_servers.gateway.default_tools_approval_mode="approve"', 'What does the note say?'],
        sandbox,
        env: { CODEX_HOME: codexHome, GATEWAY_API_KEY: KEY, GATEWAY_KEY: KEY },
        timeoutMs: 120_000,
      });

      expect(run.exitCode, describeRun(run)).toBe(0);
      // The simulator's second answer repeats the tool's result: it came from the upstream MCP server.
      expect(run.stdout, describeRun(run)).toContain('blue whale');
      expect(files.calls.map((call) => call.name)).toContain('read_note');
      for (const headers of files.headers) expect(JSON.stringify(headers)).not.toContain(KEY);
      await gateway.recorder.flush();
      const rows = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'codex-coder-key').execute();
      const toolRows = rows.filter((row) => row.endpoint === 'mcp/tools/call');
      expect(toolRows.map((row) => ({ model: row.model, tool: row.upstream_model, status: row.status, cost: Number(row.cost_micros) }))).toEqual([{ model: 'mcp:files', tool: 'read_note', status: 200, cost: 1000 }]);
      expect(rows.filter((row) => row.model === MODEL).length).toBeGreaterThanOrEqual(2);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});
