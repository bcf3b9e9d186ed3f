// What a model declares it supports (a model entry's `capabilities`, src/config/model-capabilities.ts), and
// the shared way each client format fits a request to it before anything is sent: what the model lacks is
// left out and named for the client's x-gateway-warnings header, or, for a strict model (`unsupported:
// refuse`), refused with a 400 naming the parameter in the caller's own error format.
import { invalidRequest } from '../gateway-errors.ts';

/** Undefined: not declared, and then nothing is changed. */
export interface ModelSupport {
  reasoning?: boolean | undefined;
  reasoning_summaries?: boolean | undefined;
  tools?: boolean | undefined;
  image_input?: boolean | undefined;
  unsupported?: 'drop' | 'refuse' | undefined;
  maxOutputTokens: number | null;
}

export interface FittedRequest {
  /** The body as sent on: the client's own object when nothing changed. */
  body: Record<string, unknown>;
  /** One line per change, for the client. */
  warnings: string[];
}

/** A format's fitter (FormatConverters.fitToModel). */
export type FitToModel = (body: Record<string, unknown>, model: string, support: ModelSupport) => FittedRequest;

/** What stands in for an image a model cannot read, so the turn keeps its place. */
export const IMAGE_LEFT_OUT = '(an image was left out: this model does not read images)';

/** Changes made to a copy of the body, one warning each, or a 400 for a strict model. */
export class ModelFitting {
  private out: Record<string, unknown>;
  private readonly warnings: string[] = [];
  private readonly body: Record<string, unknown>;
  private readonly model: string;
  private readonly strict: boolean;

  constructor(body: Record<string, unknown>, model: string, support: ModelSupport) {
    this.body = body;
    this.out = body;
    this.model = model;
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

  result(): FittedRequest {
    return { body: this.out, warnings: this.warnings };
  }
}

export const isSet = (value: unknown): boolean => value !== undefined && value !== null;
