// Token counts for when an upstream reports no usage (a cut stream, a server that never counts):
// a call is never billed as zero just because the upstream stayed silent. gpt-tokenizer's counts are
// close to every provider's own for text; image bytes are not counted.
import { createRequire } from 'node:module';
import type { HubResponse } from '../hub/hub-response.ts';

// gpt-tokenizer's tables cost ~16 MB of heap (and ~50 MB RSS while they are built): they are loaded on the
// first count, which only calls whose upstream reports no usage need. Synchronous (its CommonJS build),
// so the estimators stay synchronous; the first count pays ~0.2 s once.
const requireModule = createRequire(import.meta.url);
let tokenizer: typeof import('gpt-tokenizer') | null = null;
function countTokens(text: string): number {
  tokenizer ??= requireModule('gpt-tokenizer') as typeof import('gpt-tokenizer');
  return tokenizer.countTokens(text);
}

/** Per-message framing that chat templates add, as OpenAI's cookbook counts it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

/** Texts longer than this are counted from evenly spaced samples, scaled: counting a 20 MB answer in
 * full holds the event loop for minutes, and a sample of 64K characters is within a few per cent. */
const FULL_COUNT_MAX_CHARS = 64 * 1024;
const SAMPLES = 8;

export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= FULL_COUNT_MAX_CHARS) return countTokens(text);
  const sampleChars = FULL_COUNT_MAX_CHARS / SAMPLES;
  const stride = Math.floor((text.length - sampleChars) / (SAMPLES - 1));
  let sampledTokens = 0;
  for (let i = 0; i < SAMPLES; i += 1) sampledTokens += countTokens(text.slice(i * stride, i * stride + sampleChars));
  return Math.ceil((sampledTokens / (sampleChars * SAMPLES)) * text.length);
}

/** The fields of a request body that carry its prompt, as its format declares them (its request facts). */
export interface PromptFields {
  /** Lists of turns (`messages`, `contents`): each turn adds the chat template's framing. */
  turns: readonly string[];
  /** Other fields whose text is prompt: system text, instructions, a completions prompt, tool definitions. */
  other: readonly string[];
}

/**
 * Estimates the prompt tokens of a request body from the fields its format names; tool definitions count
 * too, as they do upstream, and token-id prompts (completions, embeddings) are their own count. The one
 * prompt estimator: billing when an upstream reports no usage, count_tokens without an exact counter, and a
 * translated stream's message_start all read it through the format's request facts. The work is bounded by
 * the prompt's whole length, not per text, so a body of 100,000 small messages costs what one long one does.
 */
export function estimatePromptTokensIn(body: unknown, fields: PromptFields): number {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return estimateTextTokens(collectText(body));
  const values = body as Record<string, unknown>;
  let framing = 0;
  const texts: string[] = [];
  for (const name of fields.turns) {
    const turns = values[name];
    if (!Array.isArray(turns)) continue;
    framing += TOKENS_PER_REPLY;
    for (const turn of turns) {
      framing += TOKENS_PER_MESSAGE;
      texts.push(collectText(turn));
    }
  }
  for (const name of fields.other) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    if (isTokenIds(value)) framing += tokenIdCount(value);
    else texts.push(collectText(value));
  }
  return framing + estimateTextsTokens(texts);
}

/** Each text counted alone while they are short together; past FULL_COUNT_MAX_CHARS, the texts joined and
 * counted from evenly spaced samples (estimateTextTokens), so the work stays bounded. */
function estimateTextsTokens(texts: readonly string[]): number {
  let length = 0;
  for (const text of texts) length += text.length;
  if (length > FULL_COUNT_MAX_CHARS) return estimateTextTokens(texts.join(' '));
  let total = 0;
  for (const text of texts) total += estimateTextTokens(text);
  return total;
}

function isTokenIds(value: unknown): value is number[] | number[][] {
  return Array.isArray(value) && value.length > 0 && (typeof value[0] === 'number' || (Array.isArray(value[0]) && typeof value[0][0] === 'number'));
}

function tokenIdCount(value: number[] | number[][]): number {
  return value.reduce<number>((sum, item) => sum + (Array.isArray(item) ? item.length : 1), 0);
}

/** The output a whole hub answer delivered, as tokens: text, reasoning and tool-call arguments. */
export function estimateHubResponseTokens(response: Pick<HubResponse, 'content'>): number {
  let text = '';
  for (const part of response.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') text += part.text;
    else if (part.type === 'tool-call') text += part.name + part.argumentsJson;
  }
  return estimateTextTokens(text);
}

/** Every string in a JSON value, joined: close enough for prompts, whatever their shape. */
function collectText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(collectText).join(' ');
  if (value && typeof value === 'object') {
    let text = '';
    for (const [field, inner] of Object.entries(value)) {
      // Image and file bytes are not text tokens; counting base64 would wildly overcharge.
      if (field === 'image_url' || field === 'data' || field === 'source' || field === 'file_data' || field === 'inlineData') continue;
      text += ` ${collectText(inner)}`;
    }
    return text;
  }
  return '';
}
