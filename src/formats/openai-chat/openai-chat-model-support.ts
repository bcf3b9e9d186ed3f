// A chat completions request fitted to what its model declares it supports (src/hub/hub-model-support.ts):
// reasoning_effort for a model that does not reason, tools for one without tools, image parts for one that
// cannot see them, max_completion_tokens / max_tokens above the model's limit or beyond its context window.
import { IMAGE_LEFT_OUT, isSet, ModelFitting, statedOutput, type ContextOverflowWording, type FittedRequest, type ModelSupport, type PromptSize } from '../../hub/hub-model-support.ts';

/** OpenAI's words for chat completions (code context_length_exceeded, param messages). */
const OPENAI_CHAT_CONTEXT_WORDING: ContextOverflowWording = {
  promptTooLong: (prompt, window) => ({ message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`, param: 'messages' }),
  withOutputTooLong: (prompt, output, window) => ({ message: `This model's maximum context length is ${window} tokens. However, you requested ${prompt + output} tokens (${prompt} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`, param: 'messages' }),
};

export function fitOpenAIChatRequestToModel(body: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize | null): FittedRequest {
  const fit = new ModelFitting(body, model, support);
  if (support.reasoning === false && isSet(body.reasoning_effort)) {
    fit.change('reasoning_effort', 'does not reason', (copy) => {
      delete copy.reasoning_effort;
    });
  }
  const hasTools = (Array.isArray(body.tools) && body.tools.length > 0) || (Array.isArray(body.functions) && body.functions.length > 0);
  if (support.tools === false && hasTools) {
    fit.change('tools', 'does not call tools', (copy) => {
      for (const field of ['tools', 'tool_choice', 'parallel_tool_calls', 'functions', 'function_call']) delete copy[field];
    });
  }
  if (support.image_input === false && Array.isArray(body.messages) && body.messages.some(hasImage)) {
    fit.change('image_url', 'does not read images', (copy) => {
      copy.messages = (copy.messages as unknown[]).map(withoutImages);
    });
  }
  for (const param of ['max_completion_tokens', 'max_tokens']) {
    fit.lowerLimit(param, body[param], support.maxOutputTokens, (copy, limit) => {
      copy[param] = limit;
    });
  }
  // Each choice has the window to itself: the limit per answer, whichever of the two names the body uses.
  const param = isSet(body.max_completion_tokens) ? 'max_completion_tokens' : 'max_tokens';
  fit.fitContext(param, statedOutput(body[param], support.maxOutputTokens), prompt, OPENAI_CHAT_CONTEXT_WORDING, (copy, limit) => {
    copy[param] = limit;
  });
  return fit.result();
}

const isImage = (part: unknown) => (part as { type?: unknown } | null)?.type === 'image_url';

function hasImage(message: unknown): boolean {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) && content.some(isImage);
}

function withoutImages(message: unknown): unknown {
  if (!hasImage(message)) return message;
  const m = message as { content: unknown[] };
  const kept = m.content.filter((part) => !isImage(part));
  return { ...m, content: kept.length > 0 ? kept : [{ type: 'text', text: IMAGE_LEFT_OUT }] };
}
