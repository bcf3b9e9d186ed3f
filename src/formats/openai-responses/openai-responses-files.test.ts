import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../gateway-errors.ts';
import { anthropicMessagesFormat } from '../anthropic-messages/index.ts';
import { geminiGenerateFormat } from '../gemini-generate/index.ts';
import { openaiChatFormat } from '../openai-chat/index.ts';
import { hubToOpenaiResponsesRequest, openaiResponsesRequestToHub } from './openai-responses-request.ts';

const PDF = Buffer.from('%PDF-1.4 simulated').toString('base64');

const withFile = (file: Record<string, unknown>) => ({
  model: 'm',
  input: [{ role: 'user', content: [{ type: 'input_text', text: 'Summarise.' }, { type: 'input_file', ...file }] }],
});

function userContent(body: Record<string, unknown>, key: 'messages' | 'contents'): unknown[] {
  const turns = body[key] as Array<{ content?: unknown[]; parts?: unknown[] }>;
  return (turns[0]!.content ?? turns[0]!.parts)!;
}

describe('input_file parts', () => {
  it('read file_data as a hub document with its filename, and file_url as a URL document', () => {
    const inline = openaiResponsesRequestToHub(withFile({ file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' })).request;
    expect(inline.messages[0]!.content[1]).toEqual({ type: 'document', source: { kind: 'base64', data: PDF, mediaType: 'application/pdf' }, filename: 'report.pdf' });
    const url = openaiResponsesRequestToHub(withFile({ file_url: 'https://files.example/report.pdf' })).request;
    expect(url.messages[0]!.content[1]).toEqual({ type: 'document', source: { kind: 'url', url: 'https://files.example/report.pdf' } });
  });

  it('reach Anthropic as document blocks (base64 or URL source, filename as title)', () => {
    const inline = openaiResponsesRequestToHub(withFile({ file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' })).request;
    expect(userContent(anthropicMessagesFormat.hubToRequest(inline, 'claude').body, 'messages')[1]).toEqual({
      type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'report.pdf',
    });
    const url = openaiResponsesRequestToHub(withFile({ file_url: 'https://files.example/report.pdf' })).request;
    expect(userContent(anthropicMessagesFormat.hubToRequest(url, 'claude').body, 'messages')[1]).toEqual({ type: 'document', source: { type: 'url', url: 'https://files.example/report.pdf' } });
  });

  it('reach Gemini as inlineData and OpenAI chat as a file part', () => {
    const inline = openaiResponsesRequestToHub(withFile({ file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' })).request;
    expect(userContent(geminiGenerateFormat.hubToRequest(inline, 'gemini').body, 'contents')[1]).toEqual({ inlineData: { mimeType: 'application/pdf', data: PDF } });
    const chat = openaiChatFormat.hubToRequest(inline, 'gpt').body.messages as Array<{ content: unknown[] }>;
    expect(chat[0]!.content[1]).toEqual({ type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } });
    expect(geminiGenerateFormat.needsInlineDocuments).toBe(true);
    expect(openaiChatFormat.needsInlineDocuments).toBe(true);
  });

  it('go back to a Responses upstream as input_file parts', () => {
    const { request } = openaiResponsesRequestToHub(withFile({ file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' }));
    const input = hubToOpenaiResponsesRequest(request, 'gpt-5').body.input as Array<{ content: unknown[] }>;
    expect(input[0]!.content[1]).toEqual({ type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' });
  });

  it('refuse an unsupported media type for Anthropic and a file id anywhere, naming the part', () => {
    const png = openaiResponsesRequestToHub(withFile({ file_data: `data:application/zip;base64,${PDF}` })).request;
    const error = (() => {
      try {
        anthropicMessagesFormat.hubToRequest(png, 'claude');
      } catch (caught) {
        return caught as GatewayError;
      }
      return undefined;
    })();
    expect(error).toMatchObject({ status: 400, param: 'messages[0].content[1]', code: 'invalid_file_format' });
    expect(() => openaiResponsesRequestToHub(withFile({ file_id: 'file-1' }))).toThrowError(expect.objectContaining({ status: 400, param: 'input[0].content[1].file_id' }));
  });
});
