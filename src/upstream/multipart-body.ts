// Builds a multipart/form-data body for an upstream from fields and files on disk, with its exact length,
// as a factory so each attempt streams the files afresh.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { UploadedFile } from '../http/multipart-upload.ts';

interface MultipartBody {
  contentType: string;
  contentLength: number;
  body: () => AsyncIterable<Uint8Array>;
}

export function multipartBody(fields: Record<string, string>, files: UploadedFile[]): MultipartBody {
  const boundary = `----gateway${randomBytes(12).toString('hex')}`;
  const escape = (value: string) => value.replace(/"/g, '%22').replace(/\r|\n/g, ' ');
  const fieldParts = Object.entries(fields).map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${escape(name)}"\r\n\r\n${value}\r\n`));
  const fileHeads = files.map((file) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${escape(file.field)}"; filename="${escape(file.filename)}"\r\nContent-Type: ${file.mimetype}\r\n\r\n`));
  const crlf = Buffer.from('\r\n');
  const closing = Buffer.from(`--${boundary}--\r\n`);
  const contentLength = fieldParts.reduce((sum, part) => sum + part.length, 0)
    + files.reduce((sum, file, i) => sum + fileHeads[i]!.length + file.size + crlf.length, 0)
    + closing.length;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength,
    body: async function* () {
      for (const part of fieldParts) yield part;
      for (let i = 0; i < files.length; i++) {
        yield fileHeads[i]!;
        for await (const chunk of createReadStream(files[i]!.path)) yield chunk as Buffer;
        yield crlf;
      }
      yield closing;
    },
  };
}
