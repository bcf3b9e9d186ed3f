// Issue 28 item 6 for Gemini CLI 0.61.0 (the real CLI, headless): on the API-key path it names no session
// (no session header or body field: only its User-Agent, the same for every session of one install), so the
// gateway pins the session by its conversation's fingerprint (src/routing/session-fingerprint.ts: the gateway
// key, the model, the system instruction and the conversation up to its first user turn, which Gemini CLI
// resends unchanged every turn). A model on two Gemini channels of equal weight; a tool loop of three calls
// stays on one channel, and the second and third calls read the prompt cache the first one filled there.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { modelCalls } from './agent-gateway.ts';
import { GEMINI_CLI_SETTINGS, geminiCliEnv } from './agent-settings.ts';
import { createAgentSandbox, describeRun, runCli } from './cli-runner.ts';

const KEY = testKey('geminiaffinity');
const MODEL = 'gemini-2.5-flash';
const CACHED = 40;
let east: GeminiSimulator;
let west: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  east = await startGeminiSimulator({ apiKey: 'up-east' });
  west = await startGeminiSimulator({ apiKey: 'up-west' });
  gateway = await startTestGateway({
    channels: [
      { name: 'east', type: 'gemini', base_url: east.url, api_key: 'up-east', models: [MODEL], weight: 1 },
      { name: 'west', type: 'gemini', base_url: west.url, api_key: 'up-west', models: [MODEL], weight: 1 },
    ],
    models: [{ id: MODEL, input_per_mtok: 0.3, output_per_mtok: 2.5, cached_input_per_mtok: 0.03 }],
    users: [{ name: 'gem', balance: 100 }],
    keys: [{ name: 'gemini-cli', key: KEY, user: 'gem' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await east?.close();
  await west?.close();
});

/** The usage rows of the key, oldest first: the channel each call went to and the tokens it read from cache. */
async function rows() {
  await gateway.recorder.flush();
  const { db } = gateway.database;
  const channels = new Map((await db.selectFrom('channels').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
  const list = await db.selectFrom('usage_logs').select(['channel_id', 'cached_tokens', 'status']).where('key_name', '=', 'gemini-cli').orderBy('id').execute();
  return list.map((row) => ({ channel: channels.get(row.channel_id!), cached: Number(row.cached_tokens), status: row.status }));
}

describe('Gemini CLI session affinity', () => {
  it('keeps every call of a tool loop on the channel of its first call, where the later calls read the cache', { timeout: 150_000 }, async () => {
    const sandbox = await createAgentSandbox('gemini-cli');
    try {
      await sandbox.writeFile(join(sandbox.home, '.gemini/settings.json'), GEMINI_CLI_SETTINGS);
      const files = await Promise.all([1, 2, 3, 4, 5].map((n) => sandbox.writeFile(join(sandbox.work, `part${n}.txt`), `Part ${n} is ${randomBytes(4).toString('hex')}.\n`)));
      // Both channels get the same script: whichever serves the session plays it. A cache holds what an
      // earlier call of the session sent there, so every call after the first reads from it.
      for (const sim of [east, west]) {
        sim.reset();
        sim.script(
          { toolCall: { name: 'read_file', arguments: { file_path: files[0] } } },
          ...files.slice(1).map((file) => ({ toolCall: { name: 'read_file', arguments: { file_path: file } }, cachedTokens: CACHED })),
          { cachedTokens: CACHED },
        );
      }
      const run = await runCli({
        command: 'gemini', args: ['-p', 'Read part1.txt to part5.txt, one after the other.', '-m', MODEL, '--output-format', 'json'], sandbox, env: geminiCliEnv(gateway.url, KEY), timeoutMs: 120_000,
      });
      expect(run.exitCode, describeRun(run)).toBe(0);
      const result = JSON.parse(run.stdout) as { stats: { tools: { byName: Record<string, { success: number }> }; models: Record<string, { tokens: { cached: number } }> } };
      expect(result.stats.tools.byName.read_file?.success).toBe(5);

      // Six calls, one channel: with an even split and no affinity, once in 32 runs.
      const served = { east: modelCalls(east.requests), west: modelCalls(west.requests) };
      expect([served.east.length, served.west.length].sort()).toEqual([0, 6]);
      const home = served.east.length > 0 ? 'east' : 'west';
      const logged = await rows();
      expect(logged).toEqual([{ channel: home, cached: 0, status: 200 }, ...Array.from({ length: 5 }, () => ({ channel: home, cached: CACHED, status: 200 }))]);
      // What Gemini CLI itself counted as read from cache: the later calls' reads.
      expect(result.stats.models[MODEL]!.tokens.cached).toBe(5 * CACHED);

      // The same conversation sent again (the CLI's last request, replayed ten times) stays there too.
      const last = served[home].at(-1)!;
      for (let i = 0; i < 10; i++) {
        const answer = await fetch(`${gateway.url}/v1beta/models/${MODEL}:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': KEY, 'content-type': 'application/json' }, body: last.rawBody });
        expect(answer.status, await answer.clone().text()).toBe(200);
      }
      expect(modelCalls((home === 'east' ? west : east).requests)).toEqual([]);
    } finally {
      await sandbox.dispose();
    }
  });
});
