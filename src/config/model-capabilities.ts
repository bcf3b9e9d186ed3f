// What a model supports, as its entry declares it (config file `models:` and the admin model API, under
// `capabilities`; kept in the models row's limits_json). Undeclared means unknown, and nothing is changed:
// a gateway only drops what the operator said the model cannot take. With `unsupported: refuse` the model
// is strict: a request using what it lacks gets a 400 naming the parameter instead.
import { z } from 'zod';
import type { ModelRow } from '../db/schema.ts';
import type { ModelSupport as HubModelSupport } from '../hub/hub-model-support.ts';

/** What a model is for; the playground offers chat models only, the pricing page names the kind. */
export const MODEL_KINDS = ['chat', 'embedding', 'image', 'audio', 'rerank'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

export const modelCapabilitiesSchema = z.object({
  /** What the model is for; undeclared: read from its prices (modelKind). */
  kind: z.enum(MODEL_KINDS).optional(),
  /** Whether the model reasons (takes reasoning effort / thinking settings). */
  reasoning: z.boolean().optional(),
  /** Whether it returns reasoning summaries (`reasoning.summary`). */
  reasoning_summaries: z.boolean().optional(),
  /** Whether it calls tools. */
  tools: z.boolean().optional(),
  /** Whether it reads images. */
  image_input: z.boolean().optional(),
  /** drop (default): unsupported parameters are left out, and the x-gateway-warnings header names them; refuse: a 400. */
  unsupported: z.enum(['drop', 'refuse']).optional(),
}).strict();

type ModelCapabilities = z.infer<typeof modelCapabilitiesSchema>;

interface ModelSupport extends ModelCapabilities, HubModelSupport {
  /** Whether the entry declares anything a request could be fitted to: when not, nothing is looked at. */
  declared: boolean;
  /**
   * Whether it names fallback models: a prompt over its context window then goes on to them (the
   * upstream's own refusal moves the call along the chain), so the gateway does not refuse it first.
   */
  hasFallbacks: boolean;
}

const UNDECLARED: ModelSupport = { contextWindow: null, maxOutputTokens: null, declared: false, hasFallbacks: false };

/** Read once per model row (rows are replaced on reload): chat calls ask for it on every request. */
const supportByRow = new WeakMap<ModelRow, ModelSupport>();

/** The capabilities a model row declares (none for an unknown model). */
export function modelSupport(row: ModelRow | undefined): ModelSupport {
  if (!row) return UNDECLARED;
  let support = supportByRow.get(row);
  if (support === undefined) {
    const limits = JSON.parse(row.limits_json || '{}') as { capabilities?: ModelCapabilities };
    const capabilities = limits.capabilities ?? {};
    const declared = row.max_output_tokens !== null || row.context_window !== null || Object.values(capabilities).some((value) => value === false);
    support = { ...capabilities, contextWindow: row.context_window, maxOutputTokens: row.max_output_tokens, declared, hasFallbacks: Boolean(row.fallbacks_json) && row.fallbacks_json !== '[]' };
    supportByRow.set(row, support);
  }
  return support;
}

/** Whether a call may go on to other models (the entry's fallbacks, or the request's own `models` list). */
export function hasModelChain(support: ModelSupport, body: Record<string, unknown>): boolean {
  return support.hasFallbacks || (Array.isArray(body.models) && body.models.length > 0);
}
