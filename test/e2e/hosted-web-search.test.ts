// Hosted web search served where the upstream has one (issue 28 item 5, issue 29 item 2): a Responses
// client's `web_search` tool through an Anthropic channel runs Anthropic's web_search server tool, through a
// Gemini channel Gemini's search grounding; the search comes back as a `web_search_call` output item (with
// the events the openai SDK declares) and url_citation annotations. An Anthropic client's web_search through
// a Gemini channel comes back as server_tool_use + web_search_tool_result blocks and a cited text. Each
// search is billed at the model's per_search price, as the provider counts it. An Anthropic client's
// web_fetch through a Gemini channel is served by Gemini's urlContext and comes back as server_tool_use +
// web_fetch_tool_result blocks (one pair per page, failed reads as web_fetch_tool_result_error); a fetch
// costs nothing apart, the pages' text is billed as input tokens (Gemini's toolUsePromptTokenCount).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { flushedBalance, lastUsageRow } from '../helpers/usage-rows.ts';
import { countWords, webFetchFinding } from '../simulators/simulator-answers.ts';

const KEY = testKey('websearch');
const PER_SEARCH_MICROS = 10_000;
const PRICES = { input_per_mtok: 1, output_per_mtok: 2, per_search: PER_SEARCH_MICROS / 1e6 };
const FOUND = { url: 'https://example.org/search-the-docs', title: 'About search the docs', answer: 'The web says: search the docs.' };

let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

beforeAll(async () => {
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'sk-up-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'up-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'sk-up-anthropic', models: ['claude-up'], model_mapping: { 'claude-up': 'claude-sonnet-4-6' } },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'up-gemini-key', models: ['gemini-up'], model_mapping: { 'gemini-up': 'gemini-3-flash-preview' } },
    ],
    models: [{ id: 'claude-up', ...PRICES }, { id: 'gemini-up', ...PRICES }],
    users: [{ name: 'sue', balance: 100 }],
    keys: [{ name: 'searcher', key: KEY, user: 'sue' }],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropicUpstream?.close();
  await geminiUpstream?.close();
});

beforeEach(() => {
  anthropicUpstream.reset();
  geminiUpstream.reset();
});

/** Every event type the Responses API defines, read from the openai SDK's own declarations. */
const DEFINED_EVENTS = new Set([
  ...readFileSync(fileURLToPath(new URL('../../node_modules/openai/resources/responses/responses.d.ts', import.meta.url)), 'utf8').matchAll(/type: '(response\.[a-z_.]+|error)'/g),
].map((match) => match[1]!));

/** The row's charge: its tokens at the model's prices, and each search at per_search. */
async function expectOneSearchBilled(before: number): Promise<void> {
  const row = await lastUsageRow(gateway, 'searcher');
  expect(row.searches).toBe(1);
  const tokens = Math.round(row.input_tokens * PRICES.input_per_mtok + row.output_tokens * PRICES.output_per_mtok);
  expect(row.cost_micros).toBe(tokens + PER_SEARCH_MICROS);
  expect(before - (await flushedBalance(gateway, 'sue'))).toBe(row.cost_micros);
}

