// Anthropic message content ⇄ hub messages. A user turn holding tool_result blocks becomes a hub tool turn
// followed by a user turn; going back, a tool turn and the user turn after it merge into one user turn.
import { invalidRequest } from '../../gateway-errors.ts';
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
import type { HubConversationMessage } from '../../hub/hub-system-messages.ts';
import { parseArgumentsObject } from '../../hub/hub-validation.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-messages-schema.ts';
import { decodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { documentAsParts, SERVER_TOOL_BLOCK_TYPES, searchResultText, serverToolBlockText, toolResultInnerParts } from './anthropic-messages-extra-blocks.ts';
import { ownSignature, signatureFromClient } from '../../hub/hub-signatures.ts';

type ImageBlock = Extract<AnthropicContentBlock, { type: 'image'; source: unknown }>;

function imageToHub(block: ImageBlock, at: string): HubImagePart {
  const source = block.source as { type: string; media_type?: string; data?: string; url?: string };
  if (source.type === 'base64') return { type: 'image', source: { kind: 'base64', data: source.data ?? '', mediaType: source.media_type ?? '' } };
  if (source.type === 'url') return { type: 'image', source: { kind: 'url', url: source.url ?? '' } };
  throw invalidRequest(`'${at}.source': images uploaded through the Files API cannot be translated for this model's provider.`, `${at}.source`);
}

/** A document block (PDF by base64 or URL, or plain text) as a hub document; Files API ids are refused. */
function documentToHub(block: Record<string, unknown>, at: string): HubDocumentPart {
  const source = (block.source ?? {}) as { type?: string; media_type?: string; data?: string; url?: string };
  const title = typeof block.title === 'string' ? { filename: block.title } : {};
  if (source.type === 'base64') return { type: 'document', source: { kind: 'base64', data: source.data ?? '', mediaType: source.media_type ?? 'application/pdf' }, ...title };
  if (source.type === 'url') return { type: 'document', source: { kind: 'url', url: source.url ?? '' }, ...title };
  if (source.type === 'text') return { type: 'document', source: { kind: 'base64', data: Buffer.from(source.data ?? '').toString('base64'), mediaType: source.media_type ?? 'text/plain' }, ...title };
  throw invalidRequest(`'${at}.source': documents of source type '${String(source.type)}' cannot be translated for this model's provider.`, `${at}.source`);
}

/** A system message holds text blocks only (SystemMessageParam); empty text is left out. */
function systemTextOf(blocks: readonly AnthropicContentBlock[], at: string): HubTextPart[] {
  return blocks.flatMap((block, j): HubTextPart[] => {
    if (block.type !== 'text') throw invalidRequest(`'${at}[${j}]': a system message can only hold text blocks, not '${block.type}'.`, `${at}[${j}]`);
    const text = (block as { text: string }).text;
    return text === '' ? [] : [{ type: 'text', text }];
  });
}

const readImage = (block: Record<string, unknown>, at: string): HubImagePart => imageToHub(block as ImageBlock, at);

const refuse = (type: string, at: string) =>
  invalidRequest(`'${at}': content blocks of type '${type}' cannot be translated for this model's provider.`, at);

export function anthropicMessagesToHub(messages: AnthropicMessage[], warnings: Warnings): HubMessage[] {
  const out: HubMessage[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}].content`;
    const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    if (message.role === 'system') {
      out.push({ role: 'system', content: systemTextOf(blocks, at) });
      return;
    }
    const results: HubToolResultPart[] = [];
    const user: HubUserContent[] = [];
    const assistant: HubAssistantContent[] = [];
    blocks.forEach((block, j) => {
      const path = `${at}[${j}]`;
      switch (block.type) {
        case 'text':
          (message.role === 'user' ? user : assistant).push({ type: 'text', text: (block as { text: string }).text });
          return;
        case 'image':
          if (message.role !== 'user') throw refuse('image', path);
          user.push(imageToHub(block as ImageBlock, path));
          return;
        case 'document':
          if (message.role !== 'user') throw refuse('document', path);
          user.push(...(documentAsParts(block as Record<string, unknown>, path, readImage) ?? [documentToHub(block as Record<string, unknown>, path)]));
          return;
        case 'search_result':
          (message.role === 'user' ? user : assistant).push(searchResultText(block as Record<string, unknown>));
          return;
        case 'tool_result': {
          if (message.role !== 'user') throw refuse('tool_result', path);
          const b = block as Extract<AnthropicContentBlock, { type: 'tool_result'; tool_use_id: string }>;
          let content: HubToolResultPart['content'] = '';
          if (typeof b.content === 'string') content = b.content;
          else if (b.content) {
            content = b.content.flatMap((inner, k): Array<HubTextPart | HubImagePart> => {
              const innerPath = `${path}.content[${k}]`;
              if (inner.type === 'text') return [{ type: 'text', text: (inner as { text: string }).text }];
              if (inner.type === 'image') return [imageToHub(inner as ImageBlock, innerPath)];
              return toolResultInnerParts(inner as Record<string, unknown>, innerPath, readImage, warnings);
            });
          }
          results.push({ type: 'tool-result', toolCallId: decodeToolCallId(b.tool_use_id).id, content, isError: b.is_error === true });
          return;
        }
        case 'tool_use': {
          if (message.role !== 'assistant') throw refuse('tool_use', path);
          const b = block as Extract<AnthropicContentBlock, { type: 'tool_use'; id: string }>;
          const { id, signature } = decodeToolCallId(b.id);
          assistant.push({ type: 'tool-call', id, name: b.name, argumentsJson: JSON.stringify(b.input ?? {}), ...(signature ? { signature } : {}) });
          return;
        }
        case 'thinking': {
          const b = block as Extract<AnthropicContentBlock, { type: 'thinking'; thinking: string }>;
          assistant.push({ type: 'reasoning', text: b.thinking, ...signatureFromClient(b.signature, 'anthropic') });
          return;
        }
        case 'redacted_thinking': {
          const b = block as Extract<AnthropicContentBlock, { type: 'redacted_thinking'; data: string }>;
          assistant.push({ type: 'reasoning', text: '', redactedData: b.data, signatureFamily: 'anthropic' });
          return;
        }
        default: {
          if (!SERVER_TOOL_BLOCK_TYPES.has(block.type)) throw refuse(block.type, path);
          const text = serverToolBlockText(block as Record<string, unknown>, path, warnings);
          if (text) (message.role === 'user' ? user : assistant).push(text);
          return;
        }
      }
    });
    if (results.length > 0) out.push({ role: 'tool', content: results });
    if (message.role === 'user' && (user.length > 0 || results.length === 0)) out.push({ role: 'user', content: user });
    if (message.role === 'assistant') out.push({ role: 'assistant', content: assistant });
  });
  const names = toolNamesById(out);
  for (const message of out) {
    if (message.role !== 'tool') continue;
    for (const result of message.content) {
      const name = names.get(result.toolCallId);
      if (name !== undefined) result.name = name;
    }
  }
  return out;
}

function imageToAnthropic(image: HubImagePart): Record<string, unknown> {
  if (image.source.kind === 'url') return { type: 'image', source: { type: 'url', url: image.source.url } };
  return { type: 'image', source: { type: 'base64', media_type: image.source.mediaType, data: image.source.data } };
}

/**
 * A document block: PDFs as a base64 or URL source, text files as a text source (Anthropic takes no other
 * base64 media type); the filename becomes the block's title.
 */
function documentToAnthropic(doc: HubDocumentPart, at: string): Record<string, unknown> {
  const block: Record<string, unknown> = { type: 'document' };
  const { source } = doc;
  if (source.kind === 'url') block.source = { type: 'url', url: source.url };
  else if (source.mediaType === 'application/pdf') block.source = { type: 'base64', media_type: 'application/pdf', data: source.data };
  else if (source.mediaType.startsWith('text/')) block.source = { type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') };
  else throw invalidRequest(`'${at}': Anthropic takes PDF and plain-text documents, not ${source.mediaType}.`, at, 'invalid_file_format');
  if (doc.filename) block.title = doc.filename;
  return block;
}

function userBlocks(content: HubUserContent[], at: string): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  content.forEach((part, j) => {
    // Anthropic refuses empty text blocks.
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') blocks.push(imageToAnthropic(part));
    else blocks.push(documentToAnthropic(part, `${at}[${j}]`));
  });
  return blocks;
}

function toolResultBlock(result: HubToolResultPart): Record<string, unknown> {
  const block: Record<string, unknown> = { type: 'tool_result', tool_use_id: result.toolCallId };
  block.content = typeof result.content === 'string'
    ? result.content
    : result.content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : imageToAnthropic(part)));
  if (result.isError) block.is_error = true;
  return block;
}

function assistantBlocks(content: HubAssistantContent[], at: string, warnings: Warnings): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  content.forEach((part, j) => {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        return;
      case 'reasoning': {
        // Anthropic verifies thinking blocks by their signature: another provider's (or none) would be refused.
        const own = part.signatureFamily === undefined || part.signatureFamily === 'anthropic';
        const signature = ownSignature(part, 'anthropic');
        if (part.redactedData !== undefined && own) blocks.push({ type: 'redacted_thinking', data: part.redactedData });
        else if (signature && part.redactedData === undefined) blocks.push({ type: 'thinking', thinking: part.text, signature });
        else warnings.dropped(`${at}[${j}]`, 'reasoning without an Anthropic signature cannot be sent back to Anthropic; it was left out.');
        return;
      }
      case 'tool-call':
        blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: parseArgumentsObject(part.argumentsJson, `${at}[${j}].arguments`) });
        return;
    }
  });
  return blocks;
}

export function hubMessagesToAnthropic(messages: HubConversationMessage[], warnings: Warnings): Record<string, unknown>[] {
  const out: { role: 'user' | 'assistant'; content: Record<string, unknown>[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Record<string, unknown>[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    // Consecutive turns of one role merge: Anthropic alternates user and assistant.
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  messages.forEach((message, i) => {
    const at = `messages[${i}].content`;
    if (message.role === 'user') push('user', userBlocks(message.content, at));
    else if (message.role === 'tool') push('user', message.content.map(toolResultBlock));
    else push('assistant', assistantBlocks(message.content, at, warnings));
  });
  return out;
}
