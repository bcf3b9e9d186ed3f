// Deterministic content shared by the simulators, so tests can compute the exact expected answer:
// - text: `Hello from the <Provider> simulator: you said "<last user text>"` (greeting());
// - tokens: one per whitespace-separated word (countWords()); stream pieces are one word each with the
//   following whitespace (splitIntoPieces());
// - tool-call trigger (weatherCities()): tools offered and the last user text contains "weather"; one call
//   per city after "in", split on "and" and commas ("weather in Paris and Tokyo" → Paris, Tokyo; no "in"
//   → Paris), each calling the first offered tool with `{"city": "<city>"}`;
// - after tool results: `The tool said: <result>` (results joined with "; ");
// - thinking: `Thinking about "<last user text>".` (thinkingText()), signed by thinkingSignature();
// - a scripted tool call (scriptedToolCall()): the named tool with the script's arguments, when offered;
// - embeddings: simulatedEmbedding(text, dimensions), a unit vector of float32 values from a hash of the text.
import type { ScriptedToolCall } from './simulator-script.ts';

/**
 * The answer to a `toolCall` script step (simulator-script.ts): the call when the request offers a tool of
 * that name, otherwise a text naming the tools it does offer. Null when the step asks for no call.
 */
export function scriptedToolCall(wanted: ScriptedToolCall | undefined, offered: readonly string[]): ScriptedToolCall | { text: string } | null {
  if (wanted === undefined) return null;
  if (offered.includes(wanted.name)) return wanted;
  return { text: `No tool named "${wanted.name}" was offered (offered: ${offered.join(', ') || 'none'})` };
}

export function greeting(provider: string, said: string): string {
  return `Hello from the ${provider} simulator: you said "${said}"`;
}

/** What a simulated hosted web search finds for a question: one page, and an answer citing it. */
interface WebSearchFinding {
  query: string;
  url: string;
  title: string;
  /** The answer's text; all of it cites the page. */
  answer: string;
}

/** A question asks the simulators' hosted web search when it mentions "search". */
export const asksForSearch = (said: string): boolean => /\bsearch\b/i.test(said);

export function webSearchFinding(said: string): WebSearchFinding {
  const slug = said.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'page';
  return { query: said, url: `https://example.org/${slug}`, title: `About ${said}`, answer: `The web says: ${said}.` };
}

/** What a simulated hosted web fetch reads: each http(s) URL in the question; a host under .invalid cannot be reached. */
interface WebFetchFinding {
  url: string;
  reached: boolean;
  /** The page's text, as the provider puts it before the model. */
  page: string;
}

export const urlsIn = (said: string): string[] => [...said.matchAll(/https?:\/\/[^\s"'<>]+[^\s"'<>.,;:!?)]/g)].map((match) => match[0]);

export function webFetchFinding(url: string): WebFetchFinding {
  const reached = !/^https?:\/\/[^/]*\.invalid(?:[:/]|$)/i.test(url);
  return { url, reached, page: reached ? `The page at ${url} reads: the fetched page says hello.` : '' };
}

/** The answer after reading pages: what each said, or that it could not be read. */
export function webFetchAnswer(found: WebFetchFinding[]): string {
  return found.map((page) => (page.reached ? `Read ${page.url}: the fetched page says hello.` : `Could not read ${page.url}.`)).join(' ');
}

export function toolResultAnswer(results: string[]): string {
  return `The tool said: ${results.join('; ')}`;
}

/** Text said before the tool calls when the prompt asks for it with "(announce)", as models often do. */
export function announcement(said: string): string | null {
  return /\(announce\)/i.test(said) ? 'Let me look that up.' : null;
}

export function thinkingText(said: string): string {
  return `Thinking about "${said}".`;
}

/** A deterministic stand-in for the opaque signature of a thinking block. */
export function thinkingSignature(thinking: string): string {
  return Buffer.from(`sim-signature:${hashText(thinking).toString(16)}`).toString('base64');
}

const WORD = /\S+/g;

export function countWords(text: string): number {
  let count = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) count++;
  return count;
}

/** Splits a reply into stream pieces of a word each, keeping the whitespace after it. */
export function splitIntoPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [text];
}

/** Splits a string into `parts` pieces of about the same length (for partial tool-call arguments). */
export function splitEvenly(text: string, parts: number): string[] {
  const size = Math.ceil(text.length / parts) || 1;
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [''];
}

/** The cities a weather question asks about, or null when it is not one. */
export function weatherCities(said: string): string[] | null {
  if (!/weather/i.test(said)) return null;
  const after = /\bin\s+(.+)$/i.exec(said)?.[1];
  if (after === undefined) return ['Paris'];
  const cities = after.split(/\s+and\s+|,\s*/).map((city) => city.replace(/[?.!]+$/, '').trim()).filter(Boolean);
  return cities.length > 0 ? cities : ['Paris'];
}

interface ShapedText { text: string; stopSequence: string | null; truncated: boolean }

/**
 * Applies stop sequences (cut before the first one found) and then a token limit (keep the first
 * `maxTokens` words) to a reply.
 */
export function shapeText(text: string, stops: readonly string[] | undefined, maxTokens: number | undefined): ShapedText {
  let stopSequence: string | null = null;
  if (stops) {
    let at = -1;
    for (const stop of stops) {
      if (stop === '') continue;
      const index = text.indexOf(stop);
      if (index >= 0 && (at < 0 || index < at)) {
        at = index;
        stopSequence = stop;
      }
    }
    if (at >= 0) text = text.slice(0, at);
  }
  if (maxTokens !== undefined && maxTokens >= 0 && countWords(text) > maxTokens) {
    const pieces = splitIntoPieces(text).slice(0, maxTokens);
    return { text: pieces.join('').trimEnd(), stopSequence: null, truncated: true };
  }
  return { text, stopSequence, truncated: false };
}

/** A stop parameter given as a string or a list, as a list. */
export function stopList(stop: unknown): string[] | undefined {
  if (typeof stop === 'string') return [stop];
  if (Array.isArray(stop)) return stop.filter((item): item is string => typeof item === 'string');
  return undefined;
}

/** FNV-1a over the UTF-16 code units. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A unit-length vector of float32-representable numbers derived only from the text and the dimensions. */
export function simulatedEmbedding(text: string, dimensions: number): number[] {
  let state = hashText(text) || 1;
  const values = new Array<number>(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const value = ((state >>> 0) / 0xffffffff) * 2 - 1;
    values[i] = value;
    norm += value * value;
  }
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) values[i] = Math.fround((values[i] as number) / norm);
  return values;
}

/** Little-endian float32 bytes in base64, as OpenAI's `encoding_format: "base64"`. */
export function float32Base64(values: number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) bytes.writeFloatLE(values[i] as number, i * 4);
  return bytes.toString('base64');
}