describe.each([['claude-up', 'an Anthropic'], ['gemini-up', 'a Gemini']])('a Responses client\'s web_search through %s (%s channel)', (model) => {
  const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const body = { model, input: 'search the docs', tools: [{ type: 'web_search' as const }], store: false };

  /** The search item first; streamed from Gemini, which tells its search with the last of the text, after the message. */
  function expectSearchAnswer(output: OpenAI.Responses.ResponseOutputItem[], searchFirst = true): void {
    expect(output.map((item) => item.type)).toEqual(searchFirst ? ['web_search_call', 'message'] : ['message', 'web_search_call']);
    expect(output.find((item) => item.type === 'web_search_call')).toMatchObject({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'search the docs', sources: [{ type: 'url', url: FOUND.url }] } });
    const message = output.find((item) => item.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    expect(message.content[0]).toMatchObject({ type: 'output_text', text: FOUND.answer, annotations: [{ type: 'url_citation', start_index: 0, end_index: FOUND.answer.length, url: FOUND.url, title: FOUND.title }] });
  }

  function expectSearchAsked(): void {
    if (model === 'claude-up') expect((anthropicUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
    else expect((geminiUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([{ googleSearch: {} }]);
  }

  it('is served by the provider\'s own search: a web_search_call item and a cited answer, one search billed', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const { data, response } = await client().responses.create(body).withResponse();
    expectSearchAsked();
    expect(response.headers.get('x-gateway-warnings')).toBeNull();
    expectSearchAnswer(data.output);
    expect(data.output_text).toBe(FOUND.answer);
    await expectOneSearchBilled(before);
  });

  it('streamed: the web_search_call events in order, the annotation event, and the same output', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client().responses.create({ ...body, stream: true })) events.push(event);
    for (const event of events) expect(DEFINED_EVENTS, event.type).toContain(event.type);
    const types = events.map((event) => event.type);
    const search = ['response.web_search_call.in_progress', 'response.web_search_call.searching', 'response.web_search_call.completed'].map((type) => types.indexOf(type as never));
    expect(search.every((index) => index > 0)).toBe(true);
    expect(search).toEqual([...search].sort((a, b) => a - b));
    const annotation = events.find((event) => event.type === 'response.output_text.annotation.added') as OpenAI.Responses.ResponseOutputTextAnnotationAddedEvent;
    expect(annotation.annotation).toMatchObject({ type: 'url_citation', url: FOUND.url });
    expect(types.indexOf('response.output_text.annotation.added')).toBeLessThan(types.indexOf('response.output_text.done'));
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.type).toBe('response.completed');
    expectSearchAnswer(completed.response.output, model === 'claude-up');
    await expectOneSearchBilled(before);
  });
});

describe('an Anthropic client\'s web_search through a Gemini channel', () => {
  const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
  const body = { model: 'gemini-up', max_tokens: 300, tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const }], messages: [{ role: 'user' as const, content: 'search the docs' }] };

  function expectSearchBlocks(content: Anthropic.ContentBlock[]): void {
    expect(content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    const call = content[0] as Anthropic.ServerToolUseBlock;
    expect(call).toMatchObject({ name: 'web_search', input: { query: 'search the docs' } });
    expect(call.id).toMatch(/^srvtoolu_/);
    expect(content[1]).toMatchObject({ tool_use_id: call.id, content: [{ type: 'web_search_result', url: FOUND.url, title: FOUND.title }] });
    expect(content[2]).toMatchObject({ type: 'text', text: FOUND.answer, citations: [{ type: 'web_search_result_location', url: FOUND.url, title: FOUND.title, cited_text: FOUND.answer }] });
  }

  it('comes back as server_tool_use and web_search_tool_result blocks, with the answer citing the page', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const message = await client().messages.create(body);
    expect((geminiUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([{ googleSearch: {} }]);
    expectSearchBlocks(message.content);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
    await expectOneSearchBilled(before);
  });

  it('streamed, the SDK assembles the same blocks', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const message = await client().messages.stream(body).finalMessage();
    // Gemini tells its search with the last of the text: the search blocks follow the cited text.
    expect(message.content.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result']);
    expectSearchBlocks([message.content[1]!, message.content[2]!, message.content[0]!]);
    expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
    await expectOneSearchBilled(before);
  });
});

