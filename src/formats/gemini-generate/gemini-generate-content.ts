// Gemini contents ⇄ hub messages. Gemini links a functionResponse to its call by name (ids are optional),
// so calls without an id get one here and responses are matched to the earliest open call of that name.
import type { HubConversationMessage } from '../../hub/hub-system-messages.ts';
import { invalidRequest } from '../../gateway-errors.ts';
import { defaultGenerateId } from '../../hub/hub-stream.ts';
import type {
  HubAssistantContent,
  HubDocumentPart,
  HubImagePart,
  HubMessage,
  HubToolResultPart,
  HubUserContent,
} from '../../hub/hub-request.ts';
import { toolNamesById } from '../../hub/hub-tool-names.ts';
import { parseArgumentsObject } from '../../hub/hub-validation.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import type { GeminiContent, GeminiPart } from './gemini-generate-schema.ts';
import { ownSignature, signatureFromClient } from '../../hub/hub-signatures.ts';

/** PDFs and text files read as documents; audio and video have no hub part. */
const isDocumentType = (mimeType: string) => mimeType === 'application/pdf' || mimeType.startsWith('text/');

const refuse = (at: string, what: string) =>
  invalidRequest(`'${at}': ${what} cannot be translated for this model's provider.`, at);

function userPartToHub(part: GeminiPart, at: string): HubUserContent {
  if (part.text !== undefined) return { type: 'text', text: part.text };
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    if (isDocumentType(mimeType)) return { type: 'document', source: { kind: 'base64', data, mediaType: mimeType } };
    if (!mimeType.startsWith('image/')) throw refuse(at, `inline ${mimeType} data`);
    return { type: 'image', source: { kind: 'base64', data, mediaType: mimeType } };
  }
  if (part.fileData) {
    const mediaType = part.fileData.mimeType;
    if (mediaType && isDocumentType(mediaType)) return { type: 'document', source: { kind: 'url', url: part.fileData.fileUri, mediaType } };
    if (mediaType && !mediaType.startsWith('image/')) throw refuse(at, `a ${mediaType} file`);
    return { type: 'image', source: { kind: 'url', url: part.fileData.fileUri, ...(mediaType ? { mediaType } : {}) } };
  }
  throw refuse(at, 'this kind of part');
}

/** A functionResponse's `response` object as tool result content: {output: "text"} reads as the text. */
function responseToContent(response: Record<string, unknown> | undefined): { content: string; isError: boolean } {
  const value = response ?? {};
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'error') {
    return { content: typeof value.error === 'string' ? value.error : JSON.stringify(value.error), isError: true };
  }
  if (keys.length === 1 && keys[0] === 'output' && typeof value.output === 'string') return { content: value.output, isError: false };
  return { content: JSON.stringify(value), isError: false };
}

export function geminiContentsToHub(contents: GeminiContent[], generateId: () => string = () => defaultGenerateId()): HubMessage[] {
  const out: HubMessage[] = [];
  // Calls from model turns still awaiting their response, in order.
  let open: { id: string; name: string }[] = [];
  contents.forEach((content, i) => {
    const at = `contents[${i}].parts`;
    if (content.role === 'model') {
      const parts: HubAssistantContent[] = [];
      open = [];
      content.parts.forEach((part) => {
        if (part.functionCall) {
          const id = part.functionCall.id ?? generateId();
          open.push({ id, name: part.functionCall.name });
          parts.push({
            type: 'tool-call',
            id,
            name: part.functionCall.name,
            argumentsJson: JSON.stringify(part.functionCall.args ?? {}),
            ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
          });
        } else if (part.text !== undefined) {
          // Signatures on plain text parts are optional for Gemini and have no place in the hub.
          parts.push(part.thought ? { type: 'reasoning', text: part.text, ...(part.thoughtSignature ? signatureFromClient(part.thoughtSignature, 'google') : {}) } : { type: 'text', text: part.text });
        }
      });
      out.push({ role: 'assistant', content: parts });
      return;
    }
    const results: HubToolResultPart[] = [];
    const user: HubUserContent[] = [];
    content.parts.forEach((part, j) => {
      if (part.functionResponse) {
        const { name, id } = part.functionResponse;
        const match = open.findIndex((call) => (id ? call.id === id : call.name === name));
        const callId = match >= 0 ? open[match]!.id : (id ?? generateId());
        if (match >= 0) open.splice(match, 1);
        results.push({ type: 'tool-result', toolCallId: callId, name, ...responseToContent(part.functionResponse.response) });
      } else user.push(userPartToHub(part, `${at}[${j}]`));
    });
    if (results.length > 0) out.push({ role: 'tool', content: results });
    if (user.length > 0 || results.length === 0) out.push({ role: 'user', content: user });
  });
  return out;
}

