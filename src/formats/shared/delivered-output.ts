// What a streamed answer has delivered so far, watched through its hub parts: the answer text (the prefill
// a continuation needs), whether tool calls were part of it, and everything that counts as output tokens
// (text, reasoning, tool names and arguments) for when the upstream reports no usage.
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import { estimateTextTokens } from '../../metering/estimate-tokens.ts';

export interface DeliveredOutput {
  observe(part: HubStreamPart): void;
  /** observe() of a text-delta part, for a converter that skipped building it. */
  observeText(delta: string): void;
  /** The answer text only, as a continuation's prefill. */
  readonly text: string;
  readonly toolCalls: boolean;
  /** Tokens of everything delivered; tokenised only when asked. */
  tokens(): number;
}

export function deliveredOutput(): DeliveredOutput {
  return new DeliveredParts();
}

/** Pieces joined into one string every so often. */
const GROUP = 32;

/**
 * Text kept as it streams, for the whole stream. `text += delta` made a chain of one cons string per event
 * that lived as long as the stream, so every young-generation GC copied all of it (issue 16: the scavenger
 * was a tenth of a translated stream's instructions); the pieces wait in an array and are joined into one
 * flat string per group, so an open stream holds a few strings rather than two objects per event.
 */
class JoinedText {
  private joined = '';
  private pieces: string[] = [];

  add(piece: string): void {
    const pieces = this.pieces;
    pieces.push(piece);
    if (pieces.length === GROUP) {
      this.joined += pieces.join('');
      this.pieces = [];
    }
  }

  get value(): string {
    if (this.pieces.length > 0) {
      this.joined += this.pieces.join('');
      this.pieces = [];
    }
    return this.joined;
  }
}

/** One per open stream: a class, so the stream keeps one object rather than closures. */
class DeliveredParts implements DeliveredOutput {
  private readonly answer = new JoinedText();
  /** Reasoning, tool names and arguments: counted as output, not part of a continuation's prefill. */
  private readonly other = new JoinedText();
  toolCalls = false;

  observe(part: HubStreamPart): void {
    if (part.type === 'text-delta') this.answer.add(part.delta);
    else if (part.type === 'reasoning-delta') this.other.add(part.delta);
    else if (part.type === 'tool-call-start') {
      this.toolCalls = true;
      this.other.add(part.name);
    } else if (part.type === 'tool-call-delta') this.other.add(part.argumentsDelta);
  }

  observeText(delta: string): void {
    this.answer.add(delta);
  }

  get text(): string {
    return this.answer.value;
  }

  tokens(): number {
    const text = this.answer.value;
    const other = this.other.value;
    return estimateTextTokens(other.length === 0 ? text : text + other);
  }
}
