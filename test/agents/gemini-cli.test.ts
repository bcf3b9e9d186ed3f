// Gemini CLI 0.61.0 (the real CLI, headless: `gemini -p`) against the gateway, through a channel of each
// upstream family. Configured as the README says: ~/.gemini/settings.json choosing API-key auth (without it
// the CLI exits 41 in headless mode, tested below) with usage statistics, telemetry and auto-update off, and
// GEMINI_API_KEY (a gateway key) with GOOGLE_GEMINI_BASE_URL (the gateway) in the environment. A real tool
// loop each time: the upstream asks for Gemini CLI's read_file on a file in the work folder holding a random
// secret, the CLI reads it and sends the result back, and the upstream's answer states it; the final output
// must carry the secret, every upstream call must have its usage row and its charge, and nothing may leave
// for the internet.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { createAgentSandbox, describeRun, runCli, type AgentSandbox } from './cli-runner.ts';

let agents: AgentGateway;

beforeAll(async () => {
  agents = await startAgentGateway('gemini-cli');
});
afterAll(() => agents?.dispose());

/** ~/.gemini/settings.json, as the README gives it. */
const GEMINI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

/** The environment the README gives: the gateway key and base URL; the work folder trusted for headless runs. */
function geminiEnv(key: string): Record<string, string> {
  return { GEMINI_API_KEY: key, GOOGLE_GEMINI_BASE_URL: agents.gateway.url, GEMINI_CLI_TRUST_WORKSPACE: 'true' };
}

async function runGemini(sandbox: AgentSandbox, key: string, model: string) {
  return runCli({ command: 'gemini', args: ['-p', 'What does secret.txt say?', '-m', model, '--output-format', 'json'], sandbox, env: geminiEnv(key), timeoutMs: 90_000 });
}

describe.each(AGENT_CHANNELS)('Gemini CLI through $label ($model)', ({ channel, model }) => {
  it('reads a file with its read_file tool and answers with what it holds; every upstream call logged and charged; no outside traffic', { timeout: 120_000 }, async () => {
    const upstream = agents.simulatorOf(channel);
    const account = agents.accountOf(channel);
    const sandbox = await createAgentSandbox('gemini-cli');
    try {
      await sandbox.writeFile(join(sandbox.home, '.gemini/settings.json'), GEMINI_SETTINGS);
      const secret = `zebra-${randomBytes(6).toString('hex')}`;
      const file = await sandbox.writeFile(join(sandbox.work, 'secret.txt'), `The secret word is ${secret}.\n`);
      upstream.reset();
      upstream.script({ toolCall: { name: 'read_file', arguments: { file_path: file } } });

      const run = await runGemini(sandbox, account.key, model);

      expect(run.exitCode, describeRun(run)).toBe(0);
      const result = JSON.parse(run.stdout) as { response: string; stats: { tools: { byName: Record<string, { success: number }> } } };
      expect(result.response).toContain(secret);
      expect(result.stats.tools.byName.read_file?.success).toBe(1);
      const calls = modelCalls(upstream.requests);
      // The first call asked for read_file; the secret reached the upstream only as its result in the next one.
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
