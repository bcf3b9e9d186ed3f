// POST /v1/audio/transcriptions: a multipart audio file (mp3, mp4, mpeg, mpga, m4a, wav, webm; also flac and
// ogg) under 25 MB, with model, language (ISO-639-1), prompt, response_format and temperature; priced per
// audio minute from the duration the upstream reports, or measured from the file.
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { invalidRequest } from '../gateway-errors.ts';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { RelayCall, RelayResult } from '../relay/relay-types.ts';
import type { MultipartUpload, UploadedFile } from '../http/multipart-upload.ts';
import { uploadPassthroughHop } from './upload-hop.ts';

export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
const AUDIO_EXTENSIONS = ['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm'];

const fieldsSchema = z.object({
  model: z.string().min(1),
  language: z.string().regex(/^[a-z]{2}$/, 'expected an ISO-639-1 code such as "en"').optional(),
  prompt: z.string().optional(),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional(),
  temperature: z.coerce.number().min(0).max(1).optional(),
}).catchall(z.string());

export interface PreparedUpload {
  model: string;
  relay(deps: RelayDeps, call: RelayCall): Promise<RelayResult>;
}

export async function prepareTranscription(upload: MultipartUpload): Promise<PreparedUpload> {
  const fields = parseBody(fieldsSchema, upload.fields);
  const file = upload.files.find((candidate) => candidate.field === 'file');
  if (!file) throw invalidRequest("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  const extension = file.filename.split('.').pop()?.toLowerCase() ?? '';
  if (!AUDIO_EXTENSIONS.includes(extension)) {
    throw invalidRequest(`Invalid file format '${extension || file.filename}'. Supported formats: ${AUDIO_EXTENSIONS.join(', ')}.`, 'file', 'invalid_file_format');
  }
  const measuredMs = await estimateDurationMs(file);
  const format = fields.response_format ?? 'json';
  return {
    model: fields.model,
    relay: (deps, call) => relayEndpoint(deps, call, uploadPassthroughHop(upload, 'audio-transcriptions',
      (text) => transcriptionUsage(text, measuredMs),
      () => (format === 'json' || format === 'verbose_json' ? 'application/json' : 'text/plain; charset=utf-8')),
    { estimate: () => ({ ...emptyUsage(), audioMs: measuredMs }) }),
  };
}

/** The duration the upstream reports (verbose_json's `duration`, or `usage.seconds`), else the file's. */
function transcriptionUsage(text: string, measuredMs: number): Usage {
  try {
    const answer = JSON.parse(text) as { duration?: number; usage?: { type?: string; seconds?: number; input_tokens?: number; output_tokens?: number } };
    const seconds = answer.duration ?? (answer.usage?.type === 'duration' ? answer.usage.seconds : undefined);
    return {
      ...emptyUsage(),
      inputTokens: answer.usage?.input_tokens ?? 0,
      outputTokens: answer.usage?.output_tokens ?? 0,
      audioMs: seconds !== undefined ? Math.round(seconds * 1000) : measuredMs,
    };
  } catch {
    return { ...emptyUsage(), audioMs: measuredMs }; // text, srt or vtt: no usage in the body
  }
}

/** WAV: exact, from the header's byte rate. Compressed formats: assume 128 kbit/s, a common rate. */
export async function estimateDurationMs(file: UploadedFile): Promise<number> {
  const handle = await open(file.path, 'r');
  try {
    const header = Buffer.alloc(44);
    await handle.read(header, 0, 44, 0);
    if (header.toString('ascii', 0, 4) === 'RIFF' && header.toString('ascii', 8, 12) === 'WAVE') {
      const byteRate = header.readUInt32LE(28);
      if (byteRate > 0) return Math.round(((file.size - 44) / byteRate) * 1000);
    }
  } finally {
    await handle.close();
  }
  return Math.round((file.size / 16_000) * 1000);
}
