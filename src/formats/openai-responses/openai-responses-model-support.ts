// A Responses request fitted to what its model declares it supports (src/config/model-capabilities.ts):
// reasoning settings for a model that does not reason (Codex sends reasoning.summary "auto" to every model
// it has no metadata for), summaries for one that gives none, tools for one without tools, images for one
// that cannot see them, max_output_tokens above the model's limit. Each change is named for the client's
// x-gateway-warnings header; a strict model (unsupported: refuse) gets a 400 naming the parameter instead.
import { invalidRequest } from '../../gateway-errors.ts';

/** What the model's entry declares (src/config/model-capabilities.ts builds it); undefined: not declared. */
interface ModelSupport {
  reasoning?: boolean | undefined;
  reasoning_summaries?: boolean | undefined;
  tools?: boolean | undefined;
  image_input?: boolean | undefined;
  unsupported?: 'drop' | 'refuse' | undefined;
  maxOutputTokens: number | null;
}

interface FittedRequest {
  body: Record<string, unknown>;
  /** One line per change, for the client. */
  warnings: string[];
}

const isSet = (value: unknown) => value !== undefined && value !== null;

export function fitResponsesRequestToModel(body: Record<string, unknown>, model: string, support: ModelSupport): FittedRequest {
  const warnings: string[] = [];
  let out = body;
  const change = (param: string, why: string, apply: (copy: Record<string, unknown>) => void) => {
    if (support.unsupported === 'refuse') throw invalidRequest(`Unsupported parameter: '${param}' is not supported with the model '${model}' (${why}).`, param, 'unsupported_parameter');
    if (out === body) out = { ...body };
    apply(out);
    warnings.push(`${param} dropped: ${why}`);
  };
  const reasoning = body.reasoning as Record<string, unknown> | null | undefined;
  if (support.reasoning === false && reasoning && (isSet(reasoning.effort) || isSet(reasoning.summary) || isSet(reasoning.generate_summary))) {
    change('reasoning', `${model} does not reason`, (copy) => {
      delete copy.reasoning;
      if (Array.isArray(copy.include)) copy.include = copy.include.filter((value) => value !== 'reasoning.encrypted_content');
    });
  } else if ((support.reasoning === false || support.reasoning_summaries === false) && reasoning && (isSet(reasoning.summary) || isSet(reasoning.generate_summary))) {
    change('reasoning.summary', `${model} gives no reasoning summaries`, (copy) => {
      const { summary: _summary, generate_summary: _generate, ...rest } = reasoning;
      copy.reasoning = rest;
    });
  }
  if (support.tools === false && Array.isArray(body.tools) && body.tools.length > 0) {
    change('tools', `${model} does not call tools`, (copy) => {
      delete copy.tools;
      delete copy.tool_choice;
      delete copy.parallel_tool_calls;
    });
  }
  if (support.image_input === false && Array.isArray(body.input) && body.input.some(hasImage)) {
    change('input_image', `${model} does not read images`, (copy) => {
      copy.input = (copy.input as unknown[]).map(withoutImages);
    });
  }
  const limit = support.maxOutputTokens;
  if (limit !== null && typeof body.max_output_tokens === 'number' && body.max_output_tokens > limit) {
    change('max_output_tokens', `${model} writes at most ${limit} tokens; lowered to it`, (copy) => {
      copy.max_output_tokens = limit;
    });
  }
  return { body: out, warnings };
}

const isImage = (part: unknown) => (part as { type?: unknown } | null)?.type === 'input_image';

function hasImage(item: unknown): boolean {
  const content = (item as { content?: unknown } | null)?.content;
  return Array.isArray(content) && content.some(isImage);
}

function withoutImages(item: unknown): unknown {
  if (!hasImage(item)) return item;
  const message = item as { content: unknown[] };
  const kept = message.content.filter((part) => !isImage(part));
  return { ...message, content: kept.length > 0 ? kept : [{ type: 'input_text', text: '(an image was left out: this model does not read images)' }] };
}
