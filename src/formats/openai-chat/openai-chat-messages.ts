// OpenAI chat messages ⇄ hub messages. Leading system and developer messages become the hub's system prompt,
// later ones hub system messages in place; tool
// messages in a row become one hub tool turn; reasoning travels as `reasoning_content` (DeepSeek's field).
import { invalidRequest } from '../../gateway-errors.ts';
import { parseDataUrl } from '../../hub/hub-images.ts';
import type {
  HubAssistantContent,
  HubDocumentPart,
  HubImagePart,
  HubMessage,
  HubTextPart,
  HubToolResultPart,
  HubUserContent,
} from '../../hub/hub-request.ts';
import { toolNamesById } from '../../hub/hub-tool-names.ts';
import { systemMessageText } from '../../hub/hub-system-messages.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import type { OpenAIMessage } from './openai-chat-schema.ts';
import { decodeToolCallId } from '../../hub/hub-tool-call-ids.ts';

type TextContent = string | Array<{ text: string }>;

const textOf = (content: TextContent): string =>
  typeof content === 'string' ? content : content.map((part) => part.text).join('');

function openaiImageToHub(url: string, detail: HubImagePart['detail']): HubImagePart {
  const inline = parseDataUrl(url);
  const image: HubImagePart = inline
    ? { type: 'image', source: { kind: 'base64', data: inline.data, mediaType: inline.mediaType } }
    : { type: 'image', source: { kind: 'url', url } };
  if (detail) image.detail = detail;
  return image;
}

/** A chat `file` part with inline bytes; files by id live in OpenAI's store and cannot be sent elsewhere. */
function openaiFileToHub(file: { file_data?: string; file_id?: string; filename?: string } | undefined, at: string): HubDocumentPart {
  const inline = typeof file?.file_data === 'string' ? parseDataUrl(file.file_data) : undefined;
  if (!inline) throw invalidRequest(`'${at}.file': send the file's bytes as file_data (a data: URL); files by file_id need OpenAI's file store.`, `${at}.file`);
  return { type: 'document', source: { kind: 'base64', data: inline.data, mediaType: inline.mediaType }, ...(file?.filename ? { filename: file.filename } : {}) };
}

export function openaiMessagesToHub(
  messages: OpenAIMessage[],
  warnings: Warnings,
): { system: HubTextPart[]; messages: HubMessage[] } {
  const system: HubTextPart[] = [];
  const out: HubMessage[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        // Leading system messages are the system prompt; a later one stays where it was said.
        const text = textOf(message.content);
        if (out.length > 0) out.push({ role: 'system', content: text === '' ? [] : [{ type: 'text', text }] });
        else if (text !== '') system.push({ type: 'text', text });
        return;
      }
      case 'user': {
        const content: HubUserContent[] = [];
        if (typeof message.content === 'string') content.push({ type: 'text', text: message.content });
        else {
          message.content.forEach((part, j) => {
            if (part.type === 'text') content.push({ type: 'text', text: part.text as string });
            else if (part.type === 'image_url') {
              const image = part.image_url as { url: string; detail?: HubImagePart['detail'] };
              content.push(openaiImageToHub(image.url, image.detail));
            } else if (part.type === 'file') {
              content.push(openaiFileToHub(part.file as { file_data?: string; file_id?: string; filename?: string } | undefined, `${at}.content[${j}]`));
            } else {
              throw invalidRequest(`'${at}.content[${j}]': ${part.type} parts cannot be translated for this model's provider.`, `${at}.content[${j}]`);
            }
          });
        }
        out.push({ role: 'user', content });
        return;
      }
      case 'assistant': {
        const content: HubAssistantContent[] = [];
        if (message.reasoning_content) content.push({ type: 'reasoning', text: message.reasoning_content });
        const content0 = message.content;
        if (typeof content0 === 'string') {
          if (content0 !== '') content.push({ type: 'text', text: content0 });
        } else if (content0) {
          for (const part of content0) {
            const text = part.type === 'text' ? (part.text as string) : (part.refusal as string);
            content.push({ type: 'text', text });
          }
        }
        if (message.refusal && !content0) content.push({ type: 'text', text: message.refusal });
        for (const call of message.tool_calls ?? []) {
          const { id, signature } = decodeToolCallId(call.id);
          content.push({ type: 'tool-call', id, name: call.function.name, argumentsJson: call.function.arguments, ...(signature ? { signature } : {}) });
        }
        out.push({ role: 'assistant', content });
        return;
      }
      case 'tool': {
        const result: HubToolResultPart = {
          type: 'tool-result',
          toolCallId: decodeToolCallId(message.tool_call_id).id,
          content: typeof message.content === 'string'
            ? message.content
            : message.content.map((part): HubTextPart => ({ type: 'text', text: part.text })),
          isError: false,
        };
        const last = out[out.length - 1];
        if (last?.role === 'tool') last.content.push(result);
        else out.push({ role: 'tool', content: [result] });
        return;
      }
    }
  });
  // OpenAI names a tool result's call only by id; the hub also carries the name for formats that need it.
  const names = toolNamesById(out);
  for (const message of out) {
    if (message.role !== 'tool') continue;
    for (const result of message.content) {
      const name = names.get(result.toolCallId);
      if (name !== undefined) result.name = name;
    }
  }
  return { system, messages: out };
}