describe('an Anthropic client\'s web_fetch through a Gemini channel', () => {
  // As Claude Code asks: the beta endpoint with the web fetch beta header.
  const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
  const GOOD = 'https://example.org/guide';
  const DOWN = 'https://down.invalid/page';
  const asked = `Summarise ${GOOD} and ${DOWN}`;
  const body = {
    model: 'gemini-up', max_tokens: 300, betas: ['web-fetch-2025-09-10'],
    tools: [{ type: 'web_fetch_20250910' as const, name: 'web_fetch' as const }], messages: [{ role: 'user' as const, content: asked }],
  };
  const answer = `Read ${GOOD}: the fetched page says hello. Could not read ${DOWN}.`;

  function expectFetchBlocks(content: Anthropic.Beta.BetaContentBlock[]): void {
    expect(content.map((block) => block.type)).toEqual(['server_tool_use', 'web_fetch_tool_result', 'server_tool_use', 'web_fetch_tool_result', 'text']);
    const [good, goodResult, down, downResult, text] = content as [Anthropic.Beta.BetaServerToolUseBlock, Anthropic.Beta.BetaWebFetchToolResultBlock, Anthropic.Beta.BetaServerToolUseBlock, Anthropic.Beta.BetaWebFetchToolResultBlock, Anthropic.Beta.BetaTextBlock];
    expect(good).toMatchObject({ name: 'web_fetch', input: { url: GOOD } });
    expect(down).toMatchObject({ name: 'web_fetch', input: { url: DOWN } });
    expect(good.id).toMatch(/^srvtoolu_/);
    expect(down.id).not.toBe(good.id);
    expect(goodResult).toMatchObject({
      tool_use_id: good.id,
      content: { type: 'web_fetch_result', url: GOOD, retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '' } } },
    });
    expect(downResult).toMatchObject({ tool_use_id: down.id, content: { type: 'web_fetch_tool_result_error', error_code: 'url_not_accessible' } });
    expect(text).toMatchObject({ type: 'text', text: answer });
  }

  /** The pages' text was billed as input at the input price, nothing per fetch; the client saw the same input. */
  async function expectFetchesBilled(before: number, usage: Anthropic.Beta.BetaUsage): Promise<void> {
    expect(usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 2 });
    const pageTokens = countWords(webFetchFinding(GOOD).page);
    const row = await lastUsageRow(gateway, 'searcher');
    expect(row.input_tokens).toBe(countWords(asked) + pageTokens);
    expect(usage.input_tokens).toBe(row.input_tokens);
    expect(row.searches).toBe(0);
    expect(row.cost_micros).toBe(Math.round(row.input_tokens * PRICES.input_per_mtok + row.output_tokens * PRICES.output_per_mtok));
    expect(before - (await flushedBalance(gateway, 'sue'))).toBe(row.cost_micros);
  }

  it('is served by urlContext and comes back as web_fetch blocks, a failed read as web_fetch_tool_result_error', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const { data: message, response } = await client().beta.messages.create(body).withResponse();
    expect((geminiUpstream.requests.at(-1)!.body as { tools: unknown[] }).tools).toEqual([{ urlContext: {} }]);
    expect(response.headers.get('x-gateway-warnings')).toBeNull();
    expectFetchBlocks(message.content);
    await expectFetchesBilled(before, message.usage);
  });

  it('streamed, the SDK assembles the same blocks (Gemini tells its reads on the first chunk, before the answer)', async () => {
    const before = await flushedBalance(gateway, 'sue');
    const message = await client().beta.messages.stream(body).finalMessage();
    expectFetchBlocks(message.content);
    await expectFetchesBilled(before, message.usage);
  });

  it('the next turn sends the blocks back: the fetch reaches Gemini as text, and the call goes through', async () => {
    const first = await client().beta.messages.create(body);
    const next = await client().beta.messages.create({
      ...body,
      messages: [...body.messages, { role: 'assistant', content: first.content as Anthropic.Beta.BetaContentBlockParam[] }, { role: 'user', content: 'Thanks' }],
    });
    expect(next.content.at(-1)).toMatchObject({ type: 'text' });
    const sent = JSON.stringify((geminiUpstream.requests.at(-1)!.body as { contents: unknown[] }).contents);
    expect(sent).toContain(`Fetched ${GOOD}`);
    expect(sent).toContain(answer);
  });
});
