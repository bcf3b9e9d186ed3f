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
      // An upstream's duration that is not a plain non-negative number is not believed (BigInt(NaN) throws).
      audioMs: typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : measuredMs,
    };
  } catch {
    return { ...emptyUsage(), audioMs: measuredMs }; // text, srt or vtt: no usage in the body
  }
}

// The slowest PCM a WAV can plausibly hold (8 kHz, 8-bit, mono) and the fastest (384 kHz, 32-bit, 8 channels).
const MIN_WAV_BYTE_RATE = 8_000;
const MAX_WAV_BYTE_RATE = 384_000 * 4 * 8;
const WAV_HEADER_BYTES = 44;

/**
 * WAV: from the header's byte rate, when the header agrees with itself (byte rate = sample rate × block
 * align) and the rate is one a real file can have; a header that lies (a byte rate of 0xFFFFFFFF would price
 * any file at 0) is read at the slowest plausible rate instead, which overestimates. Compressed formats:
 * assume 128 kbit/s, a common rate. Never negative, even for a file shorter than a header.
 */
export async function estimateDurationMs(file: UploadedFile): Promise<number> {
  const handle = await open(file.path, 'r');
  try {
    const header = Buffer.alloc(WAV_HEADER_BYTES);
    const { bytesRead } = await handle.read(header, 0, WAV_HEADER_BYTES, 0);
    if (bytesRead >= 36 && header.toString('ascii', 0, 4) === 'RIFF' && header.toString('ascii', 8, 12) === 'WAVE') {
      const samples = Math.max(0, file.size - WAV_HEADER_BYTES);
      const sampleRate = header.readUInt32LE(24);
      const byteRate = header.readUInt32LE(28);
      const blockAlign = header.readUInt16LE(32);
      const consistent = byteRate === sampleRate * blockAlign && byteRate >= MIN_WAV_BYTE_RATE && byteRate <= MAX_WAV_BYTE_RATE;
      const rate = consistent ? byteRate : plausibleRate(sampleRate * blockAlign);
      return Math.round((samples / rate) * 1000);
    }
  } finally {
    await handle.close();
  }
  return Math.round((Math.max(0, file.size) / 16_000) * 1000);
}

/** The rate the other header fields imply, when plausible; else the slowest rate (the longest duration). */
function plausibleRate(implied: number): number {
  return implied >= MIN_WAV_BYTE_RATE && implied <= MAX_WAV_BYTE_RATE ? implied : MIN_WAV_BYTE_RATE;
}
