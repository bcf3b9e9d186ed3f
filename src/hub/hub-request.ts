// The canonical request every wire format converts to and from. Only what at least two formats share is
// modelled here; the rest rides in `extensions`, keyed by the format it came from.

/** The wire formats the gateway speaks, derived from the formats registry (src/formats/index.ts). */

export interface HubTextPart {
  type: 'text';
  text: string;
  /** In an answer: the web sources this text rests on (a provider's hosted web search). */
  citations?: HubCitation[];
}

/** A web source a piece of answer text cites. Indices are UTF-16 offsets into its text part; absent: all of it. */
export interface HubCitation {
  url: string;
  title?: string;
  citedText?: string;
  startIndex?: number;
  endIndex?: number;
}

/**
 * An image as bytes or as a URL. A URL is only sent on to formats that fetch URLs themselves; for the
 * others the relay fetches and inlines it first (collectImageUrls / inlineImages in hub-images.ts).
 */
export type HubImageSource =
  | { kind: 'base64'; data: string; mediaType: string }
  | { kind: 'url'; url: string; mediaType?: string };

export interface HubImagePart {
  type: 'image';
  source: HubImageSource;
  /** OpenAI's resolution hint; the other formats have none. */
  detail?: 'auto' | 'low' | 'high';
}

/**
 * A document (a PDF, or another file type the target takes) as bytes or as a URL. Like images, a URL is
 * fetched and inlined by the relay for targets that only take bytes (collectMediaUrls in hub-images.ts).
 */
export type HubDocumentSource =
  | { kind: 'base64'; data: string; mediaType: string }
  | { kind: 'url'; url: string; mediaType?: string };

export interface HubDocumentPart {
  type: 'document';
  source: HubDocumentSource;
  /** The file's name as the caller gave it (OpenAI's `filename`); formats without one drop it. */
  filename?: string;
}

export interface HubToolCallPart {
  type: 'tool-call';
  id: string;
  name: string;
  /** The arguments exactly as the model produced them: a JSON text, not parsed, so nothing is reordered. */
  argumentsJson: string;
  /** Gemini's thoughtSignature on a functionCall part: it must be sent back with the call. */
  signature?: string;
}

export interface HubToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  /** Gemini needs the function name; formats that omit it get it from the matching call (see tool-names). */
  name?: string;
  content: string | Array<HubTextPart | HubImagePart>;
  isError: boolean;
}

export interface HubReasoningPart {
  type: 'reasoning';
  text: string;
  /** Anthropic's thinking signature or Gemini's thoughtSignature: opaque, sent back unchanged. */
  signature?: string;
  /** Anthropic's redacted_thinking data: opaque and encrypted; `text` is then empty. */
  redactedData?: string;
  /**
   * The apiFamily of the upstream that signed it (`anthropic` (Claude anywhere), `google`), `unsigned` for reasoning no
   * one signed; absent when unknown. Only an upstream of that family is sent the signature (hub-signatures.ts).
   */
  signatureFamily?: string;
}

export type HubUserContent = HubTextPart | HubImagePart | HubDocumentPart;
export type HubAssistantContent = HubTextPart | HubReasoningPart | HubToolCallPart;

export interface HubUserMessage {
  role: 'user';
  content: HubUserContent[];
}

export interface HubAssistantMessage {
  role: 'assistant';
  content: HubAssistantContent[];
}

/** Results of earlier tool calls. Formats that put them in a user turn (Anthropic, Gemini) split that turn. */
export interface HubToolMessage {
  role: 'tool';
  content: HubToolResultPart[];
}

/**
 * A system (or developer) message inside the conversation, where the caller put it (Anthropic's and OpenAI's
 * `role: "system"` after the first turn). Leading system text goes to HubRequest.system instead; formats
 * with one system prompt only fold these into it (foldSystemMessages in hub-system-messages.ts).
 */
export interface HubSystemMessage {
  role: 'system';
  content: HubTextPart[];
}

export type HubMessage = HubUserMessage | HubAssistantMessage | HubToolMessage | HubSystemMessage;

export interface HubTool {
  name: string;
  description?: string;
  /** A JSON Schema object describing the arguments. */
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type HubWebTool = 'web-search' | 'web-fetch';

export type HubToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

export type HubResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; description?: string; schema: Record<string, unknown>; strict?: boolean };

export type HubReasoningEffort = 'low' | 'medium' | 'high';

export interface HubReasoningConfig {
  /** True when the caller turned reasoning off explicitly (effort none, thinking disabled, budget 0). */
  disabled?: boolean;
  effort?: HubReasoningEffort;
  budgetTokens?: number;
  /** Whether the caller wants the reasoning text (or its summary) back. */
  includeThoughts?: boolean;
}

export interface HubRequest {
  model: string;
  system: HubTextPart[];
  messages: HubMessage[];
  tools: HubTool[];
  /**
   * Web tools the provider runs itself, asked for in the client's own way (Anthropic's web_search and
   * web_fetch server tools, Gemini's googleSearch and urlContext): each target that has one turns it on in
   * its own way; the others leave it out with a warning (hub-web-tools.ts).
   */
  webTools?: HubWebTool[];
  toolChoice?: HubToolChoice;
  /** False when the caller asked for at most one tool call per turn. */
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  seed?: number;
  stopSequences: string[];
  responseFormat?: HubResponseFormat;
  reasoning?: HubReasoningConfig;
  stream: boolean;
  /** OpenAI's stream_options.include_usage: the client wants a usage chunk at the end of a stream. */
  streamIncludeUsage?: boolean;
  user?: string;
  metadata?: Record<string, string>;
  /**
   * The trailing assistant message is text already delivered, for the upstream to continue (the relay's
   * mid-stream continuation). Anthropic continues such a message natively; OpenAI-compatible servers that
   * can are told so (vLLM's continue_final_message).
   */
  continuesLastMessage?: boolean;
  /**
   * Top-level fields a format could not map into the hub, by the name of the format they came from. A converter
   * writing that same format puts them back (without overriding what it set itself); others ignore them.
   */
  extensions: Partial<Record<string, Record<string, unknown>>>;
}
