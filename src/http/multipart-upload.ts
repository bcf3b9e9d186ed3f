// Multipart uploads (images, audio) streamed to temporary files as they arrive: never held whole in memory,
// refused with 413 as soon as a file passes its limit (or at once, when Content-Length already says so),
// and re-readable so a failed upstream attempt can be retried with the same file.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { GatewayError, bodyTooLarge, invalidRequest } from '../gateway-errors.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  path: string;
  size: number;
}

export interface MultipartUpload {
  fields: Record<string, string>;
  files: UploadedFile[];
  /** Deletes the temporary files. */
  cleanup(): Promise<void>;
}

export async function receiveMultipart(request: FastifyRequest, maxFileBytes: number): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw invalidRequest('This endpoint takes multipart/form-data (a file upload).', null, 'invalid_content_type');
  const declared = Number(request.headers['content-length']);
  // A body already declared larger than any allowed file plus its fields is refused before reading it.
  if (Number.isFinite(declared) && declared > maxFileBytes + 1024 * 1024) throw bodyTooLarge(maxFileBytes);
  const dir = await mkdtemp(join(tmpdir(), 'gateway-upload-'));
  const upload: MultipartUpload = { fields: {}, files: [], cleanup: () => rm(dir, { recursive: true, force: true }) };
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileBytes, fields: 64, parts: 72 } })) {
      if (part.type === 'field') {
        upload.fields[part.fieldname] = String(part.value);
        continue;
      }
      const path = join(dir, `${upload.files.length}`);
      let size = 0;
      part.file.on('data', (chunk: Buffer) => (size += chunk.length));
      await pipeline(part.file, createWriteStream(path));
      upload.files.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, path, size });
    }
  } catch (error) {
    await upload.cleanup();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw bodyTooLarge(maxFileBytes);
    if (error instanceof GatewayError) throw error;
    // The parser's complaints (no boundary, a truncated body, a malformed part) are the client's to fix; a
    // file-system failure writing the temporary file (it has a syscall) stays a server error.
    if ((error as { syscall?: string }).syscall === undefined) {
      throw invalidRequest(`The multipart/form-data body could not be read: ${(error as Error).message.slice(0, 200)}`, null, 'invalid_multipart');
    }
    throw error;
  }
  return upload;
}
