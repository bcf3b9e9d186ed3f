// The usage matrix as a function over channels (issue 27): every client format (OpenAI chat, OpenAI
// Responses, Anthropic Messages, Gemini generateContent, each through its official SDK) × each channel it is
// given × streamed or not × the upstream reporting usage (with cached and cache-write tokens) or omitting it;
// then the same clients with an output limit, an answer without usage counted above it, and (for channels
// whose translation sends no limit of its own) without one. In every cell the usage-log row holds the tokens
// that were delivered and the wallet is charged the row's cost: reported counts are kept (cache reads and
// writes priced apart), and an upstream that says nothing is counted from what was sent and delivered, never
// billed as zero. usage-matrix.test.ts runs it through the built-in channel types, usage-matrix-toy.test.ts
// through a fifth format registered at run time: the cells and their checks are the same.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { countWords } from '../simulators/simulator-answers.ts';
import type { ScriptStep } from '../simulators/simulator-script.ts';
import type { TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';

export const PROMPT = 'Please tell me something about the quiet harbour town';
const CACHED = 2;
const CACHE_WRITE = 1;
// Per million tokens, in USD: 4 input, 1 cached, 5 cache write, 8 output, so that a token of each kind costs
// a different whole number of micro-USD and the cost shows which kind each token was billed as.
export const PRICES = { input_per_mtok: 4, cached_input_per_mtok: 1, cache_write_per_mtok: 5, output_per_mtok: 8 };

export interface MatrixChannel {
  /** The channel's type, as the cells' labels name it. */
  type: string;
  /** A model only this channel serves, priced at PRICES. */
  model: string;
  /** Queues the upstream's behaviour for the next call (test/simulators/simulator-script.ts). */
  script(step: ScriptStep): void;
  /** Whether this upstream has a cache-write count to report. */
  reportsCacheWrite: boolean;
  /**
   * Whether the cells without an output limit (and a client leaving mid-stream) run through it: a call that
   * states no limit reaches its upstream with none below a 40-word answer (none at all, or the 4,096 an
   * Anthropic translation must write), so a counted answer without usage stands uncapped.
   */
  uncappedCells: boolean;
}

/** Where the matrix runs: the gateway, and the key (its name and owner) every call is made with. */
export interface MatrixSetup {
  gateway(): TestGateway;
  key: string;
  keyName: string;
  user: string;
}

/** What the client received: the answer text, and the usage it was shown (null when it was shown none). */
interface Delivered {
  text: string;
  usage: { input: number; output: number } | null;
}

/** `limit`: the request's output limit (max_tokens and its kin), 100 unless given; null sends none. */
type Client = (model: string, stream: boolean, limit?: number | null) => Promise<Delivered>;

/** The limit field of each client format, or nothing when `limit` is null. */
const limitOf = <K extends string>(field: K, limit: number | null | undefined) => (limit === null ? {} : { [field]: limit ?? 100 }) as Partial<Record<K, number>>;

type MatrixClient = { name: string; call: Client };

/** The four client formats through their official SDKs, against the setup's gateway and key. */
export function matrixClients(setup: MatrixSetup): MatrixClient[] {
  const KEY = setup.key;
  const gateway = {
    get url() {
      return setup.gateway().url;
    },
  };
  return [
    {
      name: 'openai chat',
      async call(model, stream, limit) {
        const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
        if (!stream) {
          const completion = await client.chat.completions.create({ model, ...limitOf('max_tokens', limit), messages });
          return { text: completion.choices[0]!.message.content ?? '', usage: completion.usage ? { input: completion.usage.prompt_tokens, output: completion.usage.completion_tokens } : null };
        }
        let text = '';
        let usage: Delivered['usage'] = null;
        for await (const chunk of await client.chat.completions.create({ model, ...limitOf('max_tokens', limit), messages, stream: true, stream_options: { include_usage: true } })) {
          text += chunk.choices[0]?.delta.content ?? '';
          if (chunk.usage) usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
        }
        return { text, usage };
      },
    },
    {
      name: 'openai responses',
      async call(model, stream, limit) {
        const client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
        if (!stream) {
          const response = await client.responses.create({ model, input: PROMPT, ...limitOf('max_output_tokens', limit) });
          return { text: response.output_text, usage: response.usage ? { input: response.usage.input_tokens, output: response.usage.output_tokens } : null };
        }
        let text = '';
        let usage: Delivered['usage'] = null;
        for await (const event of await client.responses.create({ model, input: PROMPT, ...limitOf('max_output_tokens', limit), stream: true })) {
          if (event.type === 'response.output_text.delta') text += event.delta;
          if (event.type === 'response.completed' && event.response.usage) usage = { input: event.response.usage.input_tokens, output: event.response.usage.output_tokens };
        }
        return { text, usage };
      },
    },
    {
      name: 'anthropic messages',
      async call(model, stream, limit) {
        const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
        // Anthropic requires max_tokens: a call without a limit is not made with this client.
        const params = { model, max_tokens: limit ?? 100, messages: [{ role: 'user' as const, content: PROMPT }] };
        // Anthropic's input_tokens leaves cache reads and writes out; the whole prompt is the three together.
        const shown = (usage: Partial<Anthropic.Usage> | null | undefined) =>
          usage ? (usage.input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) : 0;
        if (!stream) {
          // A same-format answer is the upstream's bytes: without usage when the upstream sent none.
          const message = await client.messages.create(params);
          const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
          return { text, usage: message.usage ? { input: shown(message.usage), output: message.usage.output_tokens } : null };
        }
        // The raw events, since the SDK's message accumulator needs the usage a passthrough may not carry.
        let text = '';
        let usage: Delivered['usage'] = null;
        for await (const event of await client.messages.create({ ...params, stream: true })) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
          if (event.type === 'message_delta' && event.usage) usage = { input: shown(event.usage as Partial<Anthropic.Usage>), output: event.usage.output_tokens };
        }
        return { text, usage };
      },
    },
    {
      name: 'gemini generateContent',
      async call(model, stream, limit) {
        const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
        const params = { model, contents: PROMPT, config: limitOf('maxOutputTokens', limit) };
        if (!stream) {
          const response = await client.models.generateContent(params);
          const meta = response.usageMetadata;
          return { text: response.text ?? '', usage: meta ? { input: meta.promptTokenCount ?? 0, output: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0) } : null };
        }
        let text = '';
        let usage: Delivered['usage'] = null;
        for await (const chunk of await client.models.generateContentStream(params)) {
          text += chunk.text ?? '';
          const meta = chunk.usageMetadata;
          if (meta?.candidatesTokenCount !== undefined) usage = { input: meta.promptTokenCount ?? 0, output: meta.candidatesTokenCount + (meta.thoughtsTokenCount ?? 0) };
        }
        return { text, usage };
      },
    },
  ];
}


