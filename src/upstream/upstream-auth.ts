// The one place an upstream request's headers are finished: the provider's defaults, then the hop's own,
// then the provider's authentication with the channel's next key (keys are used in turn). Every upstream
// call goes through here (send-upstream.ts, the channel tester through it, the realtime socket).
import type { RoutedChannel } from '../routing/routing-table.ts';
import { nextUpstreamKey } from '../routing/choose-channel.ts';

type UpstreamHeaders = Record<string, string>;

/** Synchronous unless the provider's authentication is (request signing, token refresh). */
export function authenticatedHeaders(channel: RoutedChannel, method: string, path: string, headers: UpstreamHeaders, body: string | Buffer | null): UpstreamHeaders | Promise<UpstreamHeaders> {
  const provider = channel.provider;
  const merged = provider.defaultHeaders ? { ...provider.defaultHeaders, ...headers } : headers;
  const auth = provider.authenticate({ method, url: channel.origin + channel.basePath + path, headers: merged, body }, nextUpstreamKey(channel));
  return auth instanceof Promise ? auth.then((credentials) => ({ ...merged, ...credentials })) : { ...merged, ...auth };
}
