// Everything under /api built on accounts: the mail outbox, the route declarations and the OpenAPI
// document. app.ts calls installAccountsApi once.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../../db/repositories/repository-helpers.ts';
import type { GatewayState } from '../../gateway-state.ts';
import type { SecretBox } from '../../accounts/secret-box.ts';
import type { AnnounceChange } from '../../cluster/invalidation-bus.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { createRuntimeMailTransport } from '../../accounts/mail/runtime-mail-transport.ts';
import { createMailOutbox } from '../../accounts/mail/mail-outbox.ts';
import { createApiRouter, type ApiRouter } from '../api-route.ts';
import { apiDocsRoutes } from './api-docs-routes.ts';
import { apiAuthRoutes } from './api-auth-routes.ts';
import { apiMeRoutes } from './api-me-routes.ts';
import { apiKeysRoutes } from './api-keys-routes.ts';
import { apiUsageRoutes } from './api-usage-routes.ts';
import { apiPricingRoutes } from './api-pricing-routes.ts';
import type { Accounting } from '../../metering/accounting.ts';
import type { UpstreamAgents } from '../../upstream/upstream-agent.ts';
import { adminRoutes } from './admin-routes.ts';
import { adminCatalogRoutes } from './admin-catalog-routes.ts';
import { adminOpsRoutes } from './admin-ops-routes.ts';
import type { CircuitBreakers } from '../../routing/circuit-breaker.ts';
import { apiSsoRoutes } from './api-sso-routes.ts';
import { apiPasskeyRoutes } from './api-passkey-routes.ts';
import { adminIdentityRoutes } from './admin-identity-routes.ts';
import { adminMcpRoutes } from './admin-mcp-routes.ts';
import { scheduleNotifications } from '../../accounts/notifications.ts';
import { apiOrganisationRoutes } from './api-organisation-routes.ts';
import { adminOrganisationRoutes } from './admin-organisation-routes.ts';

export interface AccountsOptions {
  /** PUBLIC_URL; default http://localhost:<listening port>. */
  publicUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  dataDir: string;
  secrets: SecretBox;
  /** How often the mail outbox looks for due mail (retries), in ms. */
  mailPollMs?: number;
  /** How often low-balance and key-expiry notifications are checked, in ms (0: never). */
  notifyIntervalMs?: number;
  /** API_CHECK_ANSWERS: check every answer against its route's declared schema. */
  checkAnswers?: boolean;
}

interface AccountsApiDeps {
  db: Db;
  state: GatewayState;
  logger: Logger;
  announce: AnnounceChange;
  accounting: Accounting;
  agents: UpstreamAgents;
  /** Read by the platform overview (each channel's breaker on this instance). */
  breakers: CircuitBreakers;
}

export interface AccountsApi {
  router: ApiRouter;
  accounts: AccountsDeps;
}

export function installAccountsApi(app: FastifyInstance, deps: AccountsApiDeps, options: AccountsOptions): AccountsApi {
  const publicUrl = () => (options.publicUrl ?? `http://localhost:${(app.server.address() as AddressInfo | null)?.port ?? 3000}`).replace(/\/+$/, '');
  // SMTP_URL and MAIL_FROM are the defaults; an administrator's runtime settings override them.
  const mail = createRuntimeMailTransport(deps.db, options.secrets, { smtpUrl: options.smtpUrl, from: options.mailFrom }, options.dataDir);
  const outbox = createMailOutbox(deps.db, mail, deps.logger, options.mailPollMs);
  const accounts: AccountsDeps = { db: deps.db, secrets: options.secrets, outbox, mail, logger: deps.logger, announce: deps.announce, publicUrl };
  const stopNotifications = scheduleNotifications(accounts, (userId) => deps.accounting.balance(userId), deps.logger, options.notifyIntervalMs ?? 60_000);
  app.addHook('onClose', async () => {
    stopNotifications();
    await outbox.close();
  });
  const router = createApiRouter(app, { db: deps.db, state: deps.state }, { checkAnswers: options.checkAnswers ?? false });
  declareAccountsRoutes(router, deps, accounts);
  apiDocsRoutes(app, router, publicUrl);
  return { router, accounts };
}

/**
 * The accounts and administration routes, declared on the router. Declaring reads no dependency (handlers
 * do, when called), so scripts/api-document.ts declares them on a router of its own to build the OpenAPI
 * document without a server; app.ts adds the playground's and, with Stripe, the payments' routes after.
 */
export function declareAccountsRoutes(router: ApiRouter, deps: AccountsApiDeps, accounts: AccountsDeps): void {
  apiAuthRoutes(router, accounts);
  apiSsoRoutes(router, accounts);
  apiPasskeyRoutes(router, accounts);
  apiMeRoutes(router, accounts);
  apiKeysRoutes(router, accounts, deps.state);
  apiUsageRoutes(router, accounts, deps.accounting);
  apiPricingRoutes(router, accounts, deps.state);
  apiOrganisationRoutes(router, accounts, deps.accounting);
  adminRoutes(router, deps, accounts);
  adminCatalogRoutes(router, deps, accounts);
  adminOpsRoutes(router, deps, accounts);
  adminIdentityRoutes(router, accounts);
  adminMcpRoutes(router, accounts);
  adminOrganisationRoutes(router, accounts);
}
