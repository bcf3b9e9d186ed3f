// Documents (PDFs) across formats other than Responses: an OpenAI chat `file` part reaches Anthropic as a
// document block and Gemini as inlineData; an Anthropic document block reaches an OpenAI chat upstream as
// a `file` part, its URL fetched first (chat takes only bytes), under the same guard as image URLs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnthropicSimulator, type AnthropicSimulator } from '../simulators/anthropic-simulator.ts';
import { startGeminiSimulator, type GeminiSimulator } from '../simulators/gemini-simulator.ts';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('documents');
const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const PDF64 = PDF.toString('base64');
let openaiUpstream: OpenAISimulator;
let anthropicUpstream: AnthropicSimulator;
let geminiUpstream: GeminiSimulator;
let files: Server;
let baseUrl: string;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startOpenAISimulator({ apiKey: 'k-openai' });
  anthropicUpstream = await startAnthropicSimulator({ apiKey: 'k-anthropic' });
  geminiUpstream = await startGeminiSimulator({ apiKey: 'k-gemini' });
  files = createServer((request, response) => {
    if (request.url === '/big.pdf') {
      // Past the 20 MB cap: the gateway stops reading and refuses the file.
      response.writeHead(200, { 'content-type': 'application/pdf' });
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const more = () => {
        while (sent < 21 && response.write(chunk)) sent++;
        if (sent >= 21) response.end();
        else response.once('drain', more);
      };
      response.on('error', () => undefined);
      return more();
    }
    if (request.url === '/page.html') return response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
    response.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  gateway = await startTestGateway({
    channels: [
      { name: 'openai', type: 'openai', base_url: openaiUpstream.url, api_key: 'k-openai', models: ['gpt-d'] },
      { name: 'anthropic', type: 'anthropic', base_url: anthropicUpstream.url, api_key: 'k-anthropic', models: ['claude-d'] },
      { name: 'gemini', type: 'gemini', base_url: geminiUpstream.url, api_key: 'k-gemini', models: ['gemini-d'] },
    ],
    models: ['gpt-d', 'claude-d', 'gemini-d'].map((id) => ({ id, input_per_mtok: 1, output_per_mtok: 1 })),
    users: [{ name: 'dora', balance: 10 }],
    keys: [{ name: 'd', key: KEY, user: 'dora' }],
  }, { env: { IMAGE_FETCH_ALLOW_PRIVATE: 'true' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close(), geminiUpstream?.close()]);
  await new Promise((resolve) => files?.close(resolve));
});

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
const chatWithFile = (model: string) => openai().chat.completions.create({
  model, max_tokens: 50,
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise.' }, { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF64}`, filename: 'report.pdf' } }] }],
});
const anthropicWithDocument = (source: Anthropic.Messages.DocumentBlockParam['source']) => anthropic().messages.create({
  model: 'gpt-d', max_tokens: 50, messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise.' }, { type: 'document', source, title: 'report.pdf' }] }],
});

describe('document parts', () => {
  it('an OpenAI chat file part reaches Anthropic as a document block and Gemini as inlineData', async () => {
    const answer = await chatWithFile('claude-d');
    expect(answer.choices[0]!.message.content).toContain('Hello from the Anthropic simulator');
    const block = (anthropicUpstream.requests.at(-1)!.body as { messages: { content: { type: string }[] }[] }).messages[0]!.content[1];
    expect(block).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF64 }, title: 'report.pdf' });
    await chatWithFile('gemini-d');
    const part = (geminiUpstream.requests.at(-1)!.body as { contents: { parts: unknown[] }[] }).contents[0]!.parts[1];
    expect(part).toEqual({ inlineData: { mimeType: 'application/pdf', data: PDF64 } });
  });

  it('an Anthropic document block reaches an OpenAI chat upstream as a file part, a URL fetched first', async () => {
    await anthropicWithDocument({ type: 'base64', media_type: 'application/pdf', data: PDF64 });
    const expected = { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF64}`, filename: 'report.pdf' } };
    const sent = () => (openaiUpstream.requests.at(-1)!.body as { messages: { content: unknown[] }[] }).messages[0]!.content[1];
    expect(sent()).toEqual(expected);
    await anthropicWithDocument({ type: 'url', url: `${baseUrl}/report.pdf` });
    expect(sent()).toEqual(expected);
  });

  it('a Gemini inlineData PDF reaches Anthropic as a document block', async () => {
    const google = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: gateway.url } });
    const answer = await google.models.generateContent({ model: 'claude-d', contents: [{ role: 'user', parts: [{ text: 'Summarise.' }, { inlineData: { mimeType: 'application/pdf', data: PDF64 } }] }] });
    expect(answer.text).toContain('Hello from the Anthropic simulator');
    const block = (anthropicUpstream.requests.at(-1)!.body as { messages: { content: { type: string }[] }[] }).messages[0]!.content[1];
    expect(block).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF64 } });
  });

  it('refuses a file URL that is not a document, or too large, with a 400 in the caller format', async () => {
    const before = openaiUpstream.requests.length;
    const html = await anthropicWithDocument({ type: 'url', url: `${baseUrl}/page.html` }).catch((e: unknown) => e);
    expect(html).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('not a PDF or text file') } } });
    const big = await anthropicWithDocument({ type: 'url', url: `${baseUrl}/big.pdf` }).catch((e: unknown) => e);
    expect(big).toMatchObject({ status: 400, error: { error: { message: expect.stringContaining('larger than 20 MB') } } });
    expect(openaiUpstream.requests.length).toBe(before);
  });
});
