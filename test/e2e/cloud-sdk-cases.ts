// The client side of the cloud-channel tests (Azure, Vertex): the openai, @anthropic-ai/sdk and @google/genai
// clients each reaching one gateway model, not streamed and streamed, and a tool round trip (streamed
// first turn, whole second turn), asserting what each client's user sees.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI, type Content } from '@google/genai';
import { describe, expect, it } from 'vitest';

interface CloudModelCase {
  /** The gateway model id. */
  model: string;
  /** The simulator's greeting: `${greeting}: you said "…"`. */
  greeting: string;
  /** How the test names it: the channel and path style. */
  label: string;
}

const weatherTool = { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

export function describeSdkCases(cases: readonly CloudModelCase[], gatewayUrl: () => string, key: string): void {
  describe.each(cases)('openai SDK → $label', ({ model, greeting }) => {
    const client = () => new OpenAI({ baseURL: `${gatewayUrl()}/v1`, apiKey: key, maxRetries: 0 });
    it('chats, whole and streamed', async () => {
      const completion = await client().chat.completions.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
      expect(completion.choices[0]!.message.content).toBe(`${greeting}: you said "Hello there"`);
      expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
      let text = '';
      for await (const chunk of await client().chat.completions.create({ model, max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'Hello stream' }] })) text += chunk.choices[0]?.delta.content ?? '';
      expect(text).toBe(`${greeting}: you said "Hello stream"`);
    });
    it('makes a tool round trip', async () => {
      const tools = [{ type: 'function' as const, function: weatherTool }];
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
      const first = await client().chat.completions.stream({ model, max_tokens: 200, messages, tools }).finalChatCompletion();
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const calls = first.choices[0]!.message.tool_calls!.filter((call) => call.type === 'function');
      expect(calls.map((call) => JSON.parse(call.function.arguments))).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
      messages.push(first.choices[0]!.message);
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: `sunny in ${JSON.parse(call.function.arguments).city}` });
      const second = await client().chat.completions.create({ model, max_tokens: 200, messages, tools });
      expect(second.choices[0]!.message.content).toContain('sunny in Tokyo');
    });
  });

  describe.each(cases)('@anthropic-ai/sdk → $label', ({ model, greeting }) => {
    const client = () => new Anthropic({ baseURL: gatewayUrl(), apiKey: key, maxRetries: 0 });
    it('sends messages, whole and streamed', async () => {
      const message = await client().messages.create({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] });
      expect(message.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello there"` });
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      const streamed = await client().messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hello stream' }] }).finalMessage();
      expect(streamed.content[0]).toMatchObject({ type: 'text', text: `${greeting}: you said "Hello stream"` });
    });
    it('makes a tool round trip', async () => {
      const tools: Anthropic.Tool[] = [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }];
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'What is the weather in Paris and Tokyo?' }];
      const first = await client().messages.stream({ model, max_tokens: 200, messages, tools }).finalMessage();
      expect(first.stop_reason).toBe('tool_use');
      const uses = first.content.filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
      expect(uses.map((use) => use.input)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
      messages.push({ role: 'assistant', content: first.content });
      messages.push({ role: 'user', content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: `sunny in ${(use.input as { city: string }).city}` })) });
      const second = await client().messages.create({ model, max_tokens: 200, messages, tools });
      const text = second.content.find((block) => block.type === 'text');
      expect(text?.type === 'text' ? text.text : '').toContain('sunny in Tokyo');
    });
  });

  describe.each(cases)('@google/genai → $label', ({ model, greeting }) => {
    const client = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gatewayUrl() } });
    const declarations = [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }];
    it('generates content, whole and streamed', async () => {
      const response = await client().models.generateContent({ model, contents: 'Hello there', config: { maxOutputTokens: 100 } });
      expect(response.text).toBe(`${greeting}: you said "Hello there"`);
      expect(response.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
      let text = '';
      for await (const chunk of await client().models.generateContentStream({ model, contents: 'Hello stream' })) text += chunk.text ?? '';
      expect(text).toBe(`${greeting}: you said "Hello stream"`);
    });
    it('makes a function-call round trip', async () => {
      const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Paris and Tokyo?' }] }];
      const calls: { name: string; args: Record<string, unknown>; id?: string }[] = [];
      const modelParts: NonNullable<Content['parts']> = [];
      for await (const chunk of await client().models.generateContentStream({ model, contents, config: { tools: [{ functionDeclarations: declarations }] } })) {
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          modelParts.push(part);
          if (part.functionCall) calls.push({ name: part.functionCall.name!, args: part.functionCall.args ?? {}, ...(part.functionCall.id ? { id: part.functionCall.id } : {}) });
        }
      }
      expect(calls.map((call) => call.args)).toEqual([{ city: 'Paris' }, { city: 'Tokyo' }]);
      contents.push({ role: 'model', parts: modelParts });
      contents.push({ role: 'user', parts: calls.map((call) => ({ functionResponse: { name: call.name, ...(call.id ? { id: call.id } : {}), response: { result: `sunny in ${String(call.args.city)}` } } })) });
      const second = await client().models.generateContent({ model, contents, config: { tools: [{ functionDeclarations: declarations }] } });
      expect(second.text).toContain('sunny in Tokyo');
    });
  });
}