/** The matrix's describe blocks, for the setup's channels (the setup's gateway serves each channel's model at PRICES). */
export function usageMatrixSuite(setup: MatrixSetup, channels: () => MatrixChannel[]): void {
  const clients = matrixClients(setup);
  const balance = () => flushedBalance(setup.gateway(), setup.user);
  const lastRow = () => lastUsageRow(setup.gateway(), setup.keyName);
  // The channels are known when the test file is collected (their simulators start later, in beforeAll).
  const known = channels();

  const cells = clients.flatMap((client) => known.flatMap((channel) => [false, true].flatMap((stream) => [true, false].map((reports) => ({
    label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}, upstream ${reports ? 'reports usage' : 'omits usage'}`,
    client,
    channel,
    stream,
    reports,
  })))));

  describe('usage matrix', () => {
    it.each(cells)('$label', async ({ client, channel, stream, reports }) => {
      const cacheWrite = channel.reportsCacheWrite ? CACHE_WRITE : 0;
      channel.script(reports ? { cachedTokens: CACHED, cacheWriteTokens: cacheWrite } : { omitUsage: true });
      const before = await balance();
      const delivered = await client.call(channel.model, stream);
      const row = await lastRow();
      const charged = before - (await balance());

      expect(delivered.text).toContain('simulator: you said');
      expect(row.status).toBe(200);
      expect(row.model).toBe(channel.model);
      if (reports) {
        // The upstream's own counts (the simulators count a token per word), cached and cache-write included.
        expect(row.tokens_counted).toBe(0);
        expect(row.output_tokens).toBe(countWords(delivered.text));
        expect(row.cached_tokens).toBe(CACHED);
        expect(row.cache_write_tokens).toBe(cacheWrite);
      } else {
        // Nothing reported: the gateway counted what it sent and what the client received.
        expect(row.tokens_counted).toBe(1);
        expect(row.output_tokens).toBe(countTokens(delivered.text));
        expect(row.input_tokens).toBeGreaterThanOrEqual(countTokens(PROMPT));
        expect(row.cached_tokens).toBe(0);
        expect(row.cache_write_tokens).toBe(0);
      }
      expect(row.input_tokens).toBeGreaterThan(row.cached_tokens + row.cache_write_tokens);
      // Whatever usage the client was shown is the usage it was billed by. An OpenAI chat client that asked
      // for the usage chunk always gets one, counted when the upstream sent none.
      if (client.name === 'openai chat' && stream) expect(delivered.usage).not.toBeNull();
      if (delivered.usage) expect(delivered.usage).toEqual({ input: row.input_tokens, output: row.output_tokens });
      const plainInput = row.input_tokens - row.cached_tokens - row.cache_write_tokens;
      const expectedCost = plainInput * PRICES.input_per_mtok + row.cached_tokens * PRICES.cached_input_per_mtok
        + row.cache_write_tokens * PRICES.cache_write_per_mtok + row.output_tokens * PRICES.output_per_mtok;
      expect(row.cost_micros).toBe(expectedCost);
      expect(charged).toBe(expectedCost);
      expect(charged).toBeGreaterThan(0);
    });
  });

  // An upstream that reports no usage is billed by the gateway's count of what it delivered; that count can
  // run above what the upstream could have produced. Here the simulators stop at the limit counted in words
  // (a token per word, as a provider stops at its own tokens), and gpt-tokenizer counts those 7 words as 15
  // tokens. The request's own limit caps the count: max_tokens (OpenAI chat, Anthropic), max_output_tokens
  // (Responses), maxOutputTokens (Gemini), as sent upstream (a translation writes it in the channel's format).
  describe('a counted output is capped by the request\'s own output limit', () => {
    const LIMIT = 7;
    const LONG_REPLY = Array.from({ length: 40 }, (_, i) => `harbour${i}`).join(' ');

    const expectBilled = async (before: number, outputTokens: number) => {
      const row = await lastRow();
      expect(row.tokens_counted).toBe(1);
      expect(row.output_tokens).toBe(outputTokens);
      const cost = row.input_tokens * PRICES.input_per_mtok + outputTokens * PRICES.output_per_mtok;
      expect(row.cost_micros).toBe(cost);
      expect(before - (await balance())).toBe(cost);
      return row;
    };

    const capped = clients.flatMap((client) => known.flatMap((channel) => [false, true].map((stream) => ({
      label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}`, client, channel, stream,
    }))));

    it.each(capped)('$label: limit 7, an answer without usage counted above 7 is billed 7 output tokens', async ({ client, channel, stream }) => {
      channel.script({ omitUsage: true, reply: LONG_REPLY });
      const before = await balance();
      const delivered = await client.call(channel.model, stream, LIMIT);
      expect(LONG_REPLY.startsWith(delivered.text)).toBe(true);
      expect(countTokens(delivered.text)).toBeGreaterThan(LIMIT);
      const row = await expectBilled(before, LIMIT);
      if (delivered.usage) expect(delivered.usage).toEqual({ input: row.input_tokens, output: row.output_tokens });
    });

      // Anthropic's client always states max_tokens; an OpenAI or Gemini request without a limit sent to an
    // Anthropic channel gets the translation's default (4096), far above this answer.
    const uncapped = clients.filter((client) => client.name !== 'anthropic messages').flatMap((client) => known.filter((channel) => channel.uncappedCells).flatMap((channel) => [false, true].map((stream) => ({
      label: `${client.name} → ${channel.type} channel, ${stream ? 'streamed' : 'whole'}`, client, channel, stream,
    }))));

    it.each(uncapped)('$label: without a limit, the count stands', async ({ client, channel, stream }) => {
      channel.script({ omitUsage: true, reply: LONG_REPLY });
      const before = await balance();
      const delivered = await client.call(channel.model, stream, null);
      expect(delivered.text).toBe(LONG_REPLY);
      await expectBilled(before, countTokens(LONG_REPLY));
    });

    const usageRows = async () => {
      const gateway = setup.gateway();
      await gateway.recorder.flush();
      return Number((await gateway.database.db.selectFrom('usage_logs').select((eb) => eb.fn.countAll().as('n')).where('key_name', '=', setup.keyName).executeTakeFirstOrThrow()).n);
    };

    it.each(known.filter((channel) => channel.uncappedCells))('a client leaving mid-stream after many events (openai chat → $type channel) is billed at most the limit', async (channel) => {
      // The upstream sends 7 events and then holds the stream open; the client reads 4 text chunks (counted
      // as 9 tokens) and leaves.
      channel.script({ omitUsage: true, reply: LONG_REPLY, stallAfterChunks: 7 });
      const before = await balance();
      const rowsBefore = await usageRows();
      const client = new OpenAI({ baseURL: `${setup.gateway().url}/v1`, apiKey: setup.key, maxRetries: 0 });
      const controller = new AbortController();
      const stream = await client.chat.completions.create({ model: channel.model, max_tokens: LIMIT, messages: [{ role: 'user', content: PROMPT }], stream: true }, { signal: controller.signal });
      let text = '';
      let chunks = 0;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.choices[0]?.delta.content && ++chunks === 4) {
          controller.abort();
          break;
        }
      }
      expect(countTokens(text)).toBeGreaterThan(LIMIT);
      for (let i = 0; i < 100 && (await usageRows()) === rowsBefore; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const row = await expectBilled(before, LIMIT);
      expect(row.error).toContain('client disconnected');
    });
  });
}
