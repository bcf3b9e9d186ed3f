// What the payment services need, built once in src/http/routes/api-payments-routes.ts.
import type Stripe from 'stripe';
import type { Logger } from 'pino';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { Accounting } from '../metering/accounting.ts';

export interface PaymentsDeps {
  db: Db;
  accounting: Accounting;
  /** Null when STRIPE_SECRET_KEY is not set: card top-ups are off, redemption codes still work. */
  stripe: Stripe | null;
  webhookSecret: string | null;
  logger: Logger;
  publicUrl(): string;
}

/** The largest top-up an admin allows (settings key `payments.max_topup_usd`), default 10,000. */
export const DEFAULT_MAX_TOPUP_USD = 10_000;
export const MAX_TOPUP_SETTING = 'payments.max_topup_usd';
