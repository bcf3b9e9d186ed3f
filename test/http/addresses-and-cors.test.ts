// Pure parts of the address handling: model paths with prefixes, base_url normalisation, CORS_ORIGINS.
import { describe, expect, it } from 'vitest';
import { splitModelPath } from '../../src/http/routes/gemini-generate-route.ts';
import { normalizeBaseUrl } from '../../src/config/normalize-base-url.ts';
import { parseCorsOrigins } from '../../src/http/cors.ts';
import { geminiProvider } from '../../src/providers/gemini.ts';

describe('splitModelPath', () => {
  it.each([
    ['gemini-2.0-flash:generateContent', 'gemini-2.0-flash', 'generateContent'],
    ['google/gemini-2.0-flash:streamGenerateContent', 'google/gemini-2.0-flash', 'streamGenerateContent'],
    ['a/b/c:batchEmbedContents', 'a/b/c', 'batchEmbedContents'],
    ['models/google/gemini:countTokens', 'google/gemini', 'countTokens'],
    ['llama3:8b', 'llama3:8b', null],
    ['llama3:8b:generateContent', 'llama3:8b', 'generateContent'],
    ['Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-7B-Instruct', null],
    [':generateContent', ':generateContent', null],
  ])('%s → %s, %s', (path, model, action) => {
    expect(splitModelPath(path)).toEqual({ model, action });
  });
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['openai', 'https://api.openai.com/v1', 'https://api.openai.com', '/v1'],
    ['openai', 'https://api.openai.com/v1/', 'https://api.openai.com', '/v1'],
    ['openai', 'https://host/proxy/v1', 'https://host/proxy', '/v1'],
    ['anthropic', 'https://api.anthropic.com/v1', 'https://api.anthropic.com', '/v1'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1beta', 'https://generativelanguage.googleapis.com', '/v1beta'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1', 'https://generativelanguage.googleapis.com', '/v1'],
    ['openai', 'https://api.openai.com', 'https://api.openai.com', null],
    ['openai', 'https://host/v1beta', 'https://host/v1beta', null],
    ['openai', 'https://host/api/v10', 'https://host/api/v10', null],
    ['openai', '', '', null],
  ])('%s %s → %s', (type, url, baseUrl, removed) => {
    expect(normalizeBaseUrl(type, url)).toEqual({ baseUrl: removed ? baseUrl : url, removed });
  });
});

describe('parseCorsOrigins', () => {
  it('is off when unset or blank, * when listed, else the exact origins', () => {
    expect(parseCorsOrigins(undefined)).toBeNull();
    expect(parseCorsOrigins(' , ')).toBeNull();
    expect(parseCorsOrigins('https://a.example, *')).toBe('*');
    expect(parseCorsOrigins('https://a.example/, http://localhost:5173')).toEqual(new Set(['https://a.example', 'http://localhost:5173']));
  });
});

describe('Gemini upstream paths', () => {
  it('keep the slashes of a prefixed id, encode each segment, and never let dot segments through', () => {
    expect(geminiProvider.path('chat', 'google/gemini 2')).toBe('/v1beta/models/google/gemini%202:generateContent');
    expect(geminiProvider.path('count-tokens', '../admin')).toBe('/v1beta/models/%2E%2E/admin:countTokens');
  });
});

describe('local token estimates', () => {
  it('count every part of the prompt, and scale a tokenised sample on huge prompts', async () => {
    const { getFormat } = await import('../../src/formats/index.ts');
    const estimateAnthropicPromptTokens = getFormat('anthropic-messages').requestFacts.promptTokens;
    const estimateGeminiPromptTokens = getFormat('gemini-generate').requestFacts.promptTokens;
    const small = estimateAnthropicPromptTokens({ system: 'be brief', messages: [{ role: 'user', content: 'hello there' }], tools: [{ name: 'get_weather', description: 'weather' }] });
    expect(small).toBeGreaterThanOrEqual(3 + 2 + 2 + 3);
    const word = 'lorem ipsum dolor sit amet ';
    const huge = word.repeat(400_000); // 10.8 MB
    const estimate = estimateGeminiPromptTokens({ contents: [{ parts: [{ text: huge }] }] });
    const exactPerRepeat = estimateGeminiPromptTokens({ contents: [{ parts: [{ text: word.repeat(1000) }] }] }) / 1000;
    expect(estimate / 400_000).toBeCloseTo(exactPerRepeat, 0);
  });
});

describe('the one prompt estimator', () => {
  it('counts 100,000 short messages (sampled once the prompt is long) within 10 % of one message × 100,000', async () => {
    const { getFormat } = await import('../../src/formats/index.ts');
    const count = getFormat('openai-chat').requestFacts.promptTokens;
    const content = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4);
    const one = count({ messages: [{ role: 'user', content }] });
    const many = count({ messages: Array.from({ length: 100_000 }, () => ({ role: 'user', content })) });
    // Framing (3 a message + 3 a reply) is exact; the text is a scaled sample, within a few per cent.
    const textOne = one - 6;
    const textMany = many - 3 - 3 * 100_000;
    expect(textMany / 100_000).toBeGreaterThan(textOne * 0.9);
    expect(textMany / 100_000).toBeLessThan(textOne * 1.1);
  });
});
