// Claude Code 2.1.332 (the real CLI, headless: `claude -p`) against the gateway, through a channel of each
// upstream family. Configured as the README says: ~/.claude/settings.json `env` with ANTHROPIC_BASE_URL, a
// gateway key as ANTHROPIC_AUTH_TOKEN, the model and the haiku/sonnet/opus defaults mapped to one gateway
// model, and the switches that keep it off the network. A real tool loop each time: the upstream asks for
// Claude Code's Read tool on a file in the work folder holding a random secret, Claude Code reads it and
// sends the result back, and the upstream's answer states it; the CLI's final output must carry the secret,
// every upstream call must have its usage row and its charge, and nothing may leave for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { createAgentSandbox, describeRun, runCli } from './cli-runner.ts';

let agents: AgentGateway;

beforeAll(async () => {
  agents = await startAgentGateway('claude-code');
});
afterAll(() => agents?.dispose());

/** ~/.claude/settings.json for a gateway, as the README gives it. */
export function claudeCodeSettings(gatewayUrl: string, key: string, model: string) {
  return {
    env: {
      ANTHROPIC_BASE_URL: gatewayUrl,
      ANTHROPIC_AUTH_TOKEN: key,
      ANTHROPIC_MODEL: model,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
      ANTHROPIC_DEFAULT_SONNET_MODEL: model,
      ANTHROPIC_DEFAULT_OPUS_MODEL: model,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
    },
  };
}

describe.each(AGENT_CHANNELS)('Claude Code through $label ($model)', ({ channel, model }) => {
  it('reads a file with its Read tool and answers with what it holds; every upstream call logged and charged; no outside traffic', { timeout: 120_000 }, async () => {
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
      const result = JSON.parse(run.stdout) as { result: string; is_error: boolean };
      expect(result.is_error, describeRun(run)).toBe(false);
      expect(result.result).toContain(secret);
      const calls = modelCalls(upstream.requests);
      // The first call asked for Read; the secret reached the upstream only as Read's result in the next one.
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls[0]!.rawBody).not.toContain(secret);
      expect(calls.at(-1)!.rawBody).toContain(secret);
      await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls.length, channel);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});
