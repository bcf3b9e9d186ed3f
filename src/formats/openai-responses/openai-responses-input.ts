// Responses `input` items ⇄ hub messages. System and developer messages join the system prompt; assistant
// messages, function_call and reasoning items in a row make one assistant turn; function_call_output items
// in a row make one tool turn. Reasoning items carry a thinking signature in `encrypted_content` (the
// gateway put it there in its own responses), so a thinking model gets it back.
import type { z } from 'zod';
import { invalidRequest } from '../../gateway-errors.ts';
import { parseDataUrl } from '../../hub/hub-images.ts';
import type {
  HubAssistantContent,
  HubDocumentPart,
  HubImagePart,
  HubMessage,
  HubReasoningPart,
  HubTextPart,
  HubToolResultPart,
  HubUserContent,
} from '../../hub/hub-request.ts';
import { decodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { toolNamesById } from '../../hub/hub-tool-names.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import {
  responsesFunctionCallItemSchema,
  responsesFunctionCallOutputItemSchema,
  responsesInputFileSchema,
  responsesInputImageSchema,
  responsesMessageItemSchema,
  responsesReasoningItemSchema,
} from './openai-responses-schema.ts';

/** Marks a redacted thinking block carried in a reasoning item's encrypted_content. */
export const REDACTED_PREFIX = 'gw-redacted:';

/** Validates one part of the body, naming the field as the caller wrote it (`input[2].call_id`). */
export function parseAt<S extends z.ZodType>(schema: S, value: unknown, at: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue ? formatPath(issue.path) : '';
  const param = path === '' ? at : path.startsWith('[') ? `${at}${path}` : `${at}.${path}`;
  throw invalidRequest(`Invalid value for '${param}': ${issue?.message ?? 'invalid value'}`, param);
}

function imageToHub(url: string, detail: string | null | undefined): HubImagePart {
  const inline = parseDataUrl(url);
  const image: HubImagePart = inline
    ? { type: 'image', source: { kind: 'base64', data: inline.data, mediaType: inline.mediaType } }
    : { type: 'image', source: { kind: 'url', url } };
  if (detail === 'auto' || detail === 'low' || detail === 'high') image.detail = detail;
  return image;
}

/** The media type a bare file name implies, for file_data sent as bare base64 (PDF unless it says text). */
const mediaTypeOfName = (filename: string | null | undefined) => (/\.(txt|md|csv)$/i.test(filename ?? '') ? 'text/plain' : 'application/pdf');

/** input_file: bytes (file_data) or a URL (file_url) become a hub document; OpenAI file ids are refused. */
function fileToHub(part: Record<string, unknown>, where: string): HubDocumentPart {
  const file = parseAt(responsesInputFileSchema, part, where);
  const filename = file.filename ? { filename: file.filename } : {};
  if (file.file_data) {
    const inline = parseDataUrl(file.file_data);
    if (inline) return { type: 'document', source: { kind: 'base64', data: inline.data, mediaType: inline.mediaType }, ...filename };
    if (file.file_data.startsWith('data:')) throw invalidRequest(`Invalid value for '${where}.file_data': a data: URL must be base64 ('data:<type>;base64,<bytes>').`, `${where}.file_data`);
    return { type: 'document', source: { kind: 'base64', data: file.file_data, mediaType: mediaTypeOfName(file.filename) }, ...filename };
  }
  if (file.file_url) return { type: 'document', source: { kind: 'url', url: file.file_url }, ...filename };
  throw invalidRequest(`'${where}': files by file_id need OpenAI's file store; send file_data (a data: URL) or file_url instead.`, `${where}.file_id`);
}

/** input_text / input_image / input_file parts (and output_text in history); audio is refused by name. */
function partsToHub(parts: ReadonlyArray<Record<string, unknown>>, at: string): Array<HubTextPart | HubImagePart | HubDocumentPart> {
  return parts.map((part, j) => {
    const where = `${at}[${j}]`;
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        if (typeof part.text !== 'string') throw invalidRequest(`Invalid value for '${where}.text': expected a string.`, `${where}.text`);
        return { type: 'text', text: part.text };
      case 'refusal':
        return { type: 'text', text: String(part.refusal ?? '') };
      case 'input_image': {
        const image = parseAt(responsesInputImageSchema, part, where);
        if (!image.image_url) {
          throw invalidRequest(`'${where}': images by file_id need OpenAI's file store; send image_url (a URL or a data: URL) instead.`, `${where}.file_id`);
        }
        return imageToHub(image.image_url, image.detail);
      }
      case 'input_file':
        return fileToHub(part, where);
      default:
        throw invalidRequest(`'${where}': ${String(part.type)} parts cannot be translated for this model's provider.`, where);
    }
  });
}

/** Tool results carry text and images; a file in a function_call_output is refused by name. */
function toolOutputToHub(parts: Array<HubTextPart | HubImagePart | HubDocumentPart>, at: string): Array<HubTextPart | HubImagePart> {
  return parts.map((part, j) => {
    if (part.type === 'document') throw invalidRequest(`'${at}[${j}]': files in a function_call_output cannot be translated for this model's provider; send them in a user message.`, `${at}[${j}]`);
    return part;
  });
}

function reasoningToHub(item: z.output<typeof responsesReasoningItemSchema>): HubReasoningPart {
  const texts = item.summary.length > 0 ? item.summary : (item.content ?? []);
  const part: HubReasoningPart = { type: 'reasoning', text: texts.map((s) => s.text).join('\n\n') };
  const sealed = item.encrypted_content;
  if (sealed?.startsWith(REDACTED_PREFIX)) {
    part.text = '';
    part.redactedData = sealed.slice(REDACTED_PREFIX.length);
  } else if (sealed) part.signature = sealed;
  return part;
}

