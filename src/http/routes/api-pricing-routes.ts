// The public pricing page's data (src/accounts/public-pricing.ts): no sign-in, 404 while the page is off.
import { type ApiRouter, lazyAnswer } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { GatewayState } from '../../gateway-state.ts';
import { publicPricing } from '../../accounts/public-pricing.ts';
import { routeNotFound } from '../../gateway-errors.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const pricingAnswers = () => import('./answers/pricing-answers.ts');

export function apiPricingRoutes(api: ApiRouter, accounts: AccountsDeps, state: GatewayState): void {
  api.route({
    method: 'GET', url: '/api/pricing', tag: 'Pricing', access: 'public',
    summary: 'Public prices: the models of each group users may pick, with the group ratio applied (USD per million tokens, per request, per image…). 404 unless an administrator turned the pricing page on.',
    answer: lazyAnswer(pricingAnswers, (m) => m.publicPricingAnswer),
    handler: async ({ request }) => {
      const pricing = await publicPricing(accounts, state.current);
      // Off, the very answer of a path that does not exist (it was a 404 of its own kind, telling them apart).
      if (!pricing) throw routeNotFound(request.method, request.url.split('?')[0] ?? '');
      return pricing;
    },
  });
}
