// A channel as it serves one model. Most channels speak one wire format; a provider whose format depends
// on the model (Vertex AI: Gemini models in the Gemini format, Claude in Anthropic's) declares `formatFor`,
// and routing hands the hops a view of the channel in that model's format.
import type { ProviderDefinition } from '../providers/provider-definition.ts';
import { getFormat } from '../formats/index.ts';
import type { RoutedChannel } from './routed-channel.ts';

/** The supports_prefill setting of channels whose format depends on the model (channelForModel). */
const declaredPrefill = new WeakMap<RoutedChannel, boolean | undefined>();

export function rememberDeclaredPrefill(channel: RoutedChannel, declared: boolean | undefined): void {
  declaredPrefill.set(channel, declared);
}

const viewsByChannel = new WeakMap<RoutedChannel, Map<string, RoutedChannel>>();

/**
 * The channel as it serves one (requested) model. For a provider whose wire format depends on the model
 * (Vertex: Gemini or Claude), a view whose provider speaks that model's format, so the hops, the tester and
 * prefill continuation choose by it like for any channel; same id, keys and breaker. Others: the channel.
 */
export function channelForModel(channel: RoutedChannel, model: string): RoutedChannel {
  const formatFor = channel.provider.formatFor;
  if (!formatFor) return channel;
  let views = viewsByChannel.get(channel);
  if (!views) viewsByChannel.set(channel, views = new Map());
  let view = views.get(model);
  if (!view) {
    const name = formatFor(channel.modelMapping[model] ?? model);
    const provider: ProviderDefinition = { ...channel.provider, chatFormat: name };
    delete provider.formatFor;
    const format = getFormat(name);
    // Whether the model's format continues a trailing assistant message natively (Claude), unless declared.
    view = { ...channel, provider, chatFormat: format, supportsPrefill: declaredPrefill.get(channel) ?? format.supportsPrefill };
    views.set(model, view);
  }
  return view;
}
