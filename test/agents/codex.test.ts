// Codex CLI 0.171.0 (the real CLI, headless: `codex exec`) against the gateway, through a channel of each
// upstream family, configured as docs/coding-agents.md says: a temporary CODEX_HOME whose config.toml turns
// the update check and analytics off, and either
// - a custom provider (`wire_api = "responses"`, the gateway key in an env variable): HTTP POST /v1/responses;
// - the built-in OpenAI provider pointed at the gateway (`openai_base_url`, OPENAI_API_KEY): Codex opens the
//   Responses WebSocket first (GET /v1/responses, Upgrade) and must not fall back to HTTP.
// A real tool loop each time: the upstream asks for Codex's exec_command with `cat secret.txt` (a file in the
// work folder holding a random word), Codex runs it in its sandbox and sends the output back, and the
// upstream's answer states it: the final message must carry the word. Every upstream call has its usage row
// and charge, Codex's printed "tokens used" is what the gateway billed, and nothing leaves for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { createAgentSandbox, describeRun, runCli, type AgentSandbox } from './cli-runner.ts';

let agents: AgentGateway;

beforeAll(async () => {
  agents = await startAgentGateway('codex');
});
afterAll(() => agents?.dispose());

/** OpenAI, Anthropic, Gemini and a cloud channel (Claude on Bedrock). */
const CHANNELS = AGENT_CHANNELS.filter(({ channel }) => ['openai', 'anthropic', 'gemini', 'bedrock'].includes(channel));

type Provider = 'custom' | 'built-in';

/** $CODEX_HOME/config.toml as docs/coding-agents.md gives it. */
function codexConfig(provider: Provider, model: string): string {
  // Plugins and apps would fetch their catalogues from github.com and chatgpt.com at start.
  const common = [
    'check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', '',
    '[features]', 'plugins = false', 'remote_plugin = false', 'plugin_sharing = false', 'apps = false', '',
  ];
  if (provider === 'built-in') return [`model = "${model}"`, `openai_base_url = "${agents.gateway.url}/v1"`, ...common].join('\n');
  return [
    `model = "${model}"`, 'model_provider = "gateway"', ...common,
    '[model_providers.gateway]', 'name = "Model gateway"', `base_url = "${agents.gateway.url}/v1"`, 'env_key = "GATEWAY_API_KEY"', 'wire_api = "responses"', '',
  ].join('\n');
}

async function runCodex(sandbox: AgentSandbox, provider: Provider, key: string, model: string) {
  const codexHome = join(sandbox.home, '.codex');
  await sandbox.writeFile(join(codexHome, 'config.toml'), codexConfig(provider, model));
  if (provider === 'built-in') {
    // The built-in provider takes its key from a login (OPENAI_API_KEY alone is not sent): stored in CODEX_HOME.
    const login = await runCli({ command: 'codex', args: ['login', '--with-api-key'], sandbox, stdin: `${key}\n`, env: { CODEX_HOME: codexHome }, timeoutMs: 30_000 });
    expect(login.exitCode, describeRun(login)).toBe(0);
  }
  return runCli({
    command: 'codex',
    args: ['exec', '--skip-git-repo-check', '--sandbox', 'read-only', 'What does secret.txt say?'],
    sandbox,
    env: { CODEX_HOME: codexHome, ...(provider === 'built-in' ? {} : { GATEWAY_API_KEY: key }) },
    timeoutMs: 120_000,
  });
}

/** The number Codex prints under "tokens used" (with thousands separators). */
function tokensUsed(output: string): number | null {
  const match = /tokens used\s*\n\s*([\d,]+)/.exec(output);
  return match ? Number(match[1]!.replaceAll(',', '')) : null;
}

describe.each(['custom', 'built-in'] as const)('Codex as the %s provider', (provider) => {
  describe.each(CHANNELS)('through $label ($model)', ({ channel, model }) => {
    it('runs cat with exec_command and answers with the file\'s word; every upstream call logged and charged; tokens used as billed; no outside traffic', { timeout: 150_000 }, async () => {
      const upstream = agents.simulatorOf(channel);
      const account = agents.accountOf(channel);
      const sandbox = await createAgentSandbox('codex');
      try {
        const secret = `zebra-${randomBytes(6).toString('hex')}`;
        await sandbox.writeFile(join(sandbox.work, 'secret.txt'), `The secret word is ${secret}.\n`);
        await agents.gateway.recorder.flush();
        const before = await agents.gateway.database.db.selectFrom('usage_logs').select(['id']).where('key_name', '=', account.keyName).execute();
        upstream.reset();
        upstream.script({ toolCall: { name: 'exec_command', arguments: { cmd: 'cat secret.txt' } } });

        const run = await runCodex(sandbox, provider, account.key, model);

        expect(run.exitCode, describeRun(run)).toBe(0);
        // The final message is the last thing on stdout.
        expect(run.stdout, describeRun(run)).toContain(secret);
        const calls = modelCalls(upstream.requests);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(calls[0]!.rawBody).not.toContain(secret);
        expect(calls.at(-1)!.rawBody).toContain(secret);
        if (provider === 'built-in') expect(run.stderr + run.stdout, describeRun(run)).not.toContain('Falling back from WebSockets');
        await agents.gateway.recorder.flush();
        const rows = (await agents.gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', account.keyName).orderBy('id').execute()).slice(before.length);
        expect(rows).toHaveLength(calls.length);
        await expectEveryCallBilledSince(account, calls.length, channel, before.length);
        // Codex adds up every response's total tokens: the tokens the gateway billed over the run.
        expect(tokensUsed(run.stdout + run.stderr), describeRun(run)).toBe(rows.reduce((sum, row) => sum + Number(row.input_tokens) + Number(row.output_tokens), 0));
        expect(run.outsideAttempts).toEqual([]);
      } finally {
        await sandbox.dispose();
      }
    });
  });
});

/** expectEveryCallBilled over the whole key: rows of earlier cases of the same key count too. */
async function expectEveryCallBilledSince(account: { keyName: string; userName: string }, calls: number, channel: string, earlier: number): Promise<void> {
  await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls + earlier, channel);
}
