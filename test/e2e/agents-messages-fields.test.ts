// Issue 28 item 2: everything the current Messages API accepts is accepted. The request below is derived from
// @anthropic-ai/sdk's own types: `satisfies Required<…>` and a mapped type over ContentBlockParam['type']
// make tsc fail when a newer SDK adds a top-level field or a content block this file does not send, and the
// tests then send it through the gateway to an Anthropic channel (forwarded as sent, anthropic-beta header
// included) and to OpenAI and Gemini channels (translated, answered).
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import type { GeminiSimulator } from '../simulators/gemini-simulator.ts';
import type { OpenAISimulator } from '../simulators/openai-simulator.ts';
import { testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { startThreeFamilies, type ThreeFamilies } from '../helpers/three-family-gateway.ts';

type Block = Anthropic.ContentBlockParam;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n').toString('base64');
const cache = { type: 'ephemeral', ttl: '5m' } as const;

/** One of every content block the SDK's request types name, each with its optional fields. */
const everyBlock = {
  text: { type: 'text', text: 'Look at these.', cache_control: cache, citations: null },
  image: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG }, cache_control: cache, transformations: { oversized_image: 'downsize' } },
  document: { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf', context: 'the quarterly report', citations: { enabled: true }, cache_control: cache },
  search_result: { type: 'search_result', title: 'Gateway docs', source: 'https://example.com/docs', content: [{ type: 'text', text: 'The gateway routes calls.' }], citations: { enabled: true }, cache_control: cache },
  thinking: { type: 'thinking', thinking: 'The user wants a summary.', signature: 'c2lnLWFudGhyb3BpYw==' },
  redacted_thinking: { type: 'redacted_thinking', data: 'cmVkYWN0ZWQ=' },
  tool_use: { type: 'tool_use', id: 'toolu_read_1', name: 'read_file', input: { path: 'notes.txt' }, cache_control: cache, caller: { type: 'direct' } },
  tool_result: {
    type: 'tool_result', tool_use_id: 'toolu_read_1', is_error: true, cache_control: cache,
    content: [
      { type: 'text', text: 'notes.txt: permission denied' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'search_result', title: 'Permissions', source: 'https://example.com/perms', content: [{ type: 'text', text: 'Run chmod.' }] },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
      { type: 'tool_reference', tool_name: 'read_file' },
    ],
  },
  server_tool_use: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'gateway' }, cache_control: cache },
  web_search_tool_result: {
    type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', cache_control: cache,
    content: [{ type: 'web_search_result', title: 'A gateway', url: 'https://example.com/gateway', encrypted_content: 'ZW5j', page_age: null }],
  },
  web_fetch_tool_result: {
    type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_2',
    content: { type: 'web_fetch_result', url: 'https://example.com/page', retrieved_at: null, content: { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Page text.' } } },
  },
  code_execution_tool_result: { type: 'code_execution_tool_result', tool_use_id: 'srvtoolu_3', content: { type: 'code_execution_result', stdout: '2', stderr: '', return_code: 0, content: [] } },
  bash_code_execution_tool_result: { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_4', content: { type: 'bash_code_execution_result', stdout: 'ok', stderr: '', return_code: 0, content: [] } },
  text_editor_code_execution_tool_result: { type: 'text_editor_code_execution_tool_result', tool_use_id: 'srvtoolu_5', content: { type: 'text_editor_code_execution_view_result', content: 'line', file_type: 'text' } },
  tool_search_tool_result: { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_6', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'read_file' }] } },
  container_upload: { type: 'container_upload', file_id: 'file_011' },
} satisfies { [K in Block['type']]: Extract<Block, { type: K }> };

const conversation: Anthropic.MessageParam[] = [
  { role: 'user', content: [everyBlock.text, everyBlock.image, everyBlock.document, everyBlock.search_result, everyBlock.container_upload] },
  {
    role: 'assistant',
    content: [
      everyBlock.thinking, everyBlock.redacted_thinking, { type: 'text', text: 'Searching.' }, everyBlock.server_tool_use, everyBlock.web_search_tool_result,
      everyBlock.web_fetch_tool_result, everyBlock.code_execution_tool_result, everyBlock.bash_code_execution_tool_result,
      everyBlock.text_editor_code_execution_tool_result, everyBlock.tool_search_tool_result, everyBlock.tool_use,
    ],
  },
  { role: 'user', content: [everyBlock.tool_result, { type: 'text', text: 'Hello there' }] },
];

const tools: Anthropic.ToolUnion[] = [
  { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } }, cache_control: cache, strict: true },
  { type: 'web_search_20250305', name: 'web_search', max_uses: 2 },
];

/** Every top-level field of the request, set: a field a newer SDK adds is missing here and tsc says so. */
const everyField = {
  model: 'claude-up',
  max_tokens: 2048,
  messages: conversation,
  cache_control: cache,
  container: 'container_1',
  diagnostics: { previous_message_id: null },
  inference_geo: 'us',
  metadata: { user_id: 'session-user-1' },
  output_config: { effort: 'medium' },
  service_tier: 'auto',
  speed: 'standard',
  stop_sequences: ['END'],
  stream: false,
  system: [{ type: 'text', text: 'You are a coding agent.', cache_control: cache }],
  thinking: { type: 'enabled', budget_tokens: 1024, display: 'summarized' },
  tool_choice: { type: 'auto', disable_parallel_tool_use: true },
  tools,
  user_profile_id: 'profile_1',
  workspace_id: 'wrkspc_1',
} satisfies Required<Anthropic.MessageCreateParamsNonStreaming>;

const KEY = testKey('everyfield');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let gateway: TestGateway;

let families: ThreeFamilies;

beforeAll(async () => {
  families = await startThreeFamilies({ user: { name: 'eve', balance: 100 }, key: { name: 'fields', key: KEY } });
  ({ openai: openaiUpstream, anthropic: anthropicUpstream, gemini: geminiUpstream, gateway } = families);
});

afterAll(async () => {
  await families?.close();
});

beforeEach(() => families.reset());

const client = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const BETA = 'context-management-2025-06-27,files-api-2025-04-14';

describe('every field and block of @anthropic-ai/sdk MessageCreateParams', () => {
  it('goes to an Anthropic channel as sent, with the anthropic-beta header', async () => {
    const message = await client().messages.create(everyField, { headers: { 'anthropic-beta': BETA } });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'The tool said: notes.txt: permission denied' });
    const sent = anthropicUpstream.requests.at(-1)!;
    // The SDK sends user_profile_id and workspace_id as headers; they name resources of the gateway's own
    // Anthropic account, not the client's, so only anthropic-version and anthropic-beta are passed on.
    const { user_profile_id: _profile, workspace_id: _workspace, ...body } = everyField;
    expect(sent.body).toEqual({ ...body, model: 'claude-sonnet-4-6' });
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(sent.headers['anthropic-workspace-id']).toBeUndefined();
  });

  it('with adaptive thinking and Files API sources, still goes to an Anthropic channel as sent', async () => {
    const files: Anthropic.MessageParam[] = [{
      role: 'user',
      content: [
        { type: 'image', source: { type: 'file', file_id: 'file_img' } },
        { type: 'document', source: { type: 'file', file_id: 'file_doc' } },
        { type: 'text', text: 'Hello there' },
      ],
    }];
    const body = { ...everyField, messages: files, thinking: { type: 'adaptive', display: 'omitted' } } satisfies Anthropic.MessageCreateParamsNonStreaming;
    const message = await client().messages.create(body);
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the Anthropic simulator: you said "Hello there"' });
    const { user_profile_id: _profile, workspace_id: _workspace, ...sent } = body;
    expect(anthropicUpstream.requests.at(-1)!.body).toEqual({ ...sent, model: 'claude-sonnet-4-6' });
  });

  it('is translated for an OpenAI channel: answered, with what OpenAI chat can carry', async () => {
    const message = await client().messages.create({ ...everyField, model: 'gpt-up' });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Hello from the OpenAI simulator: you said "Hello there"' });
    const sent = openaiUpstream.requests.at(-1)!.body as Record<string, unknown> & { messages: { role: string; content: unknown }[] };
    expect(sent).toMatchObject({ parallel_tool_calls: false, user: 'session-user-1', stop: ['END'] });
    expect(sent.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'user']);
    const texts = JSON.stringify(sent.messages);
    expect(texts).toContain('Gateway docs (https://example.com/docs)\\nThe gateway routes calls.');
    expect(texts).toContain('- A gateway: https://example.com/gateway');
    expect(texts).toContain('Fetched https://example.com/page\\nPage text.');
    expect(texts).toContain('notes.txt: permission denied');
    // The tool result's image goes in a user turn right after the tool turn: OpenAI tool messages hold text.
    expect(JSON.stringify(sent.messages[4])).toContain('data:image/png;base64,');
  });

  it('is translated for a Gemini channel, streamed: answered', async () => {
    const message = await client().messages.stream({ ...everyField, model: 'gemini-up', stream: true }).finalMessage();
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('The tool said: ') });
    const sent = geminiUpstream.requests.at(-1)!.body as { contents: { role: string; parts: Record<string, unknown>[] }[]; generationConfig: Record<string, unknown> };
    expect(sent.generationConfig).toMatchObject({ stopSequences: ['END'], thinkingConfig: { thinkingBudget: 1024, includeThoughts: true } });
    const response = sent.contents.at(-1)!.parts.find((part) => part.functionResponse) as { functionResponse: { name: string; response: Record<string, unknown> } };
    expect(response.functionResponse.name).toBe('read_file');
    expect(JSON.stringify(response.functionResponse.response)).toContain('notes.txt: permission denied');
  });
});
