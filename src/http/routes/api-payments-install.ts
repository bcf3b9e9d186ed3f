// Wires the payment services (src/payments) onto the accounts API: the Stripe client and the routes.
// (Low-balance alerts are the accounts' notifications: src/accounts/notifications.ts.)
import type { Logger } from 'pino';
import type { Accounting } from '../../metering/accounting.ts';
import type { AccountsApi } from './api-routes.ts';
import { createStripeClient } from '../../payments/stripe-client.ts';
import type { PaymentsDeps } from '../../payments/payments-deps.ts';
import { apiPaymentsRoutes } from './api-payments-routes.ts';
import { apiOrganisationMoneyRoutes } from './api-organisation-money-routes.ts';

export interface PaymentsOptions {
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiBase: string | undefined;
}

export function installPaymentsApi(api: AccountsApi, deps: { accounting: Accounting; logger: Logger }, options: PaymentsOptions): PaymentsDeps {
  const stripe = createStripeClient({ secretKey: options.stripeSecretKey, apiBase: options.stripeApiBase });
  if (stripe && !options.stripeWebhookSecret) deps.logger.warn('STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: top-ups can start but will never be credited');
  const payments: PaymentsDeps = {
    db: api.accounts.db,
    accounting: deps.accounting,
    stripe,
    webhookSecret: options.stripeWebhookSecret ?? null,
    logger: deps.logger,
    publicUrl: api.accounts.publicUrl,
  };
  apiPaymentsRoutes(api.router, payments);
  apiOrganisationMoneyRoutes(api.router, payments);
  return payments;
}
