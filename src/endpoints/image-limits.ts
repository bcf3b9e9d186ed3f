// What each image model accepts: sizes, largest n and longest prompt. Known OpenAI models have their
// documented limits built in; a model's `image_sizes`, `max_images` and `max_prompt_chars` in the config
// file override them.
import type { Model } from '../db/repositories/models.ts';
import { invalidRequest } from '../gateway-errors.ts';

interface ImageLimits {
  sizes: string[] | null;
  maxImages: number;
  maxPromptChars: number;
  qualities: string[] | null;
}

const KNOWN: Record<string, ImageLimits> = {
  'dall-e-2': { sizes: ['256x256', '512x512', '1024x1024'], maxImages: 10, maxPromptChars: 1000, qualities: ['standard'] },
  'dall-e-3': { sizes: ['1024x1024', '1792x1024', '1024x1792'], maxImages: 1, maxPromptChars: 4000, qualities: ['standard', 'hd'] },
  'gpt-image-1': { sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'], maxImages: 10, maxPromptChars: 32000, qualities: ['low', 'medium', 'high', 'auto'] },
};
const UNKNOWN: ImageLimits = { sizes: null, maxImages: 10, maxPromptChars: 32000, qualities: null };

export function imageLimitsFor(modelId: string, model: Model | undefined): ImageLimits {
  const base = KNOWN[modelId] ?? UNKNOWN;
  const configured = model?.limits ?? {};
  return {
    sizes: configured.imageSizes ?? base.sizes,
    maxImages: configured.maxImages ?? base.maxImages,
    maxPromptChars: configured.maxPromptChars ?? base.maxPromptChars,
    qualities: base.qualities,
  };
}

interface ImageRequestFields { prompt: string; n?: number | null; size?: string | null; quality?: string | null }

/** Refuses what the model would refuse, with a 400 naming the field, before anything goes upstream. */
export function checkImageRequest(model: string, limits: ImageLimits, fields: ImageRequestFields): void {
  if (fields.prompt.length > limits.maxPromptChars) {
    throw invalidRequest(`Invalid value for 'prompt': ${model} accepts at most ${limits.maxPromptChars} characters; this prompt has ${fields.prompt.length}.`, 'prompt', 'string_above_max_length');
  }
  if (fields.n !== undefined && fields.n !== null && fields.n > limits.maxImages) {
    throw invalidRequest(`Invalid value for 'n': ${model} makes at most ${limits.maxImages} image${limits.maxImages === 1 ? '' : 's'} per request.`, 'n', 'invalid_value');
  }
  if (fields.size && limits.sizes && !limits.sizes.includes(fields.size)) {
    throw invalidRequest(`Invalid value for 'size': ${model} supports ${limits.sizes.join(', ')}.`, 'size', 'invalid_value');
  }
  if (fields.quality && limits.qualities && !limits.qualities.includes(fields.quality)) {
    throw invalidRequest(`Invalid value for 'quality': ${model} supports ${limits.qualities.join(', ')}.`, 'quality', 'invalid_value');
  }
}

export function defaultImageSize(limits: ImageLimits): string {
  return limits.sizes?.includes('1024x1024') ? '1024x1024' : limits.sizes?.[0] ?? '1024x1024';
}
