// A Messages request fitted to what its model declares it supports (src/hub/hub-model-support.ts): thinking
// for a model that does not reason, tools for one without tools, image blocks (in user turns and tool
// results) for one that cannot see them, max_tokens above the model's limit or beyond its context window.
import { IMAGE_LEFT_OUT, ModelFitting, statedOutput, type ContextOverflowWording, type FittedRequest, type ModelSupport, type PromptSize } from '../../hub/hub-model-support.ts';

type Block = Record<string, unknown>;

/**
 * Anthropic's own words: Claude Code compacts on the first (its pattern is the whole message) and retries
 * with a lower max_tokens parsed from the second.
 */
/** Anthropic's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

const ANTHROPIC_CONTEXT_WORDING: ContextOverflowWording = {
  promptTooLong: (prompt, window) => ({ message: `prompt is too long: ${prompt} tokens > ${window} maximum`, param: null }),
  withOutputTooLong: (prompt, output, window) => ({ message: `input length and \`max_tokens\` exceed context limit: ${prompt} + ${output} > ${window}, decrease input length or \`max_tokens\` and try again`, param: null }),
};

export function fitAnthropicRequestToModel(body: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize | null): FittedRequest {
  const fit = new ModelFitting(body, model, support);
  const thinking = body.thinking as { type?: unknown } | null | undefined;
  if (support.reasoning === false && thinking && thinking.type !== 'disabled') {
    fit.change('thinking', 'does not reason', (copy) => {
      delete copy.thinking;
    });
  }
  if (support.tools === false && Array.isArray(body.tools) && body.tools.length > 0) {
    fit.change('tools', 'does not call tools', (copy) => {
      delete copy.tools;
      delete copy.tool_choice;
    });
  }
  if (support.image_input === false && Array.isArray(body.messages) && body.messages.some((message) => blocksOf(message).some(holdsImage))) {
    fit.change('image', 'does not read images', (copy) => {
      copy.messages = (copy.messages as unknown[]).map(withoutImages);
    });
  }
  fit.lowerLimit('max_tokens', body.max_tokens, support.maxOutputTokens, (copy, limit) => {
    copy.max_tokens = limit;
  });
  fit.fitContext('max_tokens', statedOutput(body.max_tokens, support.maxOutputTokens), prompt, ANTHROPIC_CONTEXT_WORDING, (copy, limit) => {
    copy.max_tokens = limit;
    // Anthropic wants 1024 <= budget_tokens < max_tokens: the budget goes below the new limit, or thinking goes.
    const thinking = copy.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
    if (thinking?.type !== 'enabled' || typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < limit) return;
    if (limit - 1 >= MIN_THINKING_BUDGET) {
      copy.thinking = { ...thinking, budget_tokens: limit - 1 };
      fit.alsoChanged('thinking.budget_tokens', `has room for ${limit} output tokens; lowered to ${limit - 1}`);
    } else {
      delete copy.thinking;
      fit.alsoChanged('thinking', `has room for ${limit} output tokens, less than the smallest thinking budget`, 'dropped');
    }
  });
  return fit.result();
}

const blocksOf = (message: unknown): Block[] => {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? content as Block[] : [];
};

const isImage = (block: Block) => block?.type === 'image';
const holdsImage = (block: Block): boolean => isImage(block) || (block?.type === 'tool_result' && Array.isArray(block.content) && (block.content as Block[]).some(isImage));

function imagesReplaced(blocks: Block[]): Block[] {
  const kept = blocks.filter((block) => !isImage(block));
  return kept.length > 0 ? kept : [{ type: 'text', text: IMAGE_LEFT_OUT }];
}

function withoutImages(message: unknown): unknown {
  const blocks = blocksOf(message);
  if (!blocks.some(holdsImage)) return message;
  const content = imagesReplaced(blocks.map((block) => (block.type === 'tool_result' && Array.isArray(block.content) ? { ...block, content: imagesReplaced(block.content as Block[]) } : block)));
  return { ...(message as object), content };
}
