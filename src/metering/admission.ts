// Admission before any upstream call: the model must have a price (or be free), the key and its owner
// must be under their rate limits, and the estimated cost must fit the key's quota and the wallet.
import { GatewayError, insufficientQuota, modelPriceMissing, rateLimited, sharedStateUnavailable } from '../gateway-errors.ts';
import type { CachedKey } from '../accounts/key-index.ts';
import type { GatewaySnapshot } from '../gateway-state.ts';
import type { Accounting, Reservation } from './accounting.ts';
import { computeCostMicros, type ModelPricing } from './pricing.ts';
import type { RateLimiter, RateLimitSubject } from './rate-limiter.ts';
import type { Usage } from './usage.ts';
import type { Model } from '../db/repositories/models.ts';

/** Used when neither the request nor the model's definition bounds the output. */
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

interface Admission {
  reservation: Reservation | null;
  pricing: ModelPricing | undefined;
}

interface AdmissionRequest {
  key: CachedKey;
  model: string;
  /** Fallback models that may answer instead: the reservation covers the dearest of them. */
  fallbackModels?: string[];
  /** A generous estimate of what the call will use, for a candidate model. */
  estimate(model: Model | undefined): Usage;
}

/**
 * Chat-like calls: the prompt's bytes ÷ 4 as tokens, plus the output bound for each of the `answers` the
 * request asks for (OpenAI `n`, Gemini `candidateCount`: every answer may run to the per-answer limit).
 */
export function estimateChatUsage(rawBodyBytes: number, maxOutputTokens: number | null, answers = 1): (model: Model | undefined) => Usage {
  // Every field listed, no spread of emptyUsage(): V8 defines each property after a spread by a runtime call.
  return (model) => ({
    inputTokens: estimateInputTokensFromBytes(rawBodyBytes),
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: (maxOutputTokens ?? model?.max_output_tokens ?? DEFAULT_MAX_OUTPUT_TOKENS) * answers,
    reasoningTokens: 0,
  });
}

// A key's subjects, built once per cached key (the key index is rebuilt whenever a limit changes): two
// objects and two strings per call were a measurable part of the hot path's garbage (issue 16).
const subjectsOfKey = new WeakMap<CachedKey, readonly RateLimitSubject[]>();

export function rateLimitSubjects(key: CachedKey): RateLimitSubject[] {
  let subjects = subjectsOfKey.get(key);
  if (subjects === undefined) {
    subjects = Object.freeze([
      Object.freeze({ id: `key:${key.id}`, rpm: key.rpmLimit, tpm: key.tpmLimit }),
      Object.freeze({ id: `user:${key.userId}`, rpm: key.userRpmLimit, tpm: key.userTpmLimit }),
    ]);
    subjectsOfKey.set(key, subjects);
  }
  return subjects as RateLimitSubject[];
}

/** Whether tokens per minute are limited for the key or its owner: without it tokens need no counting. */
export function hasTokenLimit(key: CachedKey): boolean {
  return key.tpmLimit !== null || key.userTpmLimit !== null;
}


/**
 * Admits a call. When the shared counters cannot be reached (Redis away), the call is refused with 503
 * rather than let through unmetered or failed as an internal error: the client may retry shortly.
 */
export async function admitCall(snapshot: GatewaySnapshot, accounting: Accounting, rateLimiter: RateLimiter, request: AdmissionRequest): Promise<Admission> {
  const model = snapshot.models.get(request.model);
  const pricing = snapshot.pricing.get(request.model);
  const free = model?.free === 1;
  if (!free && !hasAnyPrice(pricing)) throw modelPriceMissing(request.model);
  try {
    // Called for every key, limited or not: the metering back-pressure gate sits on admit()
    // (metering-backpressure.ts).
    const verdict = await rateLimiter.admit(rateLimitSubjects(request.key), Date.now());
    if (!verdict.allowed) throw rateLimited(verdict.limit!, verdict.subject!, verdict.retryAfterSeconds!);
    // Only a call that cannot cost anything (every candidate free) skips the wallet. A priced call whose
    // estimate is 0 (a WAV header claiming an absurd byte rate) still needs money left and quota left: the
    // reservation of 0 is refused on an empty or negative wallet or an exhausted key quota.
    let priced = isPriced(snapshot, request.model);
    let estimate = estimateFor(snapshot, request, request.model);
    for (const fallback of request.fallbackModels ?? []) {
      if (!isPriced(snapshot, fallback)) continue;
      priced = true;
      estimate = Math.max(estimate, estimateFor(snapshot, request, fallback));
    }
    if (!priced) return { reservation: null, pricing };
    const reservation = await accounting.reserve({ userId: request.key.userId, keyId: request.key.id, keyQuotaMicros: request.key.quotaMicros, memberCap: request.key.memberCap }, estimate);
    if (!reservation) throw insufficientQuota(await refusalReason(accounting, request.key, estimate));
    return { reservation, pricing };
  } catch (error) {
    // The shared counters could not be reached (Redis away): refused with 503, not let through unmetered.
    if (error instanceof GatewayError) throw error;
    throw sharedStateUnavailable(error);
  }
}

/** Which limit refused a reservation, for the message: the wallet, the member's monthly cap, or the key's quota. */
async function refusalReason(accounting: Accounting, key: CachedKey, estimate: number): Promise<'wallet' | 'member_cap' | 'key'> {
  const walletLeft = await accounting.balance(key.userId);
  if (walletLeft < estimate || walletLeft <= 0) return 'wallet';
  if (key.memberCap && accounting.memberCapSpent) {
    const spent = await accounting.memberCapSpent(key.memberCap);
    if (spent >= key.memberCap.capMicros || spent + estimate > key.memberCap.capMicros) return 'member_cap';
  }
  return 'key';
}

function isPriced(snapshot: GatewaySnapshot, modelId: string): boolean {
  return snapshot.models.get(modelId)?.free !== 1 && hasAnyPrice(snapshot.pricing.get(modelId));
}

function estimateFor(snapshot: GatewaySnapshot, request: AdmissionRequest, modelId: string): number {
  const pricing = snapshot.pricing.get(modelId);
  if (!isPriced(snapshot, modelId) || !pricing) return 0;
  return computeCostMicros(pricing, request.estimate(snapshot.models.get(modelId)), request.key.groupRatioPpm);
}

export function isBillable(snapshot: GatewaySnapshot, modelId: string): boolean {
  return snapshot.models.get(modelId)?.free === 1 || hasAnyPrice(snapshot.pricing.get(modelId));
}

// Prices are immutable per snapshot: whether one has any price is decided once per pricing object.
const anyPriceOf = new WeakMap<ModelPricing, boolean>();

function hasAnyPrice(pricing: ModelPricing | undefined): pricing is ModelPricing {
  if (!pricing) return false;
  let known = anyPriceOf.get(pricing);
  if (known === undefined) {
    known = computeHasAnyPrice(pricing);
    anyPriceOf.set(pricing, known);
  }
  return known;
}

/** Any price above zero: a number, or one inside a table (per image) or a tier (whose threshold is no price). */
function computeHasAnyPrice(prices: object): boolean {
  return Object.entries(prices).some(([name, value]) => name !== 'abovePromptTokens'
    && (typeof value === 'number' ? value > 0 : value !== null && typeof value === 'object' && computeHasAnyPrice(value as object)));
}

/** Prompt tokens without tokenising on the hot path: JSON text runs 4+ bytes per token, so this over-counts. */
export function estimateInputTokensFromBytes(byteLength: number): number {
  return Math.ceil(byteLength / 4);
}
