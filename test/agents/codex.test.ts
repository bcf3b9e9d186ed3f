// Codex CLI 0.171.0 (the real CLI, headless: `codex exec`) against the gateway, through a channel of each
// upstream family, configured as docs/coding-agents.md says: a temporary CODEX_HOME whose config.toml turns
// the update check and analytics off, and either
// - a custom provider (`wire_api = "responses"`, the gateway key in an env variable): HTTP POST /v1/responses;
// - the built-in OpenAI provider pointed at the gateway (`openai_base_url`, OPENAI_API_KEY): Codex opens the
//   Responses WebSocket first (GET /v1/responses, Upgrade) and must not fall back to HTTP; through an OpenAI
//   channel the gateway carries its turns over the upstream's own WebSocket (one socket for the run).
// A real tool loop each time: the upstream asks for Codex's exec_command with `cat secret.txt` (a file in the
// work folder holding a random word), Codex runs it in its sandbox and sends the output back, and the
// upstream's answer states it: the final message must carry the word. Every upstream call has its usage row
// and charge, Codex's printed "tokens used" is what the gateway billed, and nothing leaves for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { createAgentSandbox, describeRun, runCli, type AgentSandbox } from './cli-runner.ts';
import type { OpenAISimulator } from '../simulators/openai-simulator.ts';

let agents: AgentGateway;

/** Claude models whose entries declare a context window: one smaller than Codex's own first prompt, one Codex's config.toml repeats. */
const SMALL_WINDOW = 'claude-small-window';
const CONFIGURED = 'claude-configured';
const CONFIGURED_WINDOW = 60_000;

beforeAll(async () => {
  agents = await startAgentGateway('codex', [
    { channel: 'anthropic', id: SMALL_WINDOW, settings: { context_window: 4000 } },
    { channel: 'anthropic', id: CONFIGURED, settings: { context_window: CONFIGURED_WINDOW } },
  ]);
});
afterAll(() => agents?.dispose());

/** OpenAI, Anthropic, Gemini and a cloud channel (Claude on Bedrock). */
const CHANNELS = AGENT_CHANNELS.filter(({ channel }) => ['openai', 'anthropic', 'gemini', 'bedrock'].includes(channel));

type Provider = 'custom' | 'built-in';

/** $CODEX_HOME/config.toml as docs/coding-agents.md gives it. */
function codexConfig(provider: Provider, model: string, modelSettings: readonly string[] = []): string {
  // Plugins and apps would fetch their catalogues from github.com and chatgpt.com at start.
  const common = [
    'check_for_update_on_startup = false', '', '[analytics]', 'enabled = false', '',
    '[features]', 'plugins = false', 'remote_plugin = false', 'plugin_sharing = false', 'apps = false', '',
  ];
  if (provider === 'built-in') return [`model = "${model}"`, ...modelSettings, `openai_base_url = "${agents.gateway.url}/v1"`, ...common].join('\n');
  return [
    `model = "${model}"`, ...modelSettings, 'model_provider = "gateway"', ...common,
    '[model_providers.gateway]', 'name = "Model gateway"', `base_url = "${agents.gateway.url}/v1"`, 'env_key = "GATEWAY_API_KEY"', 'wire_api = "responses"', '',
  ].join('\n');
}

