// POST /v1/images/edits: multipart `image` (one or more), optional `mask`, `prompt`, `n`, `size`,
// `response_format`, checked against the model's limits; priced per image like generations.
import { z } from 'zod';
import { invalidRequest } from '../gateway-errors.ts';
import { emptyUsage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import type { MultipartUpload } from '../http/multipart-upload.ts';
import type { PreparedUpload } from './audio-transcriptions.ts';
import { uploadPassthroughHop } from './upload-hop.ts';
import { checkImageRequest, defaultImageSize, imageLimitsFor } from './image-limits.ts';
import { imageUsage } from './images-generations.ts';

export const MAX_IMAGE_UPLOAD_BYTES = 50 * 1024 * 1024;
/** DALL·E 2 takes square PNGs under 4 MB. */
const DALL_E_2_MAX_BYTES = 4 * 1024 * 1024;

const fieldsSchema = z.object({
  model: z.string().min(1).default('dall-e-2'),
  prompt: z.string().min(1),
  n: z.coerce.number().int().min(1).optional(),
  size: z.string().optional(),
  quality: z.string().optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
}).catchall(z.string());

export function prepareImageEdit(upload: MultipartUpload): PreparedUpload {
  const fields = parseBody(fieldsSchema, upload.fields);
  const images = upload.files.filter((file) => file.field === 'image' || file.field === 'image[]');
  if (images.length === 0) throw invalidRequest("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  for (const file of upload.files) {
    if (fields.model === 'dall-e-2' && file.size > DALL_E_2_MAX_BYTES) throw invalidRequest(`Invalid file '${file.field}': dall-e-2 takes images under 4 MB.`, file.field, 'file_too_large');
  }
  return {
    model: fields.model,
    relay: (deps, call) => {
      const limits = imageLimitsFor(fields.model, deps.state.current.models.get(fields.model));
      checkImageRequest(fields.model, limits, fields);
      const size = fields.size ?? defaultImageSize(limits);
      const quality = fields.quality ?? 'standard';
      const requested = fields.n ?? 1;
      return relayEndpoint(deps, call, uploadPassthroughHop(upload, 'images-edits', (text) => imageUsage(text, requested, size, quality), () => 'application/json'),
        { estimate: () => ({ ...emptyUsage(), images: { count: requested, size, quality } }) });
    },
  };
}
