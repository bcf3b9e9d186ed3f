// Every provider the gateway knows, by channel type.
import { anthropicProvider } from './anthropic.ts';
import { bedrockProvider } from './bedrock.ts';
import { geminiProvider } from './gemini.ts';
import { openaiProvider } from './openai.ts';
import type { ProviderDefinition } from './provider-definition.ts';
import { cohereProvider, jinaProvider } from './rerank-providers.ts';

const providers = {
  openai: openaiProvider,
  anthropic: anthropicProvider,
  gemini: geminiProvider,
  jina: jinaProvider,
  cohere: cohereProvider,
  bedrock: bedrockProvider,
} as const satisfies Record<string, ProviderDefinition>;

export type ProviderType = keyof typeof providers;
export const providerTypes = Object.keys(providers) as [ProviderType, ...ProviderType[]];

export function getProvider(type: string): ProviderDefinition {
  const provider = (providers as Record<string, ProviderDefinition>)[type];
  if (!provider) throw new Error(`Unknown channel type '${type}'. Known types: ${providerTypes.join(', ')}`);
  return provider;
}
