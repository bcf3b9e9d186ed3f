import { describe, expect, it } from 'vitest';
import { formats, getFormat, hasFormat } from '../../src/formats/index.ts';
import { collectImageUrls, inlineImages, parseDataUrl } from '../../src/hub/hub-images.ts';
import type { HubRequest } from '../../src/hub/hub-request.ts';
import { effortForBudget } from '../../src/hub/hub-reasoning.ts';

/** The provider operations a format's chat may be sent to. */
const operationNames = ['chat', 'chat-stream', 'completions', 'responses'];

describe('formats registry', () => {
  it('finds each format by name and refuses unknown ones', () => {
    expect(Object.keys(formats)).toEqual(['openai-chat', 'anthropic-messages', 'gemini-generate', 'openai-responses', 'bedrock-converse']);
    expect(getFormat('anthropic-messages').name).toBe('anthropic-messages');
    expect(hasFormat('openai-responses')).toBe(true);
    expect(hasFormat('cohere-chat')).toBe(false);
    expect(() => getFormat('cohere-chat')).toThrow("No converters are registered for the wire format 'cohere-chat'.");
  });

  it('holds every part of the contract for each registered format, under its own name', () => {
    const converters = ['requestToHub', 'hubToRequest', 'responseToHub', 'hubToResponse', 'usageToHub', 'streamToHub', 'hubToStream',
      'streamToHubMachine', 'hubToStreamMachine', 'errorToHub', 'hubToError', 'hubErrorToStreamEvent'] as const;
    for (const [name, format] of Object.entries(formats)) {
      expect(format.name, name).toBe(name);
      for (const part of converters) expect(typeof format[part], `${name}.${part}`).toBe('function');
      expect(['body', 'path'], `${name}.modelIn`).toContain(format.modelIn);
      expect(typeof format.needsInlineImages, `${name}.needsInlineImages`).toBe('boolean');
      if (format.streamCloser !== undefined) expect(typeof format.streamCloser, `${name}.streamCloser`).toBe('function');
      // The usage reader leaves what the wire does not carry unknown.
      expect(format.usageToHub(null), `${name}.usageToHub`).toEqual({});
      // The capabilities the relay, the routes and the channel tester read instead of the name.
      for (const operation of [format.chatOperations.whole, format.chatOperations.stream]) {
        expect(operationNames, `${name}.chatOperations`).toContain(operation);
      }
      expect(format.apiFamily, `${name}.apiFamily`).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(format.clientKey.header, `${name}.clientKey`).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(typeof format.supportsPrefill, `${name}.supportsPrefill`).toBe('boolean');
      expect(format.streamUsageOption === null || typeof format.streamUsageOption === 'object', `${name}.streamUsageOption`).toBe(true);
      expect(format.streamTerminator === null || typeof format.streamTerminator === 'string', `${name}.streamTerminator`).toBe(true);
      // The probe is a request the format's own reader accepts.
      const probe = format.probeBody('probe-model');
      expect(() => format.requestToHub(probe, { model: 'probe-model' }), `${name}.probeBody`).not.toThrow();
      expect(format.refusalOf(400, { not: 'an error envelope' }), `${name}.refusalOf`).toBeNull();
      // The model list holds each model's own entry.
      const model = { id: 'm-1', ownedBy: 'system', createdAt: Date.UTC(2025, 0, 1) };
      expect(JSON.stringify(format.modelList([model])), `${name}.modelList`).toContain(JSON.stringify(format.modelEntry(model)));
      if (format.replayEvent !== undefined) expect(typeof format.replayEvent, `${name}.replayEvent`).toBe('function');
    }
  });

  it('declares the parts the issue lists, and a registered format lacking one fails', () => {
    const required = ['name', 'clientKey', 'modelIn', 'needsInlineImages', 'chatOperations', 'apiFamily', 'supportsPrefill', 'streamUsageOption', 'streamTerminator',
      'modelList', 'modelEntry', 'probeBody', 'refusalOf', 'requestToHub', 'hubToRequest', 'responseToHub', 'hubToResponse', 'usageToHub', 'streamToHub', 'hubToStream',
      'streamToHubMachine', 'hubToStreamMachine', 'errorToHub', 'hubToError', 'hubErrorToStreamEvent'];
    const lacking = (format: object) => required.filter((part) => !(part in format));
    for (const [name, format] of Object.entries(formats)) expect(lacking(format), name).toEqual([]);
    const { refusalOf: _dropped, ...incomplete } = formats['openai-chat'];
    expect(lacking(incomplete)).toEqual(['refusalOf']);
  });

  it("recognises context-length and content-policy refusals in each format's own error envelope", () => {
    const openaiContext = { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
    const openaiPolicy = { error: { message: 'The response was filtered.', type: 'invalid_request_error', param: 'prompt', code: 'content_filter' } };
    expect(getFormat('openai-chat').refusalOf(400, JSON.stringify(openaiContext))).toBe('context-length');
    expect(getFormat('openai-chat').refusalOf(400, openaiPolicy)).toBe('content-policy');
    expect(getFormat('openai-responses').refusalOf(400, openaiContext)).toBe('context-length');
    expect(getFormat('openai-chat').refusalOf(400, { error: { message: "Invalid 'messages[0].content'.", type: 'invalid_request_error', code: 'invalid_value' } })).toBeNull();
    expect(getFormat('anthropic-messages').refusalOf(400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } })).toBe('context-length');
    expect(getFormat('anthropic-messages').refusalOf(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: at least one message is required' } })).toBeNull();
    expect(getFormat('gemini-generate').refusalOf(400, [{ error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } }])).toBe('context-length');
    // A server error is never a refusal, whatever it says.
    expect(getFormat('openai-chat').refusalOf(500, openaiContext)).toBeNull();
  });

  it('renders the same gateway error in each format', async () => {
    const { rateLimited } = await import('../../src/gateway-errors.ts');
    const error = rateLimited('rpm', 'key:1', 3);
    expect(Object.values(formats).map((f) => [f.hubToError(error).status, JSON.parse(f.hubToError(error).body)])).toEqual([
      [429, { error: { message: error.message, type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } }],
      [429, { type: 'error', error: { type: 'rate_limit_error', message: error.message } }],
      [429, { error: { code: 429, message: error.message, status: 'RESOURCE_EXHAUSTED' } }],
      [429, { error: { message: error.message, type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } }],
      [429, { message: error.message }],
    ]);
    expect(formats['bedrock-converse'].hubToError(error).headers).toMatchObject({ 'x-amzn-errortype': 'ThrottlingException' });
    expect(Object.values(formats).map((f) => f.hubErrorToStreamEvent(error).event)).toEqual([undefined, 'error', undefined, 'error', 'throttlingException']);
  });
});

