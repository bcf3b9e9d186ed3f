// The gateway in front of one simulator of each chat family (OpenAI, Anthropic, Gemini), with the priced
// models `gpt-up`, `claude-up` and `gemini-up` (or the Gemini models a test names), one user and one key:
// the setup every coding-agent end-to-end file starts from.
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, type TestGateway } from './test-gateway.ts';

export interface ThreeFamilies {
  openai: OpenAISimulator;
  anthropic: AnthropicSimulator;
  gemini: GeminiSimulator;
  gateway: TestGateway;
  /** Forgets what each simulator was scripted with and received. */
  reset(): void;
  close(): Promise<void>;
}

interface ThreeFamilyOptions {
  user: { name: string; balance: number };
  key: { name: string; key: string };
  /** Gateway model id → Gemini upstream model; default `gemini-up` → gemini-2.5-flash. */
  geminiModels?: Record<string, string>;
}

export async function startThreeFamilies(options: ThreeFamilyOptions): Promise<ThreeFamilies> {
  const openai = await startOpenAISimulator({ apiKey: 'sk-up-openai' });
  const anthropic = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  const gemini = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  const geminiModels = options.geminiModels ?? { 'gemini-up': 'gemini-2.5-flash' };
  const gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-up-openai', models: ['gpt-up'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'up-gemini-key', models: Object.keys(geminiModels), model_mapping: geminiModels },
    ],
    models: [
      { id: 'gpt-up', input_per_mtok: 1, output_per_mtok: 2 },
      { id: 'claude-up', input_per_mtok: 3, output_per_mtok: 15 },
      ...Object.keys(geminiModels).map((id) => ({ id, input_per_mtok: 0.3, output_per_mtok: 2.5 })),
    ],
    users: [options.user],
    keys: [{ name: options.key.name, key: options.key.key, user: options.user.name }],
  });
  return {
    openai, anthropic, gemini, gateway,
    reset() {
      openai.reset();
      anthropic.reset();
      gemini.reset();
    },
    async close() {
      await gateway.dispose();
      await openai.close();
      await anthropic.close();
      await gemini.close();
    },
  };
}
