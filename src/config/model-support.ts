// What a model supports, as its entry declares it (model-capabilities.ts), with its context window and
// output limit: what chat calls fit a request to.
import type { Model } from '../db/repositories/models.ts';
import type { ModelSupport as HubModelSupport } from '../hub/hub-model-support.ts';
import type { ModelCapabilities } from './model-capabilities.ts';

interface ModelSupport extends ModelCapabilities, HubModelSupport {
  contextWindow: number | null;
  /** Whether the entry declares anything a request could be fitted to: when not, nothing is looked at. */
  declared: boolean;
}

const UNDECLARED: ModelSupport = { contextWindow: null, maxOutputTokens: null, declared: false };

/** Read once per model (models are replaced on reload): chat calls ask for it on every request. */
const supportByRow = new WeakMap<Model, ModelSupport>();

/** The capabilities a model row declares (none for an unknown model). */
export function modelSupport(row: Model | undefined): ModelSupport {
  if (!row) return UNDECLARED;
  let support = supportByRow.get(row);
  if (support === undefined) {
    const capabilities = row.limits.capabilities ?? {};
    const declared = row.max_output_tokens !== null || Object.values(capabilities).some((value) => value === false);
    support = { ...capabilities, contextWindow: row.context_window, maxOutputTokens: row.max_output_tokens, declared };
    supportByRow.set(row, support);
  }
  return support;
}
