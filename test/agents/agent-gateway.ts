// The gateway the coding-agent tests point their CLIs at: one channel of each upstream family in front of
// the project's simulators (OpenAI, Anthropic, Gemini, Bedrock's Converse, Vertex with Gemini and Claude),
// a gateway model per channel, and one user and key per test case, so each case reads its own usage rows
// and its own ledger. Gateway model ids are names the CLIs know (claude-*, gemini-*, gpt-*): a coding agent
// changes what it sends by the model's name, and a user picks real names.
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'vitest';
import { startAnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { startGeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator } from '../simulators/openai-simulator.ts';
import type { RecordedRequest, Simulator } from '../simulators/simulator-core.ts';
import { startVertexSimulator } from '../simulators/vertex-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

interface AgentChannel {
  /** The channel's name in the gateway (also the usage rows' channel). */
  channel: string;
  /** What the test names the case by. */
  label: string;
  /** The gateway model the CLI asks for. */
  model: string;
}

/** The channels every CLI is run through, one case each. */
export const AGENT_CHANNELS: readonly AgentChannel[] = [
  { channel: 'openai', label: 'an OpenAI channel', model: 'gpt-4o-mini' },
  { channel: 'anthropic', label: 'an Anthropic channel', model: 'claude-sonnet-4-6' },
  { channel: 'gemini', label: 'a Gemini channel', model: 'gemini-2.5-flash' },
  { channel: 'bedrock', label: 'a Bedrock channel (Claude on Converse)', model: 'claude-haiku-4-5' },
  { channel: 'vertex-gemini', label: 'a Vertex channel (Gemini)', model: 'gemini-2.5-pro' },
  { channel: 'vertex-claude', label: 'a Vertex channel (Claude)', model: 'claude-opus-4-6' },
];

export interface CaseAccount { key: string; keyName: string; userName: string }

/** A further gateway model on one of the channels (a case of its own: its calls go under `extraAccount`). */
interface ExtraModel {
  channel: string;
  id: string;
  /** The model entry's settings besides its prices (context_window, capabilities, …). */
  settings: Record<string, unknown>;
}

export interface AgentGateway {
  gateway: TestGateway;
  /** The key (and its own user) for calls to the extra models. */
  extraAccount: CaseAccount;
  /** The simulator behind a channel. */
  simulatorOf(channel: string): Simulator;
  /** The key (and its own user) of the case run through a channel. */
  accountOf(channel: string): CaseAccount;
  dispose(): Promise<void>;
}

const PROJECT = 'agents-sim';
const SERVICE_EMAIL = 'agents@agents-sim.iam.gserviceaccount.com';
const PRICES = { input_per_mtok: 3, output_per_mtok: 15 };

/** Starts the simulators and a gateway with a channel of each family and, per channel, a key of its own user. */
export async function startAgentGateway(client: string, extraModels: readonly ExtraModel[] = []): Promise<AgentGateway> {
  const openai = await startOpenAISimulator({ apiKey: 'sk-agents-openai' });
  const anthropic = await startAnthropicSimulator({ apiKey: 'sk-agents-anthropic' });
  const gemini = await startGeminiSimulator({ apiKey: 'agents-gemini-key' });
  const bedrock = await startBedrockSimulator();
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const vertex = await startVertexSimulator({ project: PROJECT, serviceAccounts: { [SERVICE_EMAIL]: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString() } });
  const serviceAccount = JSON.stringify({
    type: 'service_account', project_id: PROJECT, private_key_id: 'k1', client_email: SERVICE_EMAIL, token_uri: 'https://oauth2.googleapis.com/token',
    private_key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const simulators: Record<string, Simulator> = { openai, anthropic, gemini, bedrock, 'vertex-gemini': vertex, 'vertex-claude': vertex };
  const vertexSettings = { project: PROJECT, location: 'us-east5', token_url: `${vertex.url}/token` };
  const accounts = new Map(AGENT_CHANNELS.map(({ channel }, i) => [channel, { keyName: `${client}-${channel}`, userName: `${client}-user-${i}`, key: testKey(`${client}${i}${channel}`) }]));
  const warmUpKey = testKey(`${client}warmup`);
  const extraAccount = { keyName: `${client}-extra`, userName: `${client}-extra-user`, key: testKey(`${client}extra`) };
  const modelsOf = (channel: string, models: string[]) => [...models, ...extraModels.filter((extra) => extra.channel === channel).map((extra) => extra.id)];
  const gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-agents-openai', models: modelsOf('openai', ['gpt-4o-mini']) },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-agents-anthropic', models: modelsOf('anthropic', ['claude-sonnet-4-6']) },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'agents-gemini-key', models: modelsOf('gemini', ['gemini-2.5-flash']) },
      {
        name: 'bedrock', type: 'bedrock', base_url: bedrock.url, region: 'us-east-1', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`,
        models: ['claude-haiku-4-5'], model_mapping: { 'claude-haiku-4-5': 'us.anthropic.claude-haiku-4-5-20251001-v1:0' },
      },
      { name: 'vertex-gemini', type: 'vertex', base_url: vertex.url, api_key: serviceAccount, vertex: vertexSettings, models: ['gemini-2.5-pro'] },
      { name: 'vertex-claude', type: 'vertex', base_url: vertex.url, api_key: serviceAccount, vertex: vertexSettings, models: ['claude-opus-4-6'] },
    ],
    // gpt-4o-mini does not reason: its entry says so (OpenAI refuses reasoning settings for it, and Codex sends them).
    models: AGENT_CHANNELS.map(({ model }) => ({ id: model, ...PRICES, ...(model === 'gpt-4o-mini' ? { capabilities: { reasoning: false } } : {}) }))
      .concat(extraModels.map((extra) => ({ id: extra.id, ...PRICES, ...extra.settings }))),
    users: [...accounts.values()].map((account) => ({ name: account.userName, balance: 10 })).concat({ name: `${client}-warmup`, balance: 10 }, { name: extraAccount.userName, balance: 10 }),
    keys: [...accounts.values()].map((account) => ({ name: account.keyName, key: account.key, user: account.userName }))
      .concat({ name: `${client}-warmup`, key: warmUpKey, user: `${client}-warmup` }, { name: extraAccount.keyName, key: extraAccount.key, user: extraAccount.userName }),
  });
  // The Vertex channels fetch their OAuth token on their first call, and the token request would take the
  // script step meant for a model call: one call each, under a key of its own, leaves the tokens cached.
  for (const model of ['gemini-2.5-pro', 'claude-opus-4-6']) {
    const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${warmUpKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'warm up' }] }),
    });
    if (!answer.ok) throw new Error(`warming ${model} up: ${answer.status} ${await answer.text()}`);
  }
  vertex.reset();
  return {
    gateway,
    extraAccount,
    simulatorOf: (channel) => simulators[channel]!,
    accountOf: (channel) => accounts.get(channel)!,
    async dispose() {
      await gateway.dispose();
      for (const simulator of [openai, anthropic, gemini, bedrock, vertex]) await simulator.close();
    },
  };
}

/** The model calls among a simulator's requests (not token counts, model lists or OAuth tokens). */
export function modelCalls(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.method === 'POST' && request.path !== '/token' && !/count_?tokens|countTokens|count-tokens/i.test(request.path));
}

/**
 * Every upstream model call of the case has its usage-log row (status 200, tokens counted, a cost), the
 * ledger charged the user exactly those costs, and the user's balance is the ledger's sum.
 */
export async function expectEveryCallBilled(gateway: TestGateway, keyName: string, userName: string, upstreamCalls: number, channelName: string): Promise<void> {
  await gateway.recorder.flush();
  const { db } = gateway.database;
  const rows = await db.selectFrom('usage_logs').selectAll().where('key_name', '=', keyName).orderBy('id').execute();
  const channel = await db.selectFrom('channels').select('id').where('name', '=', channelName).executeTakeFirstOrThrow();
  const summary = rows.map((row) => ({ status: row.status, channel: row.channel_id, error: row.error }));
  expect(rows, `usage rows ${JSON.stringify(summary)}`).toHaveLength(upstreamCalls);
  for (const row of rows) {
    expect(row.status, JSON.stringify(summary)).toBe(200);
    expect(row.channel_id).toBe(channel.id);
    expect(Number(row.input_tokens)).toBeGreaterThan(0);
    expect(Number(row.output_tokens)).toBeGreaterThan(0);
    expect(Number(row.cost_micros)).toBeGreaterThan(0);
  }
  const user = await db.selectFrom('users').select(['id', 'balance_micros']).where('name', '=', userName).executeTakeFirstOrThrow();
  const ledger = await db.selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).execute();
  // The wallet is charged per flushed batch of calls (one ledger row a batch), so the calls' costs add up
  // to the charges, and the balance is what the ledger says.
  const charged = ledger.filter((entry) => entry.kind === 'charge').reduce((sum, entry) => sum - Number(entry.amount_micros), 0);
  expect(charged).toBe(rows.reduce((sum, row) => sum + Number(row.cost_micros), 0));
  expect(Number(user.balance_micros)).toBe(ledger.reduce((sum, entry) => sum + Number(entry.amount_micros), 0));
}

/** The tokens the gateway billed the case's key for, summed over its usage rows (input, output with reasoning). */
export async function billedTokens(gateway: TestGateway, keyName: string): Promise<{ input: number; output: number }> {
  await gateway.recorder.flush();
  const rows = await gateway.database.db.selectFrom('usage_logs').select(['input_tokens', 'output_tokens']).where('key_name', '=', keyName).execute();
  return { input: rows.reduce((sum, row) => sum + Number(row.input_tokens), 0), output: rows.reduce((sum, row) => sum + Number(row.output_tokens), 0) };
}
