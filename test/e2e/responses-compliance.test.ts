// An Open Responses-style compliance run (the cases of openresponses/openresponses' compliance suite and
// more) through an OpenAI channel (passed through), an Anthropic channel and a Gemini channel (translated),
// with the official `openai` SDK as the client. Every Response and every stream event is checked against
// the spec's schema (responses-compliance-schema.ts); what reached the upstream is read from the simulators.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import type { Simulator } from '../simulators/simulator-core.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { responseResource, schemaErrors, streamEvent } from './responses-compliance-schema.ts';

const KEY = testKey('compliance');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex').toString('base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const weatherTool = {
  type: 'function' as const, name: 'get_weather', description: 'Get the current weather for a location', strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let files: Server;
let pdfUrl: string;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'k-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'k-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'k-gemini' });
  files = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF));
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  pdfUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/report.pdf`;
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'k-openai', models: ['gpt-c'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'k-anthropic', models: ['claude-c'] },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'k-gemini', models: ['gemini-c'] },
    ],
    models: ['gpt-c', 'claude-c', 'gemini-c'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 1 })),
    users: [{ name: 'cora', balance: 10 }],
    keys: [{ name: 'c', key: KEY, user: 'cora' }],
  }, { env: { IMAGE_FETCH_ALLOW_PRIVATE: 'true' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close(), geminiUpstream?.close()]);
  await new Promise((resolve) => files?.close(resolve));
});

const client = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });

interface Channel { name: string; model: string; greeting: string; upstream: () => Simulator }
const channels: Channel[] = [
  { name: 'OpenAI (passthrough)', model: 'gpt-c', greeting: 'Hello from the OpenAI simulator', upstream: () => openaiUpstream },
  { name: 'Anthropic (translated)', model: 'claude-c', greeting: 'Hello from the Anthropic simulator', upstream: () => anthropicUpstream },
  { name: 'Gemini (translated)', model: 'gemini-c', greeting: 'Hello from the Gemini simulator', upstream: () => geminiUpstream },
];

/** Asserts the value conforms, showing the schema's complaints when it does not. */
function conforms(value: unknown): void {
  expect(schemaErrors(responseResource, value)).toEqual([]);
}

/** Streams a request; checks every event against the schema and the numbering; returns events and final response. */
async function streamed(body: OpenAI.Responses.ResponseCreateParamsNonStreaming) {
  const events: Array<{ type: string } & Record<string, unknown>> = [];
  for await (const event of await client().responses.create({ ...body, stream: true })) events.push(event as never);
  for (const event of events) expect(schemaErrors(streamEvent, event), event.type).toEqual([]);
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
  expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
  const final = events.at(-1)!;
  expect(['response.completed', 'response.incomplete']).toContain(final.type);
  return { events, types: events.map((event) => event.type), response: final.response as OpenAI.Responses.Response };
}

const lastBody = (channel: Channel) => channel.upstream().requests.at(-1)!.body as Record<string, unknown>;

describe.each(channels)('Open Responses compliance through $name', (channel) => {
  const { model } = channel;

  it('basic text response: a complete ResponseResource', async () => {
    const response = await client().responses.create({ model, input: [{ type: 'message', role: 'user', content: 'Say hello in exactly 3 words.' }] });
    conforms(response);
    expect(response).toMatchObject({ status: 'completed', model, temperature: 1, top_p: 1, tools: [], tool_choice: 'auto', service_tier: 'default' });
    expect(response.output_text).toBe(`${channel.greeting}: you said "Say hello in exactly 3 words."`);
  });

  it('streaming: every event conforms, numbered from 0, text deltas add up to the final text', async () => {
    const { events, types, response } = await streamed({ model, input: [{ type: 'message', role: 'user', content: 'Count from 1 to 5.' }], temperature: 0.5 });
    conforms(response);
    for (const kind of ['response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done']) expect(types).toContain(kind);
    expect(types.at(-1)).toBe('response.completed');
    const created = events[0]!.response as Record<string, unknown>;
    conforms(created);
    expect(created).toMatchObject({ status: 'in_progress', temperature: 0.5, output: [] });
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('');
    expect(deltas).toBe(`${channel.greeting}: you said "Count from 1 to 5."`);
    expect(response.output_text ?? (response.output[0] as { content: { text: string }[] }).content[0]!.text).toBe(deltas);
  });

  it('a length cut is an incomplete Response, whole and streamed', async () => {
    const whole = await client().responses.create({ model, input: 'Tell me a long story please', max_output_tokens: 3 });
    conforms(whole);
    expect(whole).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, completed_at: null, max_output_tokens: 3 });
    expect(whole.output.at(-1)).toMatchObject({ type: 'message', status: 'incomplete' });
    const { types, response } = await streamed({ model, input: 'Tell me a long story please', max_output_tokens: 3 });
    expect(types.at(-1)).toBe('response.incomplete');
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('a stream that fails midway ends with an error event continuing the numbering (and response.failed when translated)', async () => {
    // Cut on every attempt, paced so the first events reach the client before the cut.
    channel.upstream().script(...Array.from({ length: 4 }, () => ({ cutStreamAfterChunks: 7, chunkDelayMs: 30 })));
    const events: Array<{ type: string; sequence_number: number } & Record<string, unknown>> = [];
    try {
      for await (const event of await client().responses.create({ model, input: 'Cut me off.', stream: true })) events.push(event as never);
    } finally {
      channel.upstream().reset();
    }
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'error', code: 'upstream_stream_failed' });
    const delivered = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('');
    expect(delivered.length).toBeGreaterThan(0);
    if (model === 'gpt-c') return; // passed through: OpenAI's own events, up to the cut
    const failed = events.at(-2)!;
    expect(schemaErrors(streamEvent, failed)).toEqual([]);
    expect(failed.response).toMatchObject({ status: 'failed', error: { code: 'upstream_stream_failed' }, output: [{ type: 'message', status: 'incomplete', content: [{ text: delivered }] }] });
  });

  it('system prompt and instructions reach the model and instructions are echoed', async () => {
    const response = await client().responses.create({
      model, instructions: 'Answer briefly.',
      input: [{ type: 'message', role: 'system', content: 'You are a pirate.' }, { type: 'message', role: 'user', content: 'Say hello.' }],
    });
    conforms(response);
    expect(response.instructions).toBe('Answer briefly.');
    const sent = JSON.stringify(lastBody(channel));
    expect(sent).toContain('You are a pirate.');
    expect(sent).toContain('Answer briefly.');
  });

  it('multi-turn: earlier user and assistant messages sent as explicit input items', async () => {
    const response = await client().responses.create({
      model,
      input: [
        { type: 'message', role: 'user', content: 'My name is Alice.' },
        { type: 'message', role: 'assistant', content: 'Hello Alice! How can I help?' },
        { type: 'message', role: 'user', content: 'What is my name?' },
      ],
    });
    conforms(response);
    expect(response.output_text).toBe(`${channel.greeting}: you said "What is my name?"`);
    expect(JSON.stringify(lastBody(channel))).toContain('Hello Alice! How can I help?');
  });

  it('tool calling, then the tool output sent back as explicit input items', async () => {
    const question = 'What is the weather in Paris?';
    const first = await client().responses.create({ model, tools: [weatherTool], input: [{ type: 'message', role: 'user', content: question }] });
    conforms(first);
    expect(first.tools).toEqual([weatherTool]);
    const calls = first.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    expect(calls.map((call) => [call.name, JSON.parse(call.arguments)])).toEqual([['get_weather', { city: 'Paris' }]]);
    const second = await client().responses.create({
      model, tools: [weatherTool], tool_choice: 'auto',
      input: [
        { type: 'message', role: 'user', content: question },
        ...calls.map((call) => ({ type: 'function_call' as const, call_id: call.call_id, name: call.name, arguments: call.arguments })),
        ...calls.map((call) => ({ type: 'function_call_output' as const, call_id: call.call_id, output: 'sunny, 21 C' })),
      ],
    });
    conforms(second);
    expect(second.output_text).toContain('sunny, 21 C');
  });

  it('tool calling streamed: function_call item added, argument deltas, done events', async () => {
    const { events, types, response } = await streamed({ model, tools: [weatherTool], input: [{ type: 'message', role: 'user', content: 'What is the weather in Tokyo?' }] });
    conforms(response);
    const added = events.find((event) => event.type === 'response.output_item.added' && (event.item as { type: string }).type === 'function_call');
    expect(added).toBeDefined();
    for (const kind of ['response.function_call_arguments.delta', 'response.function_call_arguments.done']) expect(types).toContain(kind);
    const args = events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta).join('');
    expect(JSON.parse(args)).toEqual({ city: 'Tokyo' });
    const done = events.find((event) => event.type === 'response.output_item.done' && (event.item as { type: string }).type === 'function_call');
    expect(done?.item).toMatchObject({ name: 'get_weather', arguments: args, status: 'completed' });
  });

  it('image input reaches the model', async () => {
    const response = await client().responses.create({
      model,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What do you see?' }, { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` }] }],
    });
    conforms(response);
    expect(JSON.stringify(lastBody(channel))).toContain(PNG);
  });

  it('file input (PDF as file_data and as file_url) reaches the model as a document', async () => {
    const inline = PDF.toString('base64');
    const response = await client().responses.create({
      model,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summarise.' }, { type: 'input_file', filename: 'report.pdf', file_data: `data:application/pdf;base64,${inline}` }] }],
    });
    conforms(response);
    expect(documentsSent(channel, lastBody(channel))).toEqual([{ data: inline, url: undefined }]);
    const byUrl = await client().responses.create({
      model,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Summarise.' }, { type: 'input_file', file_url: pdfUrl }] }],
    });
    conforms(byUrl);
    // Gemini needs the bytes (the gateway fetched them); Anthropic and OpenAI fetch a URL themselves.
    expect(documentsSent(channel, lastBody(channel))).toEqual([channel.model === 'gemini-c' ? { data: inline, url: undefined } : { data: undefined, url: pdfUrl }]);
  });

  it('structured output: json_schema reaches the model and the format is echoed', async () => {
    channel.upstream().script({ reply: '{"answer":"yes"}' });
    const format = { type: 'json_schema' as const, name: 'verdict', strict: true, schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false } };
    const response = await client().responses.create({ model, input: 'Is the sky blue?', text: { format } });
    conforms(response);
    expect(response.text?.format).toEqual(format);
    expect(JSON.parse(response.output_text)).toEqual({ answer: 'yes' });
    expect(JSON.stringify(lastBody(channel))).toContain('"additionalProperties":false');
  });

  it('reasoning parameters reach the model, are echoed, and the summary comes back as a reasoning item', async () => {
    const response = await client().responses.create({ model, input: 'Think first.', reasoning: { effort: 'low', summary: 'auto' }, max_output_tokens: 4000 });
    conforms(response);
    expect(response.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary[0]?.text).toBe('Thinking about "Think first.".');
  });

  it("echoes every setting of the request", async () => {
    const settings = {
      instructions: 'Be exact.', temperature: 0.25, top_p: 0.75, max_output_tokens: 300, max_tool_calls: 2, parallel_tool_calls: false,
      metadata: { case: 'echo' }, tools: [weatherTool], tool_choice: 'none' as const, truncation: 'auto' as const, user: 'user-7',
      store: false, safety_identifier: 'safe-7', prompt_cache_key: 'cache-7', top_logprobs: 2, text: { format: { type: 'text' as const }, verbosity: 'low' as const },
    };
    const response = await client().responses.create({ model, input: 'Echo.', ...settings });
    conforms(response);
    expect(response).toMatchObject({ ...settings, background: false, previous_response_id: null });
    const { events } = await streamed({ model, input: 'Echo.', ...settings });
    for (const event of [events[0]!, events.at(-1)!]) expect(event.response).toMatchObject(settings);
  });

  it('bad input gets a 400 in the Responses error shape, naming the field', async () => {
    const error = await client().responses.create({ model, input: 'x', temperature: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'temperature' });
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ message: expect.any(String), type: 'invalid_request_error', param: 'temperature' });
  });
});

/** The documents in the upstream body, as (base64 data | URL), read in the channel's own wire format. */
function documentsSent(channel: Channel, body: Record<string, unknown>): Array<{ data: string | undefined; url: string | undefined }> {
  const parts = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  if (channel.model === 'claude-c') {
    const blocks = (parts.messages as Array<{ content: Array<{ type: string; source: { data?: string; url?: string } }> }>).flatMap((message) => message.content);
    return blocks.filter((block) => block.type === 'document').map((block) => ({ data: block.source.data, url: block.source.url }));
  }
  if (channel.model === 'gemini-c') {
    const all = (parts.contents as Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string } }> }>).flatMap((content) => content.parts);
    return all.filter((part) => part.inlineData?.mimeType === 'application/pdf').map((part) => ({ data: part.inlineData!.data, url: undefined }));
  }
  const items = parts.input as Array<{ content: Array<{ type: string; file_data?: string; file_url?: string }> }>;
  return items.flatMap((item) => item.content).filter((part) => part.type === 'input_file')
    .map((part) => ({ data: part.file_data?.replace('data:application/pdf;base64,', ''), url: part.file_url }));
}
