// What a model supports, as its entry declares it (model-capabilities.ts), with its context window, output
// limit and fallbacks: what chat calls fit a request to.
import type { Model } from '../db/repositories/models.ts';
import type { ModelSupport as HubModelSupport } from '../hub/hub-model-support.ts';
import type { ModelCapabilities } from './model-capabilities.ts';

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

/** Read once per model (models are replaced on reload): chat calls ask for it on every request. */
const supportByModel = new WeakMap<Model, ModelSupport>();

/** The capabilities a model declares (none for an unknown model). */
export function modelSupport(model: Model | undefined): ModelSupport {
  if (!model) return UNDECLARED;
  let support = supportByModel.get(model);
  if (support === undefined) {
    const capabilities = model.limits.capabilities ?? {};
    const declared = model.max_output_tokens !== null || model.context_window !== null || Object.values(capabilities).some((value) => value === false);
    support = { ...capabilities, contextWindow: model.context_window, maxOutputTokens: model.max_output_tokens, declared, hasFallbacks: model.fallbacks.length > 0 };
    supportByModel.set(model, support);
  }
  return support;
}

/** Whether a call may go on to other models (the entry's fallbacks, or the request's own `models` list). */
export function hasModelChain(support: ModelSupport, body: Record<string, unknown>): boolean {
  return support.hasFallbacks || (Array.isArray(body.models) && body.models.length > 0);
}
