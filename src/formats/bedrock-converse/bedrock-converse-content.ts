// Converse messages ⇄ hub messages. Converse puts tool results in a user turn and wants user and assistant
// turns to alternate, so hub tool messages and the user turn after them are merged into one user turn.
// Images are bytes only (base64 in JSON): the relay inlines URLs first (needsInlineImages).
import type { HubConversationMessage } from '../../hub/hub-system-messages.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import type { HubAssistantContent, HubDocumentPart, HubImagePart, HubMessage, HubTextPart, HubToolResultPart, HubUserContent } from '../../hub/hub-request.ts';
import { parseArgumentsObject } from '../../hub/hub-validation.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import type { ConverseContentBlock } from './bedrock-converse-schema.ts';
import { ownSignature, signatureFromClient } from '../../hub/hub-signatures.ts';

type Block = Record<string, unknown>;
interface ConverseMessage { role: 'user' | 'assistant'; content: Block[] }

const FORMAT_FOR_MEDIA: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** Converse's toolUseId is `[a-zA-Z0-9_-]{1,64}`; other formats' ids are mapped the same way in calls and results. */
export function converseToolUseId(id: string): string {
  const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe.length === 0 ? '_' : safe.slice(0, 64);
}

function imageToConverse(part: HubImagePart, param: string): Block {
  if (part.source.kind !== 'base64') throw invalidRequest(`Invalid value for '${param}': Bedrock takes images as bytes; the image URL could not be inlined.`, param);
  const format = FORMAT_FOR_MEDIA[part.source.mediaType.toLowerCase()];
  if (!format) throw invalidRequest(`Invalid value for '${param}': Bedrock takes png, jpeg, gif or webp images, not ${part.source.mediaType}.`, param);
  return { image: { format, source: { bytes: part.source.data } } };
}

const FORMAT_FOR_DOCUMENT: Record<string, string> = { 'application/pdf': 'pdf', 'text/plain': 'txt', 'text/markdown': 'md', 'text/csv': 'csv', 'text/html': 'html' };

/**
 * Converse documents are bytes with a format and a name. The name may hold only letters, digits, single
 * spaces, hyphens, parentheses and square brackets, so a caller's file name is cleaned rather than refused.
 */
function documentToConverse(part: HubDocumentPart, param: string, index: number): Block {
  if (part.source.kind !== 'base64') throw invalidRequest(`Invalid value for '${param}': Bedrock takes documents as bytes; the file URL could not be inlined.`, param);
  const format = FORMAT_FOR_DOCUMENT[part.source.mediaType.toLowerCase()];
  if (!format) throw invalidRequest(`Invalid value for '${param}': Bedrock takes pdf, txt, md, csv or html documents, not ${part.source.mediaType}.`, param);
  const cleaned = (part.filename ?? '').replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[^a-zA-Z0-9\-()[\] ]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200);
  return { document: { format, name: cleaned === '' ? `document-${index + 1}` : cleaned, source: { bytes: part.source.data } } };
}

function userPartToConverse(part: HubUserContent | HubTextPart, param: string, index: number): Block | null {
  if (part.type === 'text') return part.text === '' ? null : { text: part.text };
  if (part.type === 'document') return documentToConverse(part, param, index);
  return imageToConverse(part, param);
}

function assistantPartToConverse(part: HubAssistantContent, param: string, warnings: Warnings): Block | null {
  switch (part.type) {
    case 'text':
      return part.text === '' ? null : { text: part.text };
    case 'reasoning':
      if (part.redactedData !== undefined) return { reasoningContent: { redactedContent: part.redactedData } };
      // Bedrock's reasoning models refuse reasoning in the history that they did not sign (another provider's).
      // Claude's signatures hold across Anthropic, Bedrock and Vertex: they are the `anthropic` family here too.
      if (!ownSignature(part, 'anthropic')) {
        warnings.dropped(param, 'reasoning without a Bedrock signature cannot be sent back to Bedrock; it was left out.');
        return null;
      }
      return { reasoningContent: { reasoningText: { text: part.text, signature: ownSignature(part, 'anthropic') } } };
    case 'tool-call':
      return { toolUse: { toolUseId: converseToolUseId(part.id), name: part.name, input: parseArgumentsObject(part.argumentsJson, param) } };
  }
}

