import { describe, expect, it } from 'vitest';
import { formats, getFormat, hasFormat } from '../../src/formats/index.ts';
import { collectImageUrls, inlineImages, parseDataUrl } from '../../src/hub/hub-images.ts';
import type { HubRequest } from '../../src/hub/hub-request.ts';
import { effortForBudget } from '../../src/hub/hub-reasoning.ts';

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
    }
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
