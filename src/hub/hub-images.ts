// Image URLs in a request: some targets (Anthropic for arbitrary URLs, Gemini always) need the bytes inline.
// The relay collects the URLs, fetches them (with its own limits), and inlines them before converting.
import type { HubDocumentPart, HubImagePart, HubMessage, HubRequest } from './hub-request.ts';

export interface InlineImage {
  data: string;
  mediaType: string;
}

function imagesOf(message: HubMessage): HubImagePart[] {
  const images: HubImagePart[] = [];
  for (const part of message.content) {
    if (part.type === 'image') images.push(part);
    if (part.type === 'tool-result' && typeof part.content !== 'string') {
      for (const inner of part.content) if (inner.type === 'image') images.push(inner);
    }
  }
  return images;
}

/** Every distinct image URL in the request's messages and tool results, in order of first use. */
export function collectImageUrls(request: HubRequest): string[] {
  const urls = new Set<string>();
  for (const message of request.messages) {
    for (const image of imagesOf(message)) if (image.source.kind === 'url') urls.add(image.source.url);
  }
  return [...urls];
}

/** A copy of the request with each URL found in `images` replaced by its bytes; other URLs stay. */
export function inlineImages(request: HubRequest, images: ReadonlyMap<string, InlineImage>): HubRequest {
  const swap = (part: HubImagePart): HubImagePart => {
    if (part.source.kind !== 'url') return part;
    const found = images.get(part.source.url);
    if (!found) return part;
    return { ...part, source: { kind: 'base64', data: found.data, mediaType: found.mediaType } };
  };
  const messages = request.messages.map((message): HubMessage => {
    switch (message.role) {
      case 'user':
        return { ...message, content: message.content.map((p) => (p.type === 'image' ? swap(p) : p)) };
      case 'tool':
        return {
          ...message,
          content: message.content.map((result) =>
            typeof result.content === 'string'
              ? result
              : { ...result, content: result.content.map((p) => (p.type === 'image' ? swap(p) : p)) },
          ),
        };
      default:
        return message;
    }
  });
  return { ...request, messages };
}

/** Every distinct document URL in the request's user messages, in order of first use. */
export function collectDocumentUrls(request: HubRequest): string[] {
  const urls = new Set<string>();
  for (const message of request.messages) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'document' && part.source.kind === 'url') urls.add(part.source.url);
  }
  return [...urls];
}

/** A copy of the request with each document URL found in `files` replaced by its bytes; other URLs stay. */
export function inlineDocuments(request: HubRequest, files: ReadonlyMap<string, InlineImage>): HubRequest {
  const swap = (part: HubDocumentPart): HubDocumentPart => {
    if (part.source.kind !== 'url') return part;
    const found = files.get(part.source.url);
    if (!found) return part;
    return { ...part, source: { kind: 'base64', data: found.data, mediaType: found.mediaType } };
  };
  const messages = request.messages.map((message): HubMessage =>
    message.role === 'user' ? { ...message, content: message.content.map((p) => (p.type === 'document' ? swap(p) : p)) } : message,
  );
  return { ...request, messages };
}

/** Splits a `data:` URL into its bytes and media type; undefined for any other URL. */
export function parseDataUrl(url: string): InlineImage | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0) return undefined;
  const header = url.slice(5, comma);
  if (!header.endsWith(';base64')) return undefined;
  return { mediaType: header.slice(0, -';base64'.length) || 'application/octet-stream', data: url.slice(comma + 1) };
}
