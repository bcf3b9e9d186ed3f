// Gemini CLI 0.61.0 (the real CLI, headless: `gemini -p`) against the gateway, through a channel of each
// upstream family. Configured as the README says: ~/.gemini/settings.json choosing API-key auth (without it
// the CLI exits 41 in headless mode, tested below) with usage statistics, telemetry and auto-update off, and
// GEMINI_API_KEY (a gateway key) with GOOGLE_GEMINI_BASE_URL (the gateway) in the environment. A real tool
// loop each time: the upstream asks for Gemini CLI's read_file on a file in the work folder holding a random
// secret, the CLI reads it and sends the result back, and the upstream's answer states it; the final output
// must carry the secret, every upstream call must have its usage row and its charge, the tokens Gemini CLI
// counted must be the tokens billed, and nothing may leave for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, billedTokens, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { GEMINI_CLI_SETTINGS, geminiCliEnv } from './agent-settings.ts';
import { createAgentSandbox, describeRun, runCli, type AgentSandbox } from './cli-runner.ts';

let agents: AgentGateway;

beforeAll(async () => {
  agents = await startAgentGateway('gemini-cli');
});
afterAll(() => agents?.dispose());

async function runGemini(sandbox: AgentSandbox, key: string, model: string) {
  return runCli({ command: 'gemini', args: ['-p', 'What does secret.txt say?', '-m', model, '--output-format', 'json'], sandbox, env: geminiCliEnv(agents.gateway.url, key), timeoutMs: 90_000 });
}

describe.each(AGENT_CHANNELS)('Gemini CLI through $label ($model)', ({ channel, model }) => {
  it('reads a file with its read_file tool and answers with what it holds; every upstream call logged and charged, the tokens it counted billed; no outside traffic', { timeout: 120_000 }, async () => {
    const upstream = agents.simulatorOf(channel);
    const account = agents.accountOf(channel);
    const sandbox = await createAgentSandbox('gemini-cli');
    try {
      await sandbox.writeFile(join(sandbox.home, '.gemini/settings.json'), GEMINI_CLI_SETTINGS);
      const secret = `zebra-${randomBytes(6).toString('hex')}`;
      const file = await sandbox.writeFile(join(sandbox.work, 'secret.txt'), `The secret word is ${secret}.\n`);
      upstream.reset();
      upstream.script({ toolCall: { name: 'read_file', arguments: { file_path: file } } });

      const run = await runGemini(sandbox, account.key, model);

      expect(run.exitCode, describeRun(run)).toBe(0);
      const result = JSON.parse(run.stdout) as {
        response: string;
        stats: { tools: { byName: Record<string, { success: number }> }; models: Record<string, { tokens: { prompt: number; candidates: number; thoughts: number } }> };
      };
      expect(result.response).toContain(secret);
      expect(result.stats.tools.byName.read_file?.success).toBe(1);
      const calls = modelCalls(upstream.requests);
      // The first call asked for read_file; the secret reached the upstream only as its result in the next one.
      expect(calls.length).toBeGreaterThanOrEqual(2);
      expect(calls[0]!.rawBody).not.toContain(secret);
      expect(calls.at(-1)!.rawBody).toContain(secret);
      await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls.length, channel);
      // What Gemini CLI counted (each stream's usageMetadata) is what was billed; thoughts are output tokens.
      const counted = result.stats.models[model]!.tokens;
      expect({ input: counted.prompt, output: counted.candidates + counted.thoughts }).toEqual(await billedTokens(agents.gateway, account.keyName));
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Gemini CLI without a settings.json', () => {
  it('exits 41 ("Invalid auth method selected") before calling anything, although GEMINI_API_KEY is set', { timeout: 60_000 }, async () => {
    const sandbox = await createAgentSandbox('gemini-cli');
    try {
      const gemini = agents.simulatorOf('gemini');
      gemini.reset();
      const run = await runGemini(sandbox, agents.accountOf('gemini').key, 'gemini-2.5-flash');
      expect(run.exitCode, describeRun(run)).toBe(41);
      expect(run.stderr).toContain('Invalid auth method selected');
      expect(gemini.requests).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('Gemini CLI without the settings that keep it off the network', () => {
  it('tries to reach the internet (the trap proxy records it), so the check above can fail', { timeout: 60_000 }, async () => {
    const sandbox = await createAgentSandbox('gemini-cli');
    try {
      await sandbox.writeFile(join(sandbox.home, '.gemini/settings.json'), { security: GEMINI_CLI_SETTINGS.security });
      const run = await runCli({
        command: 'gemini', args: ['-p', 'Hello there', '-m', 'gemini-2.5-flash', '--output-format', 'json'], sandbox, env: geminiCliEnv(agents.gateway.url, agents.accountOf('gemini').key), timeoutMs: 45_000,
      });
      expect(run.exitCode, describeRun(run)).toBe(0);
      expect(JSON.parse(run.stdout).response).toContain('Hello there');
      expect(run.outsideAttempts.length, 'Gemini CLI tried no outside connection even without the settings').toBeGreaterThan(0);
    } finally {
      await sandbox.dispose();
    }
  });
});
