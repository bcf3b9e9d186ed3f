// Claude Code 2.1.332 (the real CLI, headless: `claude -p`) against the gateway, through a channel of each
// upstream family. Configured as the README says: ~/.claude/settings.json `env` with ANTHROPIC_BASE_URL, a
// gateway key as ANTHROPIC_AUTH_TOKEN, the model and the haiku/sonnet/opus defaults mapped to one gateway
// model, and the switches that keep it off the network. A real tool loop each time: the upstream asks for
// Claude Code's Read tool on a file in the work folder holding a random secret, Claude Code reads it and
// sends the result back, and the upstream's answer states it; the CLI's final output must carry the secret,
// every upstream call must have its usage row and its charge, the tokens Claude Code counted must be the
// tokens billed, and nothing may leave for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, billedTokens, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { claudeCodeSettings } from './agent-settings.ts';
import { createAgentSandbox, describeRun, runCli } from './cli-runner.ts';

let agents: AgentGateway;

/** A Claude model whose entry declares a context window smaller than Claude Code's own first prompt. */
const SMALL_WINDOW = 'claude-small-window';

beforeAll(async () => {
  agents = await startAgentGateway('claude-code', [{ channel: 'anthropic', id: SMALL_WINDOW, settings: { context_window: 4000 } }]);
});
afterAll(() => agents?.dispose());

describe.each(AGENT_CHANNELS)('Claude Code through $label ($model)', ({ channel, model }) => {
  it('reads a file with its Read tool and answers with what it holds; every upstream call logged and charged, the tokens it counted billed; no outside traffic', { timeout: 120_000 }, async () => {
    const upstream = agents.simulatorOf(channel);
    const account = agents.accountOf(channel);
    const sandbox = await createAgentSandbox('claude-code');
    try {
      await sandbox.writeFile(join(sandbox.home, '.claude/settings.json'), claudeCodeSettings(agents.gateway.url, account.key, model));
      const secret = `zebra-${randomBytes(6).toString('hex')}`;
      const file = await sandbox.writeFile(join(sandbox.work, 'secret.txt'), `The secret word is ${secret}.\n`);
      upstream.reset();
      upstream.script({ toolCall: { name: 'Read', arguments: { file_path: file } } });

      const run = await runCli({
        command: 'claude', args: ['-p', 'What does secret.txt say?', '--output-format', 'json', '--allowedTools', 'Read', '--max-turns', '4'],
        sandbox, timeoutMs: 90_000,
      });

      expect(run.exitCode, describeRun(run)).toBe(0);
      const result = JSON.parse(run.stdout) as { result: string; is_error: boolean; usage: { input_tokens: number; output_tokens: number } };
      expect(result.is_error, describeRun(run)).toBe(false);
      expect(result.result).toContain(secret);
      const calls = modelCalls(upstream.requests);
      // The first call asked for Read; the secret reached the upstream only as Read's result in the next one.
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls[0]!.rawBody).not.toContain(secret);
      expect(calls.at(-1)!.rawBody).toContain(secret);
      await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls.length, channel);
      // What Claude Code counted (from message_start and message_delta of each stream) is what was billed
      // (the simulators report no cached tokens here).
      expect({ input: result.usage.input_tokens, output: result.usage.output_tokens }).toEqual(await billedTokens(agents.gateway, account.keyName));
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Claude Code and a gateway model\'s context window', () => {
  it('a first prompt over the entry\'s context_window: Anthropic\'s "prompt is too long", which Claude Code reports as its own "Prompt is too long"', { timeout: 120_000 }, async () => {
    const upstream = agents.simulatorOf('anthropic');
    const sandbox = await createAgentSandbox('claude-code');
    try {
      await sandbox.writeFile(join(sandbox.home, '.claude/settings.json'), claudeCodeSettings(agents.gateway.url, agents.extraAccount.key, SMALL_WINDOW));
      upstream.reset();
      const run = await runCli({ command: 'claude', args: ['-p', 'hi', '--output-format', 'json', '--max-turns', '2'], sandbox, timeoutMs: 90_000 });
      const result = JSON.parse(run.stdout) as { result: string; is_error: boolean };
      expect(result.is_error, describeRun(run)).toBe(true);
      // Claude Code recognised the overflow and read the numbers out of it (its own wording, not the API
      // error's): a first exchange cannot be compacted, so it stops and says why.
      expect(result.result, describeRun(run)).toMatch(/^Prompt is too long · the request is ~\d+ tokens \(limit 4000\)/);
      expect(modelCalls(upstream.requests).filter((call) => call.path === '/v1/messages')).toEqual([]);
      await agents.gateway.recorder.flush();
      const row = await agents.gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', agents.extraAccount.keyName).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect([row.model, row.status, Number(row.cost_micros)]).toEqual([SMALL_WINDOW, 400, 0]);
      expect(row.error).toMatch(/^prompt is too long: \d+ tokens > 4000 maximum$/);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Claude Code without the switches that keep it off the network', () => {
  it('tries to reach the internet (the trap proxy records it), so the check above can fail', { timeout: 60_000 }, async () => {
    const account = agents.accountOf('anthropic');
    const sandbox = await createAgentSandbox('claude-code');
    try {
      const { env } = claudeCodeSettings(agents.gateway.url, account.key, 'claude-sonnet-4-6');
      const { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: _n, DISABLE_TELEMETRY: _t, DISABLE_AUTOUPDATER: _u, DISABLE_ERROR_REPORTING: _e, ...connection } = env;
      await sandbox.writeFile(join(sandbox.home, '.claude/settings.json'), { env: connection });
      const run = await runCli({ command: 'claude', args: ['-p', 'Hello there', '--output-format', 'json'], sandbox, timeoutMs: 45_000 });
      expect(run.exitCode, describeRun(run)).toBe(0);
      expect(JSON.parse(run.stdout).result).toContain('Hello there');
      expect(run.outsideAttempts.length, 'Claude Code tried no outside connection even without the switches').toBeGreaterThan(0);
    } finally {
      await sandbox.dispose();
    }
  });
});
