// A gateway with Bedrock channels in front of two Bedrock simulators, shared by the bedrock end-to-end
// tests (test/e2e/bedrock-channel*.test.ts): a mapped model, a channel with a wrong secret, a primary and a
// secondary for failover (and another pair whose circuit opens after 3 failures), and one with temporary credentials and an inference-profile ARN.
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from './test-gateway.ts';

export const KEY = testKey('bedrockuser');
export const ADMIN_KEY = testKey('bedrockadmin');
export const AWS_KEY = `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:${BEDROCK_SIM_CREDENTIALS.secretAccessKey}`;
export const TEMPORARY = { accessKeyId: 'ASIATEMPORARY0000001', secretAccessKey: 'tempSecret/abc+def', sessionToken: 'FwoGZXIvYXdzEJr//////////wEaDH+token==' };
export const MODEL = 'claude-bedrock';
export const UPSTREAM_MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
export const GREETING = 'Hello from the Bedrock simulator';
// Per million tokens: 4 input, 1 cached, 5 cache write, 8 output: each kind of token costs a different amount.
const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 8 };

export interface BedrockGateway { sim: BedrockSimulator; spare: BedrockSimulator; gateway: TestGateway; dispose(): Promise<void> }

export async function startBedrockGateway(): Promise<BedrockGateway> {
  const sim = await startBedrockSimulator({ credentials: [BEDROCK_SIM_CREDENTIALS, TEMPORARY] });
  const spare = await startBedrockSimulator();
  const channel = { type: 'bedrock', base_url: sim.url, region: 'us-east-1', api_key: AWS_KEY };
  const gateway = await startTestGateway({
    channels: [
      { ...channel, name: 'bedrock', models: [MODEL], model_mapping: { [MODEL]: UPSTREAM_MODEL } },
      { ...channel, name: 'bedrock-wrong-secret', api_key: `${BEDROCK_SIM_CREDENTIALS.accessKeyId}:not-the-secret`, models: ['fragile-bedrock'] },
      { ...channel, name: 'bedrock-primary', models: ['ha-bedrock'], priority: 1 },
      { ...channel, name: 'bedrock-secondary', base_url: spare.url, models: ['ha-bedrock'], priority: 0 },
      { ...channel, name: 'breaker-primary', models: ['breaker-bedrock'], priority: 1 },
      { ...channel, name: 'breaker-secondary', base_url: spare.url, models: ['breaker-bedrock'], priority: 0 },
      { ...channel, name: 'bedrock-temporary', api_key: `${TEMPORARY.accessKeyId}:${TEMPORARY.secretAccessKey}:${TEMPORARY.sessionToken}`, models: ['temp-bedrock'], model_mapping: { 'temp-bedrock': 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3' } },
    ],
    models: [{ id: MODEL, ...PRICES }, { id: 'fragile-bedrock', ...PRICES }, { id: 'ha-bedrock', ...PRICES }, { id: 'temp-bedrock', ...PRICES }, { id: 'breaker-bedrock', ...PRICES }],
    users: [{ name: 'bea', balance: 100 }, { name: 'root', role: 'admin', balance: 1 }],
    keys: [{ name: 'bedrock', key: KEY, user: 'bea' }, { name: 'admin', key: ADMIN_KEY, user: 'root' }],
  }, { env: { BREAKER_FAILURES: '3', BREAKER_COOLDOWN_MS: '60000' } });
  return {
    sim, spare, gateway,
    async dispose() {
      await gateway.dispose();
      await sim.close();
      await spare.close();
    },
  };
}
