// The Bedrock simulator checked by the official AWS SDK client: if @aws-sdk/client-bedrock-runtime signs,
// sends, parses and decodes the event stream against it, the simulator speaks Bedrock's wire.
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEDROCK_SIM_CREDENTIALS, startBedrockSimulator, type BedrockSimulator } from './bedrock-simulator.ts';

let sim: BedrockSimulator;
const client = (credentials = BEDROCK_SIM_CREDENTIALS) => new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials, maxAttempts: 1,
  // The SDK speaks HTTP/2 to Bedrock by default; the simulator (like the gateway's upstream pool) speaks HTTP/1.1.
  requestHandler: new NodeHttpHandler() });
const MODEL = 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-20250514-v1:0';

beforeAll(async () => {
  sim = await startBedrockSimulator();
});
afterAll(() => sim.close());

describe('Bedrock simulator, seen by the AWS SDK', () => {
  it('answers Converse with text and usage, the model id (an ARN with : and /) decoded from one path segment', async () => {
    const answer = await client().send(new ConverseCommand({ modelId: MODEL, system: [{ text: 'be brief' }], messages: [{ role: 'user', content: [{ text: 'hi there' }] }] }));
    expect(answer.output?.message?.content).toEqual([{ text: 'Hello from the Bedrock simulator: you said "hi there"' }]);
    expect(answer.stopReason).toBe('end_turn');
    expect(answer.usage).toEqual({ inputTokens: 4, outputTokens: 9, totalTokens: 13 });
    expect(sim.modelIds.at(-1)).toBe(MODEL);
    expect(sim.requests.at(-1)?.path).toContain('%3A');
  });

  it('streams ConverseStream as an event stream the SDK decodes: text, tool use, stop reason, metadata', async () => {
    const stream = await client().send(new ConverseStreamCommand({
      modelId: 'anthropic.claude-3-haiku-20240307-v1:0',
      messages: [{ role: 'user', content: [{ text: 'weather in Paris' }] }],
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] },
    }));
    const events: string[] = [];
    let input = '';
    let usage: unknown;
    for await (const event of stream.stream!) {
      events.push(Object.keys(event)[0]!);
      if (event.contentBlockDelta?.delta?.toolUse) input += event.contentBlockDelta.delta.toolUse.input;
      if (event.messageStop) expect(event.messageStop.stopReason).toBe('tool_use');
      if (event.metadata) usage = event.metadata.usage;
    }
    expect(events[0]).toBe('messageStart');
    expect(events).toContain('contentBlockStart');
    expect(events.slice(-2)).toEqual(['messageStop', 'metadata']);
    expect(JSON.parse(input)).toEqual({ city: 'Paris' });
    expect(usage).toMatchObject({ inputTokens: 3 });
  });

  it('cuts Converse and ConverseStream at inferenceConfig.maxTokens, with stopReason max_tokens', async () => {
    const ask = { modelId: MODEL, messages: [{ role: 'user' as const, content: [{ text: 'hi there' }] }], inferenceConfig: { maxTokens: 3 } };
    const whole = await client().send(new ConverseCommand(ask));
    expect(whole.output?.message?.content).toEqual([{ text: 'Hello from the' }]);
    expect(whole.stopReason).toBe('max_tokens');
    expect(whole.usage?.outputTokens).toBe(3);
    const stream = await client().send(new ConverseStreamCommand(ask));
    let text = '';
    let stopReason: string | undefined;
    let outputTokens: number | undefined;
    for await (const event of stream.stream!) {
      text += event.contentBlockDelta?.delta?.text ?? '';
      if (event.messageStop) stopReason = event.messageStop.stopReason;
      if (event.metadata) outputTokens = event.metadata.usage?.outputTokens;
    }
    expect({ text, stopReason, outputTokens }).toEqual({ text: 'Hello from the', stopReason: 'max_tokens', outputTokens: 3 });
    const roomy = await client().send(new ConverseCommand({ ...ask, inferenceConfig: { maxTokens: 100 } }));
    expect(roomy.stopReason).toBe('end_turn');
  });

  it('plays a scripted call of a named tool, then answers from its toolResult', async () => {
    const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }, { toolSpec: { name: 'Read', inputSchema: { json: { type: 'object' } } } }] };
    sim.script({ toolCall: { name: 'Read', arguments: { file_path: '/work/secret.txt' } } });
    const question = { role: 'user' as const, content: [{ text: 'What does the file say?' }] };
    const first = await client().send(new ConverseCommand({ modelId: MODEL, messages: [question], toolConfig }));
    expect(first.stopReason).toBe('tool_use');
    const use = first.output!.message!.content!.find((block) => block.toolUse)!.toolUse!;
    expect([use.name, use.input]).toEqual(['Read', { file_path: '/work/secret.txt' }]);
    const second = await client().send(new ConverseCommand({
      modelId: MODEL, toolConfig,
      messages: [question, first.output!.message!, { role: 'user', content: [{ toolResult: { toolUseId: use.toolUseId, content: [{ text: 'the secret is 42' }] } }] }],
    }));
    expect(second.output?.message?.content).toEqual([{ text: 'The tool said: the secret is 42' }]);
  });

  it('ends a stream with an exception message the SDK raises as that exception', async () => {
    sim.failNextStream({ type: 'throttlingException', message: 'Too many tokens, please wait before trying again.', afterMessages: 2 });
    const stream = await client().send(new ConverseStreamCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'Hello there' }] }] }));
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of stream.stream!) seen.push(Object.keys(event)[0]!);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['messageStart', 'contentBlockDelta']);
    expect(failure).toMatchObject({ name: 'ThrottlingException', message: 'Too many tokens, please wait before trying again.' });
  });

  it('refuses a wrong secret with InvalidSignatureException and an unknown key with UnrecognizedClientException', async () => {
    const send = (credentials: typeof BEDROCK_SIM_CREDENTIALS) => client(credentials).send(new ConverseCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'x' }] }] }));
    await expect(send({ ...BEDROCK_SIM_CREDENTIALS, secretAccessKey: 'wrong' })).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
    await expect(send({ accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'x' })).rejects.toMatchObject({ name: 'UnrecognizedClientException', $metadata: { httpStatusCode: 403 } });
  });

  it('thinks for Claude with additionalModelRequestFields, and wants the signed thinking back before a tool call is answered', async () => {
    const tools = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] };
    const ask = { role: 'user' as const, content: [{ text: 'weather in Paris' }] };
    const thinking = { additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1024 } }, inferenceConfig: { maxTokens: 2000 } };
    const first = await client().send(new ConverseCommand({ modelId: MODEL, messages: [ask], toolConfig: tools, ...thinking }));
    const turn = first.output!.message!.content!;
    expect(turn[0]?.reasoningContent?.reasoningText).toEqual({ text: 'Thinking about "weather in Paris".', signature: expect.any(String) });
    expect(turn[1]?.toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    const result = { role: 'user' as const, content: [{ toolResult: { toolUseId: turn[1]!.toolUse!.toolUseId!, content: [{ text: 'sunny' }] } }] };
    const answer = await client().send(new ConverseCommand({ modelId: MODEL, messages: [ask, { role: 'assistant', content: turn }, result], toolConfig: tools, ...thinking }));
    expect(answer.output?.message?.content?.at(-1)).toEqual({ text: 'The tool said: sunny' });
    const forged = [{ reasoningContent: { reasoningText: { text: 'made up', signature: 'c2lnbmVk' } } }, turn[1]!];
    await expect(client().send(new ConverseCommand({ modelId: MODEL, messages: [ask, { role: 'assistant', content: forged }, result], toolConfig: tools, ...thinking }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('signature') });
    await expect(client().send(new ConverseCommand({ modelId: MODEL, messages: [ask, { role: 'assistant', content: [turn[1]!] }, result], toolConfig: tools, ...thinking }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('must start with a thinking block') });
    await expect(client().send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', messages: [ask], additionalModelRequestFields: { top_k: 5 } }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('extraneous key [top_k]') });
  });

  it('answers a bad body with a ValidationException', async () => {
    await expect(client().send(new ConverseCommand({ modelId: 'm', messages: [] }))).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });
});
