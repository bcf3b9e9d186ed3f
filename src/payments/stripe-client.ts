// The Stripe SDK client from the environment. STRIPE_API_BASE points it elsewhere (the tests' simulator).
import { createRequire } from 'node:module';
import type Stripe from 'stripe';

// The SDK (~6 MB of heap) is loaded only when a Stripe key is configured.
const requireModule = createRequire(import.meta.url);

interface StripeSettings {
  secretKey: string | undefined;
  apiBase: string | undefined;
}

export function createStripeClient(settings: StripeSettings): Stripe | null {
  if (!settings.secretKey) return null;
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 2, timeout: 20_000, telemetry: false };
  if (settings.apiBase) {
    const base = new URL(settings.apiBase);
    options.host = base.hostname;
    options.port = base.port || (base.protocol === 'https:' ? 443 : 80);
    options.protocol = base.protocol === 'http:' ? 'http' : 'https';
  }
  const StripeSdk = requireModule('stripe') as typeof Stripe;
  return new StripeSdk(settings.secretKey, options);
}
