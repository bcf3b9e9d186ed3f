// Forgiving channel addresses: the gateway appends the version path itself (/v1/…, /v1beta/… for Gemini),
// so a base_url written with it (`https://api.openai.com/v1`, the form most provider docs show) would call
// /v1/v1/… and fail with 404s. Such a trailing version is removed; start-up warns that it was.
// Each type may declare its own version path (its entry's baseUrlVersionSuffix: Gemini's /v1beta, Azure's /openai/v1).
import { getProviderEntry, providerTypes } from '../providers/registry.ts';

const DEFAULT_SUFFIX = /\/v1$/;

interface NormalizedBaseUrl {
  baseUrl: string;
  /** The version path removed, or null when the URL was already a root. */
  removed: string | null;
}

export function normalizeBaseUrl(type: string, baseUrl: string): NormalizedBaseUrl {
  if (baseUrl === '') return { baseUrl, removed: null };
  const trimmed = baseUrl.replace(/\/+$/, '');
  const suffix = ((providerTypes().includes(type) ? getProviderEntry(type).baseUrlVersionSuffix : undefined) ?? DEFAULT_SUFFIX).exec(trimmed);
  if (!suffix) return { baseUrl, removed: null };
  return { baseUrl: trimmed.slice(0, suffix.index), removed: suffix[0] };
}