/** Only Gemini's own file URIs can be sent as fileData; other URLs must be fetched and inlined first. */
function isGeminiFileUri(url: string): boolean {
  return url.startsWith('https://generativelanguage.googleapis.com/') || url.startsWith('gs://');
}

function imageToGemini(image: HubImagePart, at: string): Record<string, unknown> {
  if (image.source.kind === 'base64') return { inlineData: { mimeType: image.source.mediaType, data: image.source.data } };
  if (isGeminiFileUri(image.source.url)) {
    return { fileData: { fileUri: image.source.url, ...(image.source.mediaType ? { mimeType: image.source.mediaType } : {}) } };
  }
  throw invalidRequest(`'${at}': Gemini needs image bytes; the image URL was not fetched and inlined before conversion.`, at);
}

/** A document as inline bytes, or as fileData when it is one of Gemini's own file URIs (else fetched first). */
function documentToGemini(doc: HubDocumentPart, at: string): Record<string, unknown> {
  const { source } = doc;
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  if (isGeminiFileUri(source.url)) return { fileData: { fileUri: source.url, mimeType: source.mediaType ?? 'application/pdf' } };
  throw invalidRequest(`'${at}': Gemini needs the file's bytes; the file URL was not fetched and inlined before conversion.`, at);
}

function userPartToGemini(part: HubUserContent, at: string): Record<string, unknown> {
  if (part.type === 'text') return { text: part.text };
  return part.type === 'image' ? imageToGemini(part, at) : documentToGemini(part, at);
}

function resultToGemini(result: HubToolResultPart, name: string, at: string): Record<string, unknown>[] {
  const text = typeof result.content === 'string' ? result.content : result.content.filter((p) => p.type === 'text').map((p) => p.text).join('');
  let response: Record<string, unknown>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (result.isError) response = { error: parsed ?? text };
  // A JSON object result is passed as the response object itself; anything else as {output: text}.
  else if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) response = parsed as Record<string, unknown>;
  else response = { output: text };
  const parts: Record<string, unknown>[] = [{ functionResponse: { name, response } }];
  // Images a tool returned follow its response in the same turn.
  if (typeof result.content !== 'string') {
    result.content.forEach((p, k) => {
      if (p.type === 'image') parts.push(imageToGemini(p, `${at}.content[${k}]`));
    });
  }
  return parts;
}

export function hubMessagesToGemini(messages: HubConversationMessage[], warnings: Warnings): Record<string, unknown>[] {
  const names = toolNamesById(messages);
  const out: { role: 'user' | 'model'; parts: Record<string, unknown>[] }[] = [];
  const push = (role: 'user' | 'model', parts: Record<string, unknown>[]) => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  };
  messages.forEach((message, i) => {
    const at = `messages[${i}].content`;
    switch (message.role) {
      case 'user':
        push('user', message.content.map((part, j) => userPartToGemini(part, `${at}[${j}]`)));
        return;
      case 'tool':
        push('user', message.content.flatMap((result, j) => {
          const name = result.name ?? names.get(result.toolCallId);
          if (!name) throw invalidRequest(`'${at}[${j}]': Gemini needs the function name of tool result '${result.toolCallId}', and no earlier tool call has that id.`, `${at}[${j}]`);
          return resultToGemini(result, name, `${at}[${j}]`);
        }));
        return;
      case 'assistant': {
        const parts: Record<string, unknown>[] = [];
        message.content.forEach((part, j) => {
          if (part.type === 'text') {
            if (part.text !== '') parts.push({ text: part.text });
          } else if (part.type === 'reasoning') {
            // Gemini reads back only its own signed thoughts; others' reasoning is left out.
            const signature = ownSignature(part, 'google');
            if (signature && part.redactedData === undefined) parts.push({ text: part.text, thought: true, thoughtSignature: signature });
            else warnings.dropped(`${at}[${j}]`, 'reasoning without a Gemini thought signature is not sent back to Gemini.');
          } else {
            parts.push({
              functionCall: { name: part.name, args: parseArgumentsObject(part.argumentsJson, `${at}[${j}].arguments`) },
              ...(part.signature ? { thoughtSignature: part.signature } : {}),
            });
          }
        });
        push('model', parts);
        return;
      }
    }
  });
  return out;
}
