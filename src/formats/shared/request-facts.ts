// What the pipeline must know about a request before it is sent, declared by each format for its own fields
// (src/formats/<format>/<format>-request-facts.ts), so metering and the relay never name a format's fields:
// the output limit that caps an estimated output count, and the prompt's fields for an estimated input count.
import type { RequestFacts } from '../../hub/hub-format.ts';
import { estimatePromptTokensIn, type PromptFields } from '../../metering/estimate-tokens.ts';

/** Facts from a format's output-limit reader and the fields that carry its prompt. */
export function requestFacts(outputLimit: (fields: Record<string, unknown>) => number | undefined, prompt: PromptFields): RequestFacts {
  return {
    outputLimit: (body) => (isObject(body) ? outputLimit(body) : undefined),
    promptTokens: (body) => estimatePromptTokensIn(body, prompt),
  };
}

/** A count a body states: a positive safe integer, else unknown. */
export function positiveCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
