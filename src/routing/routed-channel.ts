// A channel as routing hands it to the relay: its provider, its chat format, where it lives, its keys,
// which models and groups it serves, and its settings. Built by the routing table (routing-table.ts).
import type { FormatConverters } from '../hub/hub-format.ts';
import type { ProviderDefinition } from '../providers/provider-definition.ts';

export interface ChannelTimeouts {
  connectMs?: number;
  headersMs?: number;
  firstTokenMs?: number;
  idleMs?: number;
}

export interface RoutedChannel {
  id: number;
  name: string;
  type: string;
  provider: ProviderDefinition;
  /**
   * The wire format the channel's chat is served in, as the format itself (its converters and
   * declarations), not its name: the provider's own, or one the channel's settings chose among the
   * provider's `otherChatFormats` (a model served only through OpenAI's /v1/responses).
   */
  chatFormat: FormatConverters;
  /** Scheme, host and port of the base URL, for the pooled agent. */
  origin: string;
  /** Any path of the base URL (a proxy prefix), without a trailing slash; usually empty. */
  basePath: string;
  apiKeys: string[];
  models: ReadonlySet<string>;
  modelMapping: Readonly<Record<string, string>>;
  groups: ReadonlySet<string>;
  priority: number;
  weight: number;
  timeouts: ChannelTimeouts;
  /** Whether a mid-stream failure elsewhere may be continued here with an assistant prefill. */
  supportsPrefill: boolean;
  /** Operations its type has but this upstream lacks (`unsupported_endpoints`); absent when none. */
  unsupportedOperations?: ReadonlySet<string>;
  /**
   * `http2: true`: HTTP/2 to the upstream (h2 by ALPN over TLS, h2c with prior knowledge over http);
   * `false`: HTTP/1.1 only; absent: undici's default (an https server may choose h2).
   */
  http2?: boolean;
  /**
   * Whether a turn of the gateway's Responses WebSocket mode goes over the upstream's own Responses WebSocket
   * (the channel's `responses_websocket`, else its type's `responsesWebSocket`: OpenAI); absent: never.
   */
  responsesWebSocket?: boolean;
}
