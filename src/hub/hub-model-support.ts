// What a model declares it supports (a model entry's `capabilities`, src/config/model-capabilities.ts), and
// the shared way each client format fits a request to it before anything is sent: what the model lacks is
// left out and named for the client's x-gateway-warnings header, or, for a strict model (`unsupported:
// refuse`), refused with a 400 naming the parameter in the caller's own error format. The context window
// too: a prompt over it is refused in the words the caller's own provider uses (so an agent's compaction
// starts), and an output limit that does not fit beside the prompt is lowered (a strict model: refused).
import { contextLengthExceeded, invalidRequest } from '../gateway-errors.ts';

/** Undefined: not declared, and then nothing is changed. */
export interface ModelSupport {
  reasoning?: boolean | undefined;
  reasoning_summaries?: boolean | undefined;
  tools?: boolean | undefined;
  image_input?: boolean | undefined;
  unsupported?: 'drop' | 'refuse' | undefined;
  maxOutputTokens: number | null;
  /** Prompt and output together, in tokens. */
  contextWindow: number | null;
}

/** The prompt a request carries, for the context-window check. */
export interface PromptSize {
  /** A bound its token count cannot exceed, free to read (the body's length in bytes: a token is at least one). */
  bound: number;
  /** The estimate (gpt-tokenizer over the prompt's fields), counted only when the bound does not settle it. */
  tokens(): number;
}

/** How a format's provider words a context overflow (its clients' compaction looks for these words). */
export interface ContextOverflowWording {
  /** The prompt alone does not fit. */
  promptTooLong(promptTokens: number, window: number): { message: string; param: string | null };
  /** The prompt fits, but not with the output asked for (a strict model). */
  withOutputTooLong(promptTokens: number, outputTokens: number, window: number): { message: string; param: string | null };
}

export interface FittedRequest {
  /** The body as sent on: the client's own object when nothing changed. */
  body: Record<string, unknown>;
  /** One line per change, for the client. */
  warnings: string[];
}

/** A format's fitter (FormatConverters.fitToModel); `prompt` null leaves the context window to the caller. */
export type FitToModel = (body: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize | null) => FittedRequest;

/** What stands in for an image a model cannot read, so the turn keeps its place. */
export const IMAGE_LEFT_OUT = '(an image was left out: this model does not read images)';

/** Changes made to a copy of the body, one warning each, or a 400 for a strict model. */
export class ModelFitting {
  private out: Record<string, unknown>;
  private readonly warnings: string[] = [];
  private readonly body: Record<string, unknown>;
  private readonly model: string;
  private readonly strict: boolean;
  private readonly support: ModelSupport;

  constructor(body: Record<string, unknown>, model: string, support: ModelSupport) {
    this.body = body;
    this.out = body;
    this.model = model;
    this.support = support;
    this.strict = support.unsupported === 'refuse';
  }

  /** `apply` changes the copy; `why` is said after the model's name (`does not reason`). */
  change(param: string, why: string, apply: (copy: Record<string, unknown>) => void, verb = 'dropped'): void {
    if (this.strict) throw invalidRequest(`Unsupported parameter: '${param}' is not supported with the model '${this.model}' (${this.model} ${why}).`, param, 'unsupported_parameter');
    if (this.out === this.body) this.out = { ...this.body };
    apply(this.out);
    this.warnings.push(`${param} ${verb}: ${this.model} ${why}`);
  }

  /** A number above the model's limit is lowered to it (a strict model refuses it). */
  lowerLimit(param: string, value: unknown, limit: number | null, apply: (copy: Record<string, unknown>, limit: number) => void): void {
    if (limit === null || typeof value !== 'number' || value <= limit) return;
    this.change(param, `writes at most ${limit} tokens; lowered to it`, (copy) => apply(copy, limit));
  }

  /**
   * The context window: `asked` is the output limit the body states (after lowerLimit), `param` its name.
   * A prompt that does not fit is refused in the format's words; an output limit that does not fit beside
   * it is lowered to the room left (a strict model: refused in the same words).
   */
  fitContext(param: string, asked: number | undefined, prompt: PromptSize | null, wording: ContextOverflowWording, apply: (copy: Record<string, unknown>, limit: number) => void): void {
    const room = contextRoom(this.support, prompt, asked, wording);
    if (room === null) return;
    if (this.strict) {
      const refusal = wording.withOutputTooLong(room.promptTokens, asked!, room.window);
      throw contextLengthExceeded(refusal.message, refusal.param);
    }
    this.change(param, `has a context window of ${room.window} tokens and the prompt takes about ${room.promptTokens}; lowered to ${room.left}`, (copy) => apply(copy, room.left), 'lowered');
  }

  /** A further change an `apply` made to keep the body valid (a thinking budget below a lowered limit), told as one more warning. */
  alsoChanged(param: string, why: string, verb = 'lowered'): void {
    this.warnings.push(`${param} ${verb}: ${this.model} ${why}`);
  }

  result(): FittedRequest {
    return { body: this.out, warnings: this.warnings };
  }
}

/** The output limit a body states, as the model's own limit leaves it (lowerLimit lowers it first). */
export function statedOutput(value: unknown, maxOutputTokens: number | null): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return maxOutputTokens === null ? value : Math.min(value, maxOutputTokens);
}

export const isSet = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Body bytes a prompt token takes at the least, in practice: English ~4, code ~3, Chinese ~3 bytes a token,
 * and the body's JSON (quotes, keys, roles) adds more. Below that the estimate is not counted: it costs
 * milliseconds for a long agent prompt (3-15 ms for 340 KB on the project's VM, against ~80 µs for the rest of
 * a call), and a body under twice the window in bytes is almost always well inside it. A denser prompt
 * (digits, rare symbols) past the window is left to the upstream's own refusal, as without a window.
 */
const MIN_BODY_BYTES_PER_TOKEN = 2;

/**
 * Null when the request fits the model's context window (or none is declared); the room left for output
 * when only the asked output does not fit. A prompt that leaves no room is refused. The estimate is only
 * counted when the body's length does not settle it, so most requests cost one comparison.
 */
function contextRoom(support: Pick<ModelSupport, 'contextWindow'>, prompt: PromptSize | null, asked: number | undefined, wording: ContextOverflowWording): { window: number; promptTokens: number; left: number } | null {
  const window = support.contextWindow;
  if (window === null || prompt === null || Math.ceil(prompt.bound / MIN_BODY_BYTES_PER_TOKEN) + (asked ?? 0) <= window) return null;
  const promptTokens = prompt.tokens();
  if (promptTokens >= window) {
    const { message, param } = wording.promptTooLong(promptTokens, window);
    throw contextLengthExceeded(message, param);
  }
  if (asked === undefined || promptTokens + asked <= window) return null;
  return { window, promptTokens, left: window - promptTokens };
}
