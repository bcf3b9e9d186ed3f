// A generateContent request fitted to what its model declares it supports (src/hub/hub-model-support.ts):
// thinkingConfig for a model that does not reason (includeThoughts for one without summaries), tools for
// one without tools, image parts for one that cannot see them, maxOutputTokens above the model's limit or
// beyond its context window.
import { IMAGE_LEFT_OUT, ModelFitting, statedOutput, type ContextOverflowWording, type FittedRequest, type ModelSupport, type PromptSize } from '../../hub/hub-model-support.ts';

/** Google's words (INVALID_ARGUMENT); Google has none for output beyond the window, so the same sentence names both. */
const GEMINI_CONTEXT_WORDING: ContextOverflowWording = {
  promptTooLong: (prompt, window) => ({ message: `The input token count (${prompt}) exceeds the maximum number of tokens allowed (${window}).`, param: null }),
  withOutputTooLong: (prompt, output, window) => ({ message: `The input token count (${prompt}) plus maxOutputTokens (${output}) exceeds the maximum number of tokens allowed (${window}).`, param: null }),
};

type Part = Record<string, unknown>;
type Config = Record<string, unknown>;

export function fitGeminiRequestToModel(body: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize | null): FittedRequest {
  const fit = new ModelFitting(body, model, support);
  const config = (body.generationConfig ?? null) as Config | null;
  const thinking = (config?.thinkingConfig ?? null) as Config | null;
  if (support.reasoning === false && thinking) {
    fit.change('generationConfig.thinkingConfig', 'does not reason', (copy) => {
      const { thinkingConfig: _thinking, ...rest } = copy.generationConfig as Config;
      copy.generationConfig = rest;
    });
  } else if (support.reasoning_summaries === false && thinking?.includeThoughts === true) {
    fit.change('generationConfig.thinkingConfig.includeThoughts', 'gives no thought summaries', (copy) => {
      const { includeThoughts: _include, ...rest } = thinking;
      copy.generationConfig = { ...(copy.generationConfig as Config), thinkingConfig: rest };
    });
  }
  if (support.tools === false && Array.isArray(body.tools) && body.tools.length > 0) {
    fit.change('tools', 'does not call tools', (copy) => {
      delete copy.tools;
      delete copy.toolConfig;
    });
  }
  if (support.image_input === false && Array.isArray(body.contents) && body.contents.some((content) => partsOf(content).some(isImage))) {
    fit.change('inlineData', 'does not read images', (copy) => {
      copy.contents = (copy.contents as unknown[]).map(withoutImages);
    });
  }
  fit.lowerLimit('generationConfig.maxOutputTokens', config?.maxOutputTokens, support.maxOutputTokens, (copy, limit) => {
    copy.generationConfig = { ...(copy.generationConfig as Config), maxOutputTokens: limit };
  });
  fit.fitContext('generationConfig.maxOutputTokens', statedOutput(config?.maxOutputTokens, support.maxOutputTokens), prompt, GEMINI_CONTEXT_WORDING, (copy, limit) => {
    copy.generationConfig = { ...(copy.generationConfig as Config), maxOutputTokens: limit };
  });
  return fit.result();
}

const partsOf = (content: unknown): Part[] => {
  const parts = (content as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) ? parts as Part[] : [];
};

function isImage(part: Part): boolean {
  const data = (part?.inlineData ?? part?.inline_data ?? part?.fileData ?? part?.file_data) as { mimeType?: unknown; mime_type?: unknown } | undefined;
  const mime = data?.mimeType ?? data?.mime_type;
  return typeof mime === 'string' && mime.startsWith('image/');
}

function withoutImages(content: unknown): unknown {
  const parts = partsOf(content);
  if (!parts.some(isImage)) return content;
  const kept = parts.filter((part) => !isImage(part));
  return { ...(content as object), parts: kept.length > 0 ? kept : [{ text: IMAGE_LEFT_OUT }] };
}
