// The Responses request a coding agent (Codex) sends, through the gateway to translated channels: namespace
// tools flattened and their calls named back with their namespace, a custom tool (apply_patch) as a function
// of one string and back as a custom_tool_call, hosted web_search served by Anthropic's web_search server tool (its OpenAI settings named in x-gateway-warnings),
// and the agent's own history (store: false) sent back whole every turn: the reasoning items' sealed
// encrypted_content gives Anthropic its thinking signature back (its simulator refuses a tool loop without
// it), and a forged one never reaches the upstream. Through the openai SDK, streamed and whole.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { thinkingSignature } from '../simulators/simulator-answers.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('agenttools');
const PRICES = { input_per_mtok: 3, output_per_mtok: 15 };

let anthropic: AnthropicSimulator;
let gemini: GeminiSimulator;
let openai: OpenAISimulator;
let gateway: TestGateway;
let client: OpenAI;

beforeAll(async () => {
  anthropic = await startAnthropicSimulator({ apiKey: 'sk-at-anthropic' });
  openai = await startOpenAISimulator({ apiKey: 'sk-at-openai' });
  gemini = await startGeminiSimulator({ apiKey: 'at-gemini-key' });
  gateway = await startTestGateway({
    channels: [
      { name: 'anthropic', type: 'anthropic', base_url: anthropic.url, api_key: 'sk-at-anthropic', models: ['claude-sonnet-4-6'] },
      { name: 'gemini', type: 'gemini', base_url: gemini.url, api_key: 'at-gemini-key', models: ['gemini-2.5-flash'] },
      { name: 'openai', type: 'openai', base_url: openai.url, api_key: 'sk-at-openai', models: ['gpt-5'] },
    ],
    models: [{ id: 'claude-sonnet-4-6', ...PRICES }, { id: 'gemini-2.5-flash', ...PRICES }, { id: 'gpt-5', ...PRICES }],
    users: [{ name: 'ada', balance: 100 }],
    keys: [{ name: 'ada', key: KEY, user: 'ada' }],
  });
  client = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.dispose();
  await anthropic?.close();
  await gemini?.close();
  await openai?.close();
});

/** Codex's tool list, cut down: a function, a namespace of functions, the free-form apply_patch, web search. */
const TOOLS = [
  { type: 'function', name: 'exec_command', description: 'Runs a command.', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false } },
  {
    type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents.',
    tools: [{ type: 'function', name: 'spawn_agent', description: 'Spawns an agent.', strict: false, parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] } }],
  },
  { type: 'custom', name: 'apply_patch', description: 'Applies a patch.', format: { type: 'grammar', syntax: 'lark', definition: 'start: "*** Begin Patch" /(.|\\n)*/ "*** End Patch"' } },
  { type: 'web_search', external_web_access: false },
] as unknown as OpenAI.Responses.Tool[];

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch';

type Item = Record<string, unknown>;

async function turn(model: string, input: Item[], stream: boolean): Promise<{ output: Item[]; warnings: string | null }> {
  const body = { model, input, tools: TOOLS, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'medium', summary: 'auto' }, parallel_tool_calls: true, prompt_cache_key: 'session-1', max_output_tokens: 4000 } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
  if (!stream) {
    const { data, response } = await client.responses.create(body).withResponse();
    return { output: data.output as unknown as Item[], warnings: response.headers.get('x-gateway-warnings') };
  }
  const { data: events, response } = await client.responses.create({ ...body, stream: true }).withResponse();
  let output: Item[] = [];
  const seen: Array<Record<string, unknown>> = [];
  for await (const event of events) {
    seen.push(event as unknown as Record<string, unknown>);
    if (event.type === 'response.completed') {
      output = event.response.output as unknown as Item[];
      expect(event.response.usage?.output_tokens).toBeGreaterThan(0);
    }
  }
  expectCodexReadableEvents(seen);
  return { output, warnings: response.headers.get('x-gateway-warnings') };
}

/** Every event type the Responses API defines, read from the openai SDK's own declarations. */
const DEFINED_EVENTS = new Set([
  ...readFileSync(fileURLToPath(new URL('../../node_modules/openai/resources/responses/responses.d.ts', import.meta.url)), 'utf8').matchAll(/type: '(response\.[a-z_.]+|error)'/g),
].map((match) => match[1]!));

/**
 * What Codex reads: response.created first and response.completed last; every event a type the schema
 * defines; per output item, output_item.added before its deltas and output_item.done after them.
 */
function expectCodexReadableEvents(events: Array<Record<string, unknown>>): void {
  expect(DEFINED_EVENTS.size).toBeGreaterThan(40);
  expect(events[0]!.type).toBe('response.created');
  expect(events.at(-1)!.type).toBe('response.completed');
  for (const event of events) expect(DEFINED_EVENTS, String(event.type)).toContain(event.type);
  const state = new Map<number, 'added' | 'done'>();
  for (const event of events) {
    const index = event.output_index as number | undefined;
    if (index === undefined) continue;
    if (event.type === 'response.output_item.added') {
      expect(state.has(index)).toBe(false);
      state.set(index, 'added');
    } else if (event.type === 'response.output_item.done') {
      expect(state.get(index)).toBe('added');
      state.set(index, 'done');
    } else expect(state.get(index), `${String(event.type)} of item ${index}`).toBe('added');
  }
  expect([...state.values()].every((s) => s === 'done')).toBe(true);
}

