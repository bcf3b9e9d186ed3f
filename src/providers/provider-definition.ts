// An upstream described as data: its wire format, where it lives, how to call it and how to authenticate.
// Built for each channel from its own settings by its type's entry (provider-entry.ts, registry.ts).
import type { FormatName } from '../formats/index.ts';

/** A wire format: one of the registered formats (src/formats/index.ts). */
export type WireFormat = FormatName;

/** Operations a channel may serve; each provider lists the ones it has (declared with the hub's vocabulary). */
import type { Operation } from '../hub/hub-operations.ts';

export { operations, type Operation } from '../hub/hub-operations.ts';

export interface ProviderDefinition {
  type: string;
  /** The wire format of its chat-like endpoint. */
  chatFormat: WireFormat;
  /**
   * Other wire formats a channel of this type may be set to serve chat in (a channel's `chat_format`), for
   * upstreams that serve some models through one endpoint only: OpenAI's `openai-responses`.
   */
  otherChatFormats?: readonly WireFormat[];
  /**
   * The wire format of one upstream model, when it depends on the model (Vertex AI serves Gemini models in
   * the Gemini format and Claude models in Anthropic's); routing resolves it per model
   * (routing-table.ts, channelForModel). Absent: every model speaks `chatFormat`.
   */
  formatFor?(upstreamModel: string): WireFormat;
  /** The base URL of a channel without its own base_url ('' when every channel must give one). */
  defaultBaseUrl: string;
  /** Path (with query) below the base URL for an operation on an upstream model id; null when unsupported. */
  path(operation: Operation, upstreamModel: string): string | null;
  /**
   * The body as this upstream wants it, from the body its wire format writes (Claude on Vertex: no `model`,
   * an `anthropic_version` field). Applied before authentication, so a signature covers the final bytes.
   */
  prepareBody?(path: string, body: string | Buffer): string | Buffer;
  /**
   * How many texts one embeddings call to this upstream model may carry, when it is limited (Vertex's
   * embedContent models embed one content per call); absent or undefined: no limit beyond the endpoint's.
   */
  embeddingInputsPerCall?(upstreamModel: string): number | undefined;
  /** Headers every request carries unless the hop sets its own (Anthropic's API version). */
  defaultHeaders?: Readonly<Record<string, string>>;
  /**
   * The headers that authenticate one request with one upstream key. It sees the whole request, and may be
   * asynchronous, so request signing (AWS SigV4) and short-lived tokens (Vertex OAuth) fit here; a plain
   * key answers synchronously and costs the hot path no extra tick. Applied in src/upstream/upstream-auth.ts.
   */
  authenticate(request: UpstreamRequestToSign, apiKey: string): Record<string, string> | Promise<Record<string, string>>;
  /**
   * The upstream refused what `authenticate` sent for this key (a 401/403): drop anything derived from it
   * (a cached access token revoked early), so the next call, or the channel's re-test, starts afresh.
   */
  forgetCredential?(apiKey: string): void;
  /**
   * Where the upstream tells its account's balance, as OpenAI's old billing API did and OpenAI-compatible
   * resellers (new-api, one-api) still do: a subscription's hard limit minus the usage since a date, or a
   * credit summary. Absent: the type has no such API (the admin page says "not available").
   */
  billing?: { subscription: string; usage: string; creditGrants: string };
  /**
   * The upstream speaks the Responses API's WebSocket mode (OpenAI's `wss://…/v1/responses`): a channel of
   * this type serves the gateway's WebSocket turns over it unless its `responses_websocket` says false.
   */
  responsesWebSocket?: boolean;
}

/** What an upstream request looks like when it is authenticated: everything but the credentials. */
export interface UpstreamRequestToSign {
  method: string;
  /** The full URL: origin, base path and operation path with query. */
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The body; null when there is none or it is streamed from disk (multipart uploads). */
  body: string | Buffer | null;
}

/** `Authorization: Bearer <key>`: OpenAI and every compatible server. */
export const bearerAuthentication = (_request: UpstreamRequestToSign, apiKey: string): Record<string, string> => ({ authorization: `Bearer ${apiKey}` });