export function responsesInputToHub(
  input: string | ReadonlyArray<Record<string, unknown>> | undefined,
  warnings: Warnings,
): { system: HubTextPart[]; messages: HubMessage[] } {
  const system: HubTextPart[] = [];
  const out: HubMessage[] = [];
  if (input === undefined) return { system, messages: out };
  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };

  const assistantTurn = (): HubAssistantContent[] => {
    const last = out[out.length - 1];
    if (last?.role === 'assistant') return last.content;
    const content: HubAssistantContent[] = [];
    out.push({ role: 'assistant', content });
    return content;
  };
  const toolTurn = (): HubToolResultPart[] => {
    const last = out[out.length - 1];
    if (last?.role === 'tool') return last.content;
    const content: HubToolResultPart[] = [];
    out.push({ role: 'tool', content });
    return content;
  };

  input.forEach((raw, i) => {
    const at = `input[${i}]`;
    const type = raw.type ?? (raw.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const item = parseAt(responsesMessageItemSchema, raw, at);
        const parts = typeof item.content === 'string' ? [{ type: 'text' as const, text: item.content }] : partsToHub(item.content, `${at}.content`);
        if (item.role === 'system' || item.role === 'developer') {
          if (out.length > 0) warnings.unsupported(`${at}.role`, 'a system message after the first turn was moved into the system prompt.');
          for (const part of parts) {
            if (part.type !== 'text') throw invalidRequest(`'${at}.content': system messages can only hold text.`, `${at}.content`);
            if (part.text !== '') system.push(part);
          }
        } else if (item.role === 'user') {
          out.push({ role: 'user', content: parts as HubUserContent[] });
        } else {
          const content = assistantTurn();
          for (const part of parts) {
            if (part.type !== 'text') throw invalidRequest(`'${at}.content': assistant messages can only hold text.`, `${at}.content`);
            content.push(part);
          }
        }
        return;
      }
      case 'function_call': {
        const item = parseAt(responsesFunctionCallItemSchema, raw, at);
        const { id, signature } = decodeToolCallId(item.call_id);
        assistantTurn().push({ type: 'tool-call', id, name: item.name, argumentsJson: item.arguments, ...(signature ? { signature } : {}) });
        return;
      }
      case 'function_call_output': {
        const item = parseAt(responsesFunctionCallOutputItemSchema, raw, at);
        toolTurn().push({
          type: 'tool-result',
          toolCallId: decodeToolCallId(item.call_id).id,
          content: typeof item.output === 'string' ? item.output : toolOutputToHub(partsToHub(item.output, `${at}.output`), `${at}.output`),
          isError: false,
        });
        return;
      }
      case 'reasoning':
        assistantTurn().push(reasoningToHub(parseAt(responsesReasoningItemSchema, raw, at)));
        return;
      case 'item_reference':
        throw invalidRequest(`'${at}': item_reference needs an OpenAI-type channel, which keeps earlier items; send the items themselves.`, `${at}.type`);
      default:
        throw invalidRequest(
          `'${at}': ${String(type ?? 'untyped')} items cannot be translated for this model's provider; only messages, function calls, their outputs and reasoning can.`,
          `${at}.type`,
        );
    }
  });
  // Results name their call by call_id only; the hub also carries the name for formats that need it.
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

// ---- hub → input items (for a Responses upstream) ---------------------------------------------------------

function imageToResponses(image: HubImagePart): Record<string, unknown> {
  const url = image.source.kind === 'url' ? image.source.url : `data:${image.source.mediaType};base64,${image.source.data}`;
  return { type: 'input_image', image_url: url, detail: image.detail ?? 'auto' };
}

function documentToResponses(doc: HubDocumentPart): Record<string, unknown> {
  const out: Record<string, unknown> = { type: 'input_file' };
  if (doc.source.kind === 'url') out.file_url = doc.source.url;
  else out.file_data = `data:${doc.source.mediaType};base64,${doc.source.data}`;
  if (doc.filename) out.filename = doc.filename;
  return out;
}

const userPartToResponses = (part: HubTextPart | HubImagePart | HubDocumentPart) =>
  part.type === 'text' ? { type: 'input_text', text: part.text } : part.type === 'image' ? imageToResponses(part) : documentToResponses(part);

export function hubMessagesToResponsesInput(messages: readonly HubMessage[], warnings: Warnings): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content.map(userPartToResponses) });
        return;
      case 'assistant': {
        let text = '';
        const flush = () => {
          if (text !== '') out.push({ role: 'assistant', content: text });
          text = '';
        };
        let droppedReasoning = false;
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'reasoning') droppedReasoning = true;
          else {
            flush();
            out.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.argumentsJson });
          }
        }
        flush();
        // An OpenAI reasoning item needs OpenAI's own id and encrypted content, which other providers' thinking lacks.
        if (droppedReasoning) warnings.dropped(`${at}.reasoning`, 'OpenAI Responses only takes back its own reasoning items; the reasoning was left out.');
        return;
      }
      case 'tool':
        message.content.forEach((result, j) => {
          if (result.isError) warnings.unsupported(`${at}.content[${j}].is_error`, 'OpenAI Responses has no error flag on function call outputs; the result was sent as plain output.');
          out.push({
            type: 'function_call_output',
            call_id: result.toolCallId,
            output: typeof result.content === 'string' ? result.content : result.content.map(userPartToResponses),
          });
        });
        return;
    }
  });
  return out;
}
