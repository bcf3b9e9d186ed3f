// Every channel type the gateway knows: a provider entry each (provider-entry.ts), built in or registered at
// run time with registerProvider (a plugin, a test's toy provider), which may bring the wire format its
// upstream speaks. The config file's channel schema, the admin API and the dashboard's channel form read
// the types and their settings from here.
import type { FormatConverters } from '../hub/hub-format.ts';
import { hasFormat, registerFormat } from '../formats/index.ts';
import { anthropicProvider } from './anthropic.ts';
import { azureOpenAIEntry } from './azure-openai.ts';
import { bedrockEntry } from './bedrock.ts';
import { geminiProvider } from './gemini.ts';
import { openaiProvider } from './openai.ts';
import type { ProviderDefinition } from './provider-definition.ts';
import { fixedProvider, type ProviderEntry } from './provider-entry.ts';
import { cohereProvider, jinaProvider } from './rerank-providers.ts';
import { vertexEntry } from './vertex.ts';

export type { ProviderEntry } from './provider-entry.ts';

const entries = new Map<string, ProviderEntry>([
  fixedProvider(openaiProvider),
  fixedProvider(anthropicProvider),
  // Google's docs show the version in the base URL (…/v1beta); the gateway writes it itself.
  fixedProvider(geminiProvider, { baseUrlVersionSuffix: /\/v1(?:beta|alpha)?$/ }),
  fixedProvider(jinaProvider),
  fixedProvider(cohereProvider),
  bedrockEntry,
  azureOpenAIEntry,
  vertexEntry,
].map((entry) => [entry.type, entry]));

let generation = 0;

/** Every channel type, in registration order. */
export function providerTypes(): string[] {
  return [...entries.keys()];
}

/** Every entry, in registration order. */
export function providerEntries(): ProviderEntry[] {
  return [...entries.values()];
}

/** Counts registrations, so what is derived from the entries (the channel schema) knows when to rebuild. */
export function providerRegistryGeneration(): number {
  return generation;
}

export function getProviderEntry(type: string): ProviderEntry {
  const entry = entries.get(type);
  if (!entry) throw new Error(`Unknown channel type '${type}'. Known types: ${providerTypes().join(', ')}`);
  return entry;
}

/**
 * A channel's provider, built from its settings (the fields its type's block declares, as the config file
 * writes them). The settings must have passed the block's checks (the channel schema does that on save).
 */
export function getProvider(type: string, settings: Record<string, unknown> = {}): ProviderDefinition {
  return getProviderEntry(type).create(settings);
}

/**
 * Adds a channel type at run time, before the gateway starts, with the wire format its upstream speaks when
 * the gateway does not know it yet: `registerProvider(toyProvider, toyChatFormat)`. A type or format
 * already registered is refused.
 */
export function registerProvider(entry: ProviderEntry, format?: FormatConverters): void {
  if (entries.has(entry.type)) throw new Error(`A channel type named '${entry.type}' is already registered.`);
  if (format) registerFormat(format);
  if (!hasFormat(entry.chatFormat)) throw new Error(`The channel type '${entry.type}' speaks '${entry.chatFormat}', which is not a registered wire format.`);
  entries.set(entry.type, entry);
  generation++;
}
