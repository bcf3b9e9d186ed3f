// The public pricing page's data (GET /api/pricing, no sign-in). null when an administrator has the page off.
import { ApiError, api } from './api-client.ts';

export type ModelKind = 'chat' | 'embedding' | 'image' | 'audio' | 'rerank';

/** Prices in USD, the group's ratio already applied; only those the model has. */
export interface PublicPrices {
  input_per_mtok?: number;
  cached_input_per_mtok?: number;
  cache_write_per_mtok?: number;
  cache_write_1h_per_mtok?: number;
  output_per_mtok?: number;
  reasoning_per_mtok?: number;
  per_request?: number;
  per_audio_minute?: number;
  per_mchars?: number;
  per_search?: number;
  per_image?: Record<string, number>;
}

export interface PublicModelPrice {
  id: string;
  owned_by: string;
  kind: ModelKind;
  free: boolean;
  prices: PublicPrices;
  tiers?: Array<{ above_prompt_tokens: number; prices: PublicPrices }>;
}

interface PublicGroupPricing {
  name: string;
  description: string | null;
  ratio: number;
  models: PublicModelPrice[];
}

export async function fetchPublicPricing(): Promise<PublicGroupPricing[] | null> {
  try {
    return (await api.get<{ groups: PublicGroupPricing[] }>('/api/pricing')).groups;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
