// The one-api family's billing read-back, so existing chat front-ends show the balance:
// GET /v1/dashboard/billing/subscription and /v1/dashboard/billing/usage, also without /v1.
import type { FastifyInstance } from 'fastify';
import type { GatewayState } from '../../gateway-state.ts';
import type { Accounting } from '../../metering/accounting.ts';
import { MICROS_PER_USD } from '../../metering/pricing.ts';
import { authenticateRequest } from '../authenticate.ts';

export function billingRoutes(app: FastifyInstance, state: GatewayState, accounting: Accounting): void {
  for (const prefix of ['/v1', '']) {
    app.get(`${prefix}/dashboard/billing/subscription`, { config: { errorFormat: 'openai-chat' } }, async (request) => {
      const key = authenticateRequest(state, request);
      const used = await accounting.keyUsed(key.id);
      // Front-ends show hard_limit_usd − total_usage as what is left: the key's quota when it has one,
      // otherwise the wallet's balance on top of what this key has spent.
      const limitMicros = key.quotaMicros ?? (await accounting.balance(key.userId)) + used;
      const limitUsd = limitMicros / MICROS_PER_USD;
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: limitUsd,
        hard_limit_usd: limitUsd,
        system_hard_limit_usd: limitUsd,
        access_until: key.expiresAt === null ? 0 : Math.floor(key.expiresAt / 1000),
      };
    });
    app.get(`${prefix}/dashboard/billing/usage`, { config: { errorFormat: 'openai-chat' } }, async (request) => {
      const key = authenticateRequest(state, request);
      const usedMicros = await accounting.keyUsed(key.id);
      // total_usage is in US cents, as OpenAI's old endpoint reported it.
      return { object: 'list', total_usage: usedMicros / 10_000 };
    });
  }
}
