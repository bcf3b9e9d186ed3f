// What a model is for: chat, embedding, image, audio or rerank. The operator may declare it
// (`capabilities.kind`); otherwise the shape of its prices tells it, because each kind of endpoint is priced
// its own way (src/metering/model-pricing.ts): images per image, audio per minute or per million characters,
// embeddings per input token with no output price. Anything else (a free model, a per-request price, token
// prices with output) is taken for chat, the common case.
import type { ModelPricing } from '../metering/model-pricing.ts';
import type { ModelLimits } from '../db/repositories/models.ts';
import type { ModelKind } from './model-capabilities.ts';

export function modelKind(declared: ModelKind | undefined, pricing: ModelPricing | undefined): ModelKind {
  if (declared) return declared;
  if (!pricing) return 'chat';
  if (pricing.perImage && Object.keys(pricing.perImage).length > 0) return 'image';
  if (pricing.perAudioMinute !== undefined || pricing.perMillionChars !== undefined) return 'audio';
  const hasOutput = pricing.outputPerMtok !== undefined || pricing.reasoningPerMtok !== undefined;
  if (pricing.inputPerMtok !== undefined && !hasOutput && !pricing.tiers?.length && pricing.cachedInputPerMtok === undefined && pricing.cacheWritePerMtok === undefined) return 'embedding';
  if (pricing.perSearch !== undefined && pricing.inputPerMtok === undefined && !hasOutput) return 'rerank';
  return 'chat';
}

/** The kind of a model as the gateway's loaded state holds it (a model without a row: chat). */
export function kindOfModel(model: { limits: ModelLimits } | undefined, pricing: ModelPricing | undefined): ModelKind {
  return modelKind(model?.limits.capabilities?.kind, pricing);
}