async function runCodex(sandbox: AgentSandbox, provider: Provider, key: string, model: string, modelSettings: readonly string[] = []) {
  const codexHome = join(sandbox.home, '.codex');
  await sandbox.writeFile(join(codexHome, 'config.toml'), codexConfig(provider, model, modelSettings));
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
        // An OpenAI channel speaks the Responses WebSocket mode: Codex's turns over the gateway's go over its own.
        const sockets = channel === 'openai' ? (upstream as OpenAISimulator).webSocket : null;
        const socketsBefore = sockets ? { upgrades: sockets.upgrades, turns: sockets.turns } : null;

        const run = await runCodex(sandbox, provider, account.key, model);

        expect(run.exitCode, describeRun(run)).toBe(0);
        // The final message is the last thing on stdout.
        expect(run.stdout, describeRun(run)).toContain(secret);
        const calls = modelCalls(upstream.requests);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(calls[0]!.rawBody).not.toContain(secret);
        expect(calls.at(-1)!.rawBody).toContain(secret);
        if (provider === 'built-in') expect(run.stderr + run.stdout, describeRun(run)).not.toContain('Falling back from WebSockets');
        if (sockets && socketsBefore) {
          // Built-in: every model call came over one upstream socket (several turns on it), closed when Codex left; custom: POSTs.
          expect(calls.map((call) => call.headers['x-simulator-transport'])).toEqual(calls.map(() => (provider === 'built-in' ? 'websocket' : undefined)));
          expect(sockets.upgrades - socketsBefore.upgrades).toBe(provider === 'built-in' ? 1 : 0);
          expect(sockets.turns - socketsBefore.turns).toBe(provider === 'built-in' ? calls.length : 0);
          await expect.poll(() => sockets.open).toBe(0);
        }
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

describe.each(['custom', 'built-in'] as const)('Codex and a gateway model\'s context window, as the %s provider', (provider) => {
  it('a first prompt over the entry\'s context_window: Codex takes the refusal as a full context window (not a bad request)', { timeout: 150_000 }, async () => {
    const upstream = agents.simulatorOf('anthropic');
    const sandbox = await createAgentSandbox('codex');
    try {
      upstream.reset();
      const run = await runCodex(sandbox, provider, agents.extraAccount.key, SMALL_WINDOW);
      // CodexErr::ContextWindowExceeded, which Codex maps from the code context_length_exceeded (a 400, or an
      // error event on the WebSocket); any other 400 it reports as a bad request and stops.
      expect(run.stdout + run.stderr, describeRun(run)).toContain("Codex ran out of room in the model's context window");
      expect(modelCalls(upstream.requests)).toEqual([]);
      await agents.gateway.recorder.flush();
      const row = await agents.gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', agents.extraAccount.keyName).where('model', '=', SMALL_WINDOW).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect([row.status, Number(row.cost_micros), row.error]).toEqual([400, 0, 'Your input exceeds the context window of this model. Please adjust your input and try again.']);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Codex with a gateway model\'s settings in its config.toml (docs/coding-agents.md: no catalogue, Codex\'s own system prompt kept)', () => {
  it('compacts at the model_context_window it gives, and sends the reasoning effort it gives, through an Anthropic channel', { timeout: 150_000 }, async () => {
    const upstream = agents.simulatorOf('anthropic');
    const sandbox = await createAgentSandbox('codex');
    try {
      upstream.reset();
      // The first answer (a tool call) reports 95 % of the window as its input: Codex must compact before it goes on.
      upstream.script({ toolCall: { name: 'exec_command', arguments: { cmd: 'echo hello' } }, cachedTokens: Math.round(CONFIGURED_WINDOW * 0.95) });
      const settings = [`model_context_window = ${CONFIGURED_WINDOW}`, 'model_reasoning_effort = "high"', 'model_reasoning_summary = "none"'];
      const run = await runCodex(sandbox, 'custom', agents.extraAccount.key, CONFIGURED, settings);
      expect(run.exitCode, describeRun(run)).toBe(0);
      const calls = modelCalls(upstream.requests);
      const bodies = calls.map((call) => call.rawBody);
      // Codex's own compaction prompt, sent in the second call: it read the window from the config.
      expect(bodies[1], describeRun(run)).toContain('CONTEXT CHECKPOINT COMPACTION');
      const first = calls[0]!.body as { system?: unknown; thinking?: { type: string; budget_tokens?: number } };
      // Codex's default system prompt (its fallback metadata's), not one a catalogue entry would have to carry.
      expect(JSON.stringify(first.system)).toContain('You are a coding agent running in the Codex CLI');
      // reasoning.effort "high", as the Anthropic channel gets it.
      expect(first.thinking, JSON.stringify(first.thinking)).toMatchObject({ type: expect.stringMatching(/enabled|adaptive/) });
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

/** expectEveryCallBilled over the whole key: rows of earlier cases of the same key count too. */
async function expectEveryCallBilledSince(account: { keyName: string; userName: string }, calls: number, channel: string, earlier: number): Promise<void> {
  await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls + earlier, channel);
}
