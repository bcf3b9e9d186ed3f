// The public pricing page's data (GET /api/pricing, no sign-in). null when an administrator has the page off.
import { ApiError, api } from './api-client.ts';
import type { ApiAnswer } from './api-types.ts';

type PublicGroupPricing = ApiAnswer<'/api/pricing', 'get'>['groups'][number];
export type PublicModelPrice = PublicGroupPricing['models'][number];
export type PublicPrices = PublicModelPrice['prices'];
export type ModelKind = PublicModelPrice['kind'];

export async function fetchPublicPricing(): Promise<PublicGroupPricing[] | null> {
  try {
    return (await api.get<ApiAnswer<'/api/pricing', 'get'>>('/api/pricing')).groups;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