describe.each([false, true])('a coding agent\'s Responses request to an Anthropic channel (stream: %s)', (stream) => {
  it('gets its custom tool call back as apply_patch input, and its next turn carries the thinking signature', async () => {
    anthropic.reset();
    anthropic.script({ toolCall: { name: 'apply_patch', arguments: { input: PATCH } } });
    const first = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'add hello.txt' }] }];
    const one = await turn('claude-sonnet-4-6', first, stream);
    // Hosted web search runs as Anthropic's own server tool; Codex's cached-only setting is named as not kept.
    expect(one.warnings).toContain("tools[3].external_web_access dropped: the settings of 'web_search' (external_web_access) are OpenAI's");
    const sent = anthropic.requests.at(-1)!.body as { tools: Array<{ name: string; input_schema: unknown }> };
    expect(sent.tools.map((t) => t.name)).toEqual(['exec_command', 'multi_agent_v1__spawn_agent', 'apply_patch', 'web_search']);
    const reasoning = one.output.find((item) => item.type === 'reasoning')!;
    expect(String(reasoning.encrypted_content)).toMatch(/^gws1\./);
    // The signature is sealed: not readable in what the client holds.
    expect(String(reasoning.encrypted_content)).not.toContain('sim-signature');
    const call = one.output.find((item) => item.type === 'custom_tool_call')!;
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH, status: 'completed' });

    // Codex's next turn: the whole history, with the tool's output. Anthropic refuses a tool loop whose
    // thinking block is missing; the signature it gets back must be the one it gave.
    const two = await turn('claude-sonnet-4-6', [...first, ...one.output, { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Done!' }], stream);
    const message = two.output.find((item) => item.type === 'message') as { content: Array<{ text: string }> };
    expect(message.content[0]!.text).toBe('The tool said: Done!');
    const second = anthropic.requests.at(-1)!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const assistant = second.messages.find((m) => m.role === 'assistant')!;
    const thinking = assistant.content[0] as { type: string; thinking: string; signature: string };
    expect(thinking.type).toBe('thinking');
    expect(thinking.signature).toBe(thinkingSignature(thinking.thinking));
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', name: 'apply_patch', input: { input: PATCH } });
  });
});

describe('namespaced tools', () => {
  it.each(['claude-sonnet-4-6', 'gemini-2.5-flash'])('%s: a call of a namespaced function comes back with its own name and namespace', async (model) => {
    const simulator = model.startsWith('claude') ? anthropic : gemini;
    simulator.reset();
    simulator.script({ toolCall: { name: 'multi_agent_v1__spawn_agent', arguments: { task: 'lint' } } });
    const first = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'delegate the lint' }] }];
    const one = await turn(model, first, true);
    const call = one.output.find((item) => item.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: JSON.stringify({ task: 'lint' }) });
    const two = await turn(model, [...first, ...one.output, { type: 'function_call_output', call_id: call.call_id, output: 'agent 7 started' }], false);
    expect(JSON.stringify(two.output)).toContain('The tool said: agent 7 started');
  });
});

describe('reasoning state the gateway did not seal', () => {
  it('never reaches the upstream: a forged or foreign encrypted_content is dropped, and the call is answered', async () => {
    anthropic.reset();
    const forged = [
      { type: 'message', role: 'user', content: 'first question' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Earlier thoughts.' }], encrypted_content: 'c2lnLWZvcmdlZA' },
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: `gws1.${Buffer.from('x'.repeat(60)).toString('base64url')}` },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'An answer.' }] },
      { type: 'message', role: 'user', content: 'second question' },
    ];
    const { output } = await turn('claude-sonnet-4-6', forged, false);
    expect(output.some((item) => item.type === 'message')).toBe(true);
    const sent = JSON.stringify(anthropic.requests.at(-1)!.body);
    expect(sent).not.toContain('c2lnLWZvcmdlZA');
    expect(sent).not.toContain('gws1.');
    // Anthropic takes no thinking without its signature: the unsigned text is left out by its converter.
    expect(JSON.parse(sent).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('a history from a Claude session, continued with an OpenAI model, reaches OpenAI without the reasoning it could not open', async () => {
    anthropic.reset();
    openai.reset();
    const first = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'think about it' }] }];
    const one = await turn('claude-sonnet-4-6', first, false);
    expect(one.output.some((item) => item.type === 'reasoning')).toBe(true);
    await turn('gpt-5', [...first, ...one.output, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go on' }] }], true);
    const sent = openai.requests.at(-1)!.body as { input: Array<{ type?: string }> };
    expect(sent.input.filter((item) => item.type === 'reasoning')).toEqual([]);
    expect(JSON.stringify(sent)).not.toContain('gws1.');
    expect(JSON.stringify(sent)).toContain('go on');
  });
});