function imageToOpenAI(image: HubImagePart): Record<string, unknown> {
  const url = image.source.kind === 'url' ? image.source.url : `data:${image.source.mediaType};base64,${image.source.data}`;
  const imageUrl: Record<string, unknown> = { url };
  if (image.detail) imageUrl.detail = image.detail;
  return { type: 'image_url', image_url: imageUrl };
}

/** The chat `file` part takes bytes as a data: URL (file_data) and a filename; URLs are inlined first. */
function documentToOpenAI(doc: HubDocumentPart, at: string): Record<string, unknown> {
  if (doc.source.kind === 'url') throw invalidRequest(`'${at}': OpenAI chat needs the file's bytes; the file URL was not fetched and inlined before conversion.`, at);
  return { type: 'file', file: { file_data: `data:${doc.source.mediaType};base64,${doc.source.data}`, filename: doc.filename ?? 'document.pdf' } };
}

function userContentToOpenAI(content: HubUserContent[], at: string): unknown {
  const only = content[0];
  if (content.length === 1 && only?.type === 'text') return only.text;
  return content.map((part, j) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    return part.type === 'image' ? imageToOpenAI(part) : documentToOpenAI(part, `${at}.content[${j}]`);
  });
}

/**
 * A tool result's text for a `tool` message, which holds text only. Its images (a screenshot, a file an
 * agent read) are handed to `images`, for a user message after the tool turn; the text says where they went.
 */
function toolResultContentToOpenAI(result: HubToolResultPart, images: Record<string, unknown>[]): unknown {
  if (typeof result.content === 'string') return result.content;
  const texts: Record<string, unknown>[] = [];
  let imageCount = 0;
  for (const part of result.content) {
    if (part.type === 'text') texts.push({ type: 'text', text: part.text });
    else {
      images.push(imageToOpenAI(part));
      imageCount++;
    }
  }
  if (imageCount > 0) texts.push({ type: 'text', text: imageCount === 1 ? '(its image follows in the next user message)' : `(its ${imageCount} images follow in the next user message)` });
  return texts;
}

export function hubMessagesToOpenAI(system: HubTextPart[], messages: HubMessage[], warnings: Warnings): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (system.length === 1) out.push({ role: 'system', content: system[0]?.text });
  else if (system.length > 1) out.push({ role: 'system', content: system.map((part) => ({ type: 'text', text: part.text })) });
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: systemMessageText(message) });
        return;
      case 'user':
        out.push({ role: 'user', content: userContentToOpenAI(message.content, at) });
        return;
      case 'assistant': {
        const text = message.content.filter((p) => p.type === 'text').map((p) => p.text).join('');
        const calls = message.content.filter((p) => p.type === 'tool-call');
        if (message.content.some((p) => p.type === 'reasoning')) {
          warnings.dropped(`${at}.reasoning`, 'OpenAI chat does not take reasoning back in the history; it was left out.');
        }
        const assistant: Record<string, unknown> = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
        if (calls.length > 0) {
          assistant.tool_calls = calls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsJson },
          }));
        }
        out.push(assistant);
        return;
      }
      case 'tool': {
        const images: Record<string, unknown>[] = [];
        message.content.forEach((result, j) => {
          if (result.isError) warnings.unsupported(`${at}.content[${j}].is_error`, 'OpenAI chat has no error flag on tool results; the result was sent as plain content.');
          out.push({ role: 'tool', tool_call_id: result.toolCallId, content: toolResultContentToOpenAI(result, images) });
        });
        // Tool messages must follow their assistant turn without a break: the images come after all of them.
        if (images.length > 0) {
          warnings.unsupported(`${at}.content`, 'OpenAI chat tool results hold text only; their images were sent in a user message after the tool results.');
          out.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images] });
        }
        return;
      }
    }
  });
  return out;
}