describe('hub image helpers', () => {
  const request: HubRequest = {
    model: 'm',
    system: [],
    messages: [
      { role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://a/1.png' } }, { type: 'text', text: 'x' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'shot', argumentsJson: '{}' }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c', isError: false, content: [{ type: 'image', source: { kind: 'url', url: 'https://a/2.png' } }] }],
      },
      { role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://a/1.png' } }] },
    ],
    tools: [],
    stopSequences: [],
    stream: false,
    extensions: {},
  };

  it('collects distinct URLs from messages and tool results, and inlines fetched ones', () => {
    expect(collectImageUrls(request)).toEqual(['https://a/1.png', 'https://a/2.png']);
    const inlined = inlineImages(request, new Map([['https://a/2.png', { data: 'QUJD', mediaType: 'image/png' }]]));
    expect(collectImageUrls(inlined)).toEqual(['https://a/1.png']);
    expect(inlined.messages[2]).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c', isError: false, content: [{ type: 'image', source: { kind: 'base64', data: 'QUJD', mediaType: 'image/png' } }] }],
    });
    // The original is not modified.
    expect(collectImageUrls(request)).toHaveLength(2);
  });

  it('parses data URLs and maps budgets to efforts', () => {
    expect(parseDataUrl('data:image/webp;base64,AAAA')).toEqual({ mediaType: 'image/webp', data: 'AAAA' });
    expect(parseDataUrl('https://x')).toBeUndefined();
    expect([effortForBudget(1024), effortForBudget(8192), effortForBudget(30000)]).toEqual(['low', 'medium', 'high']);
  });
});
