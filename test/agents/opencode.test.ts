// OpenCode 1.18.33 (the real CLI, headless: `opencode run --format json`) against the gateway as an
// OpenAI-compatible provider, through a channel of each upstream family. Configured as docs/coding-agents.md
// says: ~/.config/opencode/opencode.json naming the gateway and its models, GATEWAY_KEY and the switches
// that keep it off the network in the environment. A real tool loop each time: the upstream asks for
// OpenCode's `read` tool on a file in the work folder holding a random secret, OpenCode reads it and sends the
// result back, and the upstream's answer states it; the final output must carry the secret, every upstream
// call must have its usage row and its charge, and nothing may leave for the internet. The three upstream
// families only (an OpenCode run takes 10-20 s of a loaded machine): OpenCode speaks OpenAI chat, and the
// translations behind the Bedrock and Vertex channels are the ones the Claude Code and Gemini CLI cases run.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CHANNELS, expectEveryCallBilled, modelCalls, startAgentGateway, type AgentGateway } from './agent-gateway.ts';
import { OPENCODE_PLUGIN_LOCK, opencodeConfig, opencodeEnv } from './agent-settings.ts';
import { createAgentSandbox, describeRun, runCli, type AgentSandbox } from './cli-runner.ts';

let agents: AgentGateway;

beforeAll(async () => {
  agents = await startAgentGateway('opencode');
});
afterAll(() => agents?.dispose());

interface OpencodeEvent { type: string; part: { type: string; tool?: string; text?: string; state?: { status: string }; reason?: string } }

async function configure(sandbox: AgentSandbox): Promise<void> {
  const folder = join(sandbox.home, '.config/opencode');
  await sandbox.writeFile(join(folder, 'opencode.json'), opencodeConfig(agents.gateway.url, AGENT_CHANNELS.map(({ model }) => model)));
  await sandbox.writeFile(join(folder, 'package-lock.json'), OPENCODE_PLUGIN_LOCK);
  await sandbox.writeFile(join(folder, 'node_modules/.keep'), '');
}

const runOpencode = (sandbox: AgentSandbox, model: string, env: Record<string, string>) =>
  runCli({ command: 'opencode', args: ['run', '--format', 'json', '-m', `gateway/${model}`, 'What does secret.txt say?'], sandbox, env, timeoutMs: 90_000 });

const FAMILIES = AGENT_CHANNELS.filter(({ channel }) => ['openai', 'anthropic', 'gemini'].includes(channel));

describe.each(FAMILIES)('OpenCode through $label ($model)', ({ channel, model }) => {
  it('reads a file with its read tool and answers with what it holds; every upstream call logged and charged; no outside traffic', { timeout: 120_000 }, async () => {
    const upstream = agents.simulatorOf(channel);
    const account = agents.accountOf(channel);
    const sandbox = await createAgentSandbox('opencode');
    try {
      await configure(sandbox);
      const secret = `zebra-${randomBytes(6).toString('hex')}`;
      const file = await sandbox.writeFile(join(sandbox.work, 'secret.txt'), `The secret word is ${secret}.\n`);
      upstream.reset();
      upstream.script({ toolCall: { name: 'read', arguments: { filePath: file } } });

      const run = await runOpencode(sandbox, model, opencodeEnv(account.key));

      expect(run.exitCode, describeRun(run)).toBe(0);
      const events = run.stdout.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as OpencodeEvent);
      const read = events.find((event) => event.part.type === 'tool' && event.part.tool === 'read');
      expect(read?.part.state?.status, describeRun(run)).toBe('completed');
      const answer = events.filter((event) => event.type === 'text').map((event) => event.part.text).join('');
      expect(answer).toContain(secret);
      const calls = modelCalls(upstream.requests);
      expect(calls).toHaveLength(2);
      expect(calls[0]!.rawBody).not.toContain(secret);
      expect(calls[1]!.rawBody).toContain(secret);
      await expectEveryCallBilled(agents.gateway, account.keyName, account.userName, calls.length, channel);
      expect(run.outsideAttempts).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});

describe('OpenCode without the settings that keep it off the network', () => {
  it('tries to reach the internet (the trap proxy records it), so the check above can fail', { timeout: 120_000 }, async () => {
    const sandbox = await createAgentSandbox('opencode');
    try {
      await sandbox.writeFile(join(sandbox.home, '.config/opencode/opencode.json'), opencodeConfig(agents.gateway.url, ['gpt-4o-mini']));
      const run = await runOpencode(sandbox, 'gpt-4o-mini', { GATEWAY_KEY: agents.accountOf('openai').key });
      expect(run.exitCode, describeRun(run)).toBe(0);
      expect(run.outsideAttempts.length, 'OpenCode tried no outside connection even without the settings').toBeGreaterThan(0);
    } finally {
      await sandbox.dispose();
    }
  });
});