function toolResultToConverse(part: HubToolResultPart, param: string): Block {
  const content = typeof part.content === 'string'
    ? [{ text: part.content }]
    : part.content.map((inner, index) => (inner.type === 'text' ? { text: inner.text } : imageToConverse(inner, `${param}.content[${index}]`)));
  return { toolResult: { toolUseId: converseToolUseId(part.toolCallId), content: content.length > 0 ? content : [{ text: '' }], status: part.isError ? 'error' : 'success' } };
}

export function hubMessagesToConverse(messages: readonly HubConversationMessage[], warnings: Warnings): ConverseMessage[] {
  const out: ConverseMessage[] = [];
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks: Block[] = [];
    message.content.forEach((part, partIndex) => {
      const at = `${param}.content[${partIndex}]`;
      const block = message.role === 'tool'
        ? toolResultToConverse(part as HubToolResultPart, at)
        : message.role === 'assistant' ? assistantPartToConverse(part as HubAssistantContent, at, warnings) : userPartToConverse(part as HubUserContent, at, partIndex);
      if (block) blocks.push(block);
    });
    if (blocks.length === 0) return;
    const last = out.at(-1);
    // Roles must alternate: a tool turn and the user turn after it become one user turn (results first).
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  });
  return out;
}

function imageToHub(image: NonNullable<ConverseContentBlock['image']>): HubImagePart {
  return { type: 'image', source: { kind: 'base64', data: image.source.bytes ?? '', mediaType: `image/${image.format}` } };
}

/** Converse messages → hub messages; a user turn's tool results become a tool message before its other parts. */
export function converseMessagesToHub(messages: readonly { role: 'user' | 'assistant'; content: ConverseContentBlock[] }[], warnings: Warnings): HubMessage[] {
  const out: HubMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const content: HubAssistantContent[] = [];
      message.content.forEach((block, blockIndex) => {
        if (block.text !== undefined) content.push({ type: 'text', text: block.text });
        else if (block.toolUse) content.push({ type: 'tool-call', id: block.toolUse.toolUseId, name: block.toolUse.name, argumentsJson: JSON.stringify(block.toolUse.input ?? {}) });
        else if (block.reasoningContent?.reasoningText) content.push({ type: 'reasoning', text: block.reasoningContent.reasoningText.text, ...(block.reasoningContent.reasoningText.signature ? signatureFromClient(block.reasoningContent.reasoningText.signature, 'anthropic') : {}) });
        else if (block.reasoningContent?.redactedContent !== undefined) content.push({ type: 'reasoning', text: '', redactedData: block.reasoningContent.redactedContent });
        else warnings.dropped(`messages[${index}].content[${blockIndex}]`, 'this Converse content block has no hub equivalent.');
      });
      out.push({ role: 'assistant', content });
      return;
    }
    const results: HubToolResultPart[] = [];
    const content: HubUserContent[] = [];
    message.content.forEach((block, blockIndex) => {
      if (block.text !== undefined) content.push({ type: 'text', text: block.text });
      else if (block.image) content.push(imageToHub(block.image));
      else if (block.toolResult) {
        const parts: Array<HubTextPart | HubImagePart> = block.toolResult.content.flatMap((inner): Array<HubTextPart | HubImagePart> => {
          if (inner.text !== undefined) return [{ type: 'text' as const, text: inner.text }];
          if (inner.json !== undefined) return [{ type: 'text' as const, text: JSON.stringify(inner.json) }];
          if (inner.image) return [imageToHub(inner.image)];
          return [];
        });
        const onlyText = parts.every((part) => part.type === 'text');
        results.push({ type: 'tool-result', toolCallId: block.toolResult.toolUseId, isError: block.toolResult.status === 'error', content: onlyText ? parts.map((part) => (part as HubTextPart).text).join('') : parts });
      } else if (!block.cachePoint) warnings.dropped(`messages[${index}].content[${blockIndex}]`, 'this Converse content block has no hub equivalent.');
    });
    if (results.length > 0) out.push({ role: 'tool', content: results });
    if (content.length > 0) out.push({ role: 'user', content });
  });
  return out;
}
