// Content parts of Responses input items ⇄ hub parts: input_text, input_image and input_file (a document)
// going in, and back out for a Responses upstream. Parts that need OpenAI's file store (file_id) are refused.
import type { z } from 'zod';
import { invalidRequest } from '../../gateway-errors.ts';
import { parseDataUrl } from '../../hub/hub-images.ts';
import type { HubDocumentPart, HubImagePart, HubTextPart } from '../../hub/hub-request.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { responsesInputFileSchema, responsesInputImageSchema } from './openai-responses-schema.ts';

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
export function partsToHub(parts: ReadonlyArray<Record<string, unknown>>, at: string): Array<HubTextPart | HubImagePart | HubDocumentPart> {
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
export function toolOutputToHub(parts: Array<HubTextPart | HubImagePart | HubDocumentPart>, at: string): Array<HubTextPart | HubImagePart> {
  return parts.map((part, j) => {
    if (part.type === 'document') throw invalidRequest(`'${at}[${j}]': files in a function_call_output cannot be translated for this model's provider; send them in a user message.`, `${at}[${j}]`);
    return part;
  });
}

// ---- hub → parts (for a Responses upstream) ---------------------------------------------------------------

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

export const userPartToResponses = (part: HubTextPart | HubImagePart | HubDocumentPart) =>
  part.type === 'text' ? { type: 'input_text', text: part.text } : part.type === 'image' ? imageToResponses(part) : documentToResponses(part);
