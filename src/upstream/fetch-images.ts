// Fetches image URLs (and document URLs: PDFs, text files) for targets that need the bytes inline (Gemini
// always; OpenAI chat for files). Guarded: http(s) only, images (or documents) only, at most 20 MB each,
// 10 s each, and, unless IMAGE_FETCH_ALLOW_PRIVATE is set, never an address on a private, loopback or
// link-local network (no server-side request forgery through an image or file URL).
import { request } from './undici-parts.ts';
import { invalidRequest } from '../gateway-errors.ts';
import type { InlineImage } from '../hub/hub-images.ts';
import { parseDataUrl } from '../hub/hub-images.ts';
import { addressesOf, isPrivateAddress } from './private-network.ts';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
const TIMEOUT_MS = 10_000;


/** What is fetched: the word used in messages and the content types accepted. */
interface MediaKind {
  noun: 'image' | 'file';
  accepts(type: string): boolean;
}

const IMAGE: MediaKind = { noun: 'image', accepts: (type) => type.startsWith('image/') };
const DOCUMENT_TYPES = new Set(['application/pdf', 'text/plain', 'text/markdown', 'text/csv']);
const DOCUMENT: MediaKind = { noun: 'file', accepts: (type) => DOCUMENT_TYPES.has(type) };

async function assertPublic(hostname: string, kind: MediaKind): Promise<void> {
  let addresses: { address: string; family: number }[];
  try {
    addresses = await addressesOf(hostname);
  } catch (error) {
    // A host that does not resolve is the client's URL at fault (it was a 500 with ENOTFOUND).
    throw invalidRequest(`The ${kind.noun} URL's host '${hostname.slice(0, 100)}' could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'}).`, 'messages', 'image_fetch_failed');
  }
  for (const { address, family } of addresses) {
    if (isPrivateAddress(address, family)) throw invalidRequest(`The ${kind.noun} URL's host ${hostname} is on a private network; the gateway does not fetch from there.`, 'messages', 'image_url_forbidden');
  }
}

export function fetchImages(urls: string[], allowPrivate: boolean): Promise<Map<string, InlineImage>> {
  return fetchMedia(urls, allowPrivate, IMAGE);
}

/** Document URLs (Responses input_file file_url): PDFs and text files, under the same guard and cap. */
export function fetchDocuments(urls: string[], allowPrivate: boolean): Promise<Map<string, InlineImage>> {
  return fetchMedia(urls, allowPrivate, DOCUMENT);
}

async function fetchMedia(urls: string[], allowPrivate: boolean, kind: MediaKind): Promise<Map<string, InlineImage>> {
  const images = new Map<string, InlineImage>();
  await Promise.all(urls.map(async (url) => {
    const inline = parseDataUrl(url);
    if (inline) return void images.set(url, inline);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalidRequest(`The ${kind.noun} URL '${url.slice(0, 100)}' is not a valid URL.`, 'messages', 'invalid_image_url');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidRequest(`${kind.noun === 'image' ? 'Image' : 'File'} URLs must be http(s) or data: URLs.`, 'messages', 'invalid_image_url');
    if (!allowPrivate) await assertPublic(parsed.hostname.replace(/^\[|\]$/g, ''), kind);
    let response;
    try {
      response = await request(parsed, { method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
    } catch (error) {
      throw invalidRequest(`The ${kind.noun} at ${parsed.host} could not be fetched: ${(error as Error).message}`, 'messages', 'image_fetch_failed');
    }
    const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (response.statusCode !== 200 || !kind.accepts(type)) {
      await response.body.dump();
      throw invalidRequest(`The ${kind.noun} at ${parsed.host} answered ${response.statusCode} with '${type || 'no type'}', not ${kind.noun === 'image' ? 'an image' : 'a PDF or text file'}.`, 'messages', 'image_fetch_failed');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_IMAGE_BYTES) {
        response.body.destroy();
        throw invalidRequest(`The ${kind.noun} at ${parsed.host} is larger than 20 MB.`, 'messages', kind.noun === 'image' ? 'image_too_large' : 'file_too_large');
      }
      chunks.push(chunk as Buffer);
    }
    images.set(url, { data: Buffer.concat(chunks).toString('base64'), mediaType: type });
  }));
  return images;
}
