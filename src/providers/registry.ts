// Every provider the gateway knows, by channel type.
import { anthropicProvider } from './anthropic.ts';
import { bedrockProvider } from './bedrock.ts';
import { geminiProvider } from './gemini.ts';
import { openaiProvider } from './openai.ts';
import type { ProviderDefinition, ProviderSettings } from './provider-definition.ts';
import { cohereProvider, jinaProvider } from './rerank-providers.ts';
import { azureOpenAIProvider } from './azure-openai.ts';
import { vertexProvider } from './vertex.ts';

const providers = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  jina: jinaProvider,
  cohere: cohereProvider,
  bedrock: bedrockProvider,
} as const satisfies Record<string, ProviderDefinition>;

/** The channel's settings (settings_json) a provider reads: Bedrock's region, the clouds' own blocks. */
export type { ProviderSettings } from './provider-definition.ts';

// ── Cloud channels (issue 17): providers built from the channel's own settings (api-version, project, location) ──
const configuredProviders = {
  'azure-openai': (settings: ProviderSettings) => azureOpenAIProvider(settings.azure),
  'vertex': (settings: ProviderSettings) => {
    if (!settings.vertex?.project || !settings.vertex.location) throw new Error('a vertex channel needs vertex.project and vertex.location');
    return vertexProvider(settings.vertex);
  },
} as const satisfies Record<string, (settings: ProviderSettings) => ProviderDefinition>;

export type ProviderType = keyof typeof providers | keyof typeof configuredProviders;
export const providerTypes = [...Object.keys(providers), ...Object.keys(configuredProviders)] as [ProviderType, ...ProviderType[]];

export function getProvider(type: string, settings: ProviderSettings = {}): ProviderDefinition {
  const provider = (providers as Record<string, ProviderDefinition>)[type];
  if (provider) return provider;
  const configured = (configuredProviders as Record<string, (settings: ProviderSettings) => ProviderDefinition>)[type];
  if (!configured) throw new Error(`Unknown channel type '${type}'. Known types: ${providerTypes.join(', ')}`);
  return configured(settings);
}
