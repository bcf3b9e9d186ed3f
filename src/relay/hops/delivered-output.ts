// What a streamed answer has delivered so far, watched through its hub parts: the answer text (the prefill
// a continuation needs), whether tool calls were part of it, and everything that counts as output tokens
// (text, reasoning, tool names and arguments) for when the upstream reports no usage.
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import { estimateTextTokens } from '../../metering/estimate-tokens.ts';

export interface DeliveredOutput {
  observe(part: HubStreamPart): void;
  /** The answer text only, as a continuation's prefill. */
  readonly text: string;
  readonly toolCalls: boolean;
  /** Tokens of everything delivered; tokenised only when asked. */
  tokens(): number;
}

export function deliveredOutput(): DeliveredOutput {
  let text = '';
  let other = '';
  let toolCalls = false;
  return {
    observe(part) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'reasoning-delta') other += part.delta;
      else if (part.type === 'tool-call-start') {
        toolCalls = true;
        other += part.name;
      } else if (part.type === 'tool-call-delta') other += part.argumentsDelta;
    },
    get text() {
      return text;
    },
    get toolCalls() {
      return toolCalls;
    },
    tokens: () => estimateTextTokens(other.length === 0 ? text : text + other),
  };
}
