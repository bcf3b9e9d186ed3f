// /api/admin/{channels,models,groups,settings}: routing, prices, registration and mail edited at runtime,
// no restart. Upstream keys and the SMTP URL are write-only. Every change is audited and announced to
// every instance.
import { z } from 'zod';
import type { GatewayState } from '../../gateway-state.ts';
import type { UpstreamAgents } from '../../upstream/upstream-agent.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { ApiCaller } from '../api-caller.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { channelView, createChannel, deleteChannel, deleteGroup, deleteModel, editChannel, groupView, listChannelViews, listGroupViews, listModelViews, modelView, putGroup, putModel } from '../../admin/admin-catalog.ts';
import { setChannelEnabled } from '../../admin/admin-channels.ts';
import { channelSchemas } from '../../config/channel-schema.ts';
import { channelTypesView } from '../../admin/channel-types.ts';
import { adminGroupSchema, adminModelSchema, checkChannelTimeouts, requireKnownGroups, requireKnownModels } from '../../admin/admin-number-rules.ts';
import { testChannel } from '../../routing/channel-tester.ts';
import { apiNotFound, invalidRequest } from '../../gateway-errors.ts';
import { REGISTRATION_SETTING, registrationSetting } from '../../accounts/registration.ts';
import { setSetting } from '../../db/repositories/settings.ts';
import { testMail } from '../../accounts/mail/mail-templates.ts';
import { changeMailSettings, mailSettingsChange, mailSettingsView } from '../../accounts/mail/mail-settings.ts';
import { SELF_SERVICE_GROUPS_SETTING, selfServiceGroups } from '../../accounts/user-keys.ts';
import { pricingPageSetting, setPricingPageSetting } from '../../accounts/public-pricing.ts';
import { actorOf } from './admin-routes.ts';
import { emailField } from './api-auth-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminCatalogAnswers = () => import('./answers/admin-catalog-answers.ts');

interface AdminCatalogDeps {
  state: GatewayState;
  agents: UpstreamAgents;
}

const nameParams = z.object({ name: z.string().min(1).max(200) });
const registrationSchema = z.object({
  mode: z.enum(['open', 'closed', 'domains']),
  domains: z.array(z.string().trim().toLowerCase().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'not a domain name')).max(500).default([]),
}).strict();

export function adminCatalogRoutes(api: ApiRouter, deps: AdminCatalogDeps, accounts: AccountsDeps): void {
  const admin = { tag: 'Administration', access: 'admin' as const, allowKeys: true };
  const db = accounts.db;
  const changed = async (caller: ApiCaller, action: string, target: string, before: unknown, after: unknown) => {
    await recordAudit(db, actorOf(caller), action, target, before, after);
    await accounts.announce({ reason: action });
  };

  api.route({
    ...admin, method: 'GET', url: '/api/admin/channels', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelsAnswer), summary: 'Channels with status and disabled reason (never their upstream keys).',
    handler: async () => ({ data: await listChannelViews(db) }),
  });
  api.route({
    ...admin, method: 'GET', url: '/api/admin/channel-types', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelTypesAnswer), summary: "Every channel type with the JSON Schema of its own settings (the dashboard's channel form is rendered from it).",
    handler: async () => ({ data: channelTypesView() }),
  });
  // The channel schemas as the provider registry is when the routes are built (registrations come before).
  const channels = channelSchemas();
  api.route({
    ...admin, method: 'POST', url: '/api/admin/channels', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelAnswer), status: 201, body: channels.channel, summary: "Create a channel (the config file's channel shape; api_key is write-only).",
    handler: async ({ caller, body }) => {
      await requireKnownGroups(db, body.groups, 'groups');
      checkChannelTimeouts(body.timeouts);
      const row = await createChannel(db, accounts.secrets, body);
      await changed(caller, 'channel.create', `channel:${row.id}`, null, channelView(row));
      return channelView(row);
    },
  });
  api.route({
    ...admin, method: 'PATCH', url: '/api/admin/channels/:id', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelAnswer), params: idParams, body: channels.patch, summary: 'Edit any field; api_key replaces the upstream keys (never shown back).',
    handler: async ({ caller, params, body }) => {
      if (body.groups) await requireKnownGroups(db, body.groups, 'groups');
      checkChannelTimeouts(body.timeouts ?? undefined);
      const { before, after } = await editChannel(db, accounts.secrets, params.id, body);
      await changed(caller, 'channel.update', `channel:${params.id}`, channelView(before), { ...channelView(after), ...(body.api_key !== undefined ? { api_key: 'changed' } : {}) });
      return channelView(after);
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/channels/:id', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelDeletedAnswer), params: idParams, summary: 'Delete a channel.',
    handler: async ({ caller, params }) => {
      const row = await deleteChannel(db, params.id);
      await changed(caller, 'channel.delete', `channel:${params.id}`, channelView(row), null);
      return { id: params.id, deleted: true as const };
    },
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/channels/:id/test', answer: lazyAnswer(adminCatalogAnswers, (m) => m.channelTestAnswer), params: idParams, summary: 'Send a small request through the channel; reenable: true turns it back on when it answers.',
    body: z.object({ model: z.string().min(1).max(200).optional(), reenable: z.boolean().optional() }).strict(),
    handler: async ({ caller, params, body }) => {
      const channel = deps.state.current.routing.anyChannel(params.id);
      if (!channel) throw apiNotFound('Channel');
      const model = body.model ?? [...channel.models][0]!;
      if (!channel.models.has(model)) throw invalidRequest(`Invalid value for 'model': the channel '${channel.name}' does not serve '${model}'.`, 'model', 'invalid_value');
      const result = await testChannel(deps.agents, channel, model);
      if (result.ok && body.reenable) {
        await setChannelEnabled(db, accounts.announce, params.id, true);
        await recordAudit(db, actorOf(caller), 'channel.reenable', `channel:${params.id}`, null, { enabled: true });
      }
      return { channel: channel.name, model, ok: result.ok, status: result.status, latency_ms: result.latencyMs, error: result.error, reenabled: result.ok && body.reenable === true };
    },
  });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/models', answer: lazyAnswer(adminCatalogAnswers, (m) => m.modelsAnswer), summary: 'Models and their prices (USD per million tokens, per request, per image…).',
    handler: async () => ({ data: await listModelViews(db) }),
  });
  api.route({
    ...admin, method: 'PUT', url: '/api/admin/models', answer: lazyAnswer(adminCatalogAnswers, (m) => m.modelAnswer), body: adminModelSchema, summary: "Create or replace a model and its prices (the config file's model shape).",
    handler: async ({ caller, body }) => {
      await requireKnownModels(db, body.fallbacks, 'fallbacks');
      const { before, after } = await putModel(db, body);
      await changed(caller, before ? 'model.update' : 'model.create', `model:${after.id}`, before ? modelView(before) : null, modelView(after));
      return modelView(after);
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/models/:name', answer: lazyAnswer(adminCatalogAnswers, (m) => m.modelDeletedAnswer), params: nameParams, summary: 'Delete a model (URL-encode ids with slashes).',
    handler: async ({ caller, params }) => {
      const row = await deleteModel(db, params.name);
      await changed(caller, 'model.delete', `model:${row.id}`, modelView(row), null);
      return { id: row.id, deleted: true as const };
    },
  });

  api.route({
    ...admin, method: 'GET', url: '/api/admin/groups', answer: lazyAnswer(adminCatalogAnswers, (m) => m.groupsAnswer), summary: 'Groups with price ratio and limits.',
    handler: async () => ({ data: await listGroupViews(db) }),
  });
  api.route({
    ...admin, method: 'PUT', url: '/api/admin/groups', answer: lazyAnswer(adminCatalogAnswers, (m) => m.groupAnswer), body: adminGroupSchema, summary: 'Create or replace a group.',
    handler: async ({ caller, body }) => {
      const { before, after } = await putGroup(db, body);
      await changed(caller, before ? 'group.update' : 'group.create', `group:${after.name}`, before ? groupView(before) : null, groupView(after));
      return groupView(after);
    },
  });
  api.route({
    ...admin, method: 'DELETE', url: '/api/admin/groups/:name', answer: lazyAnswer(adminCatalogAnswers, (m) => m.groupDeletedAnswer), params: nameParams, summary: 'Delete a group no key uses.',
    handler: async ({ caller, params }) => {
      const row = await deleteGroup(db, params.name);
      await changed(caller, 'group.delete', `group:${row.name}`, groupView(row), null);
      return { name: row.name, deleted: true as const };
    },
  });

  const mailView = async () => ({ ...mailSettingsView(await accounts.mail.settings()), public_url: accounts.publicUrl() });
  api.route({
    ...admin, method: 'GET', url: '/api/admin/settings', answer: lazyAnswer(adminCatalogAnswers, (m) => m.settingsAnswer), summary: 'Registration and mail settings (the SMTP URL only as set or not, and its host).',
    handler: async () => ({
      registration: await registrationSetting(accounts),
      self_service_groups: await selfServiceGroups(accounts),
      pricing_page: await pricingPageSetting(accounts),
      mail: await mailView(),
    }),
  });
  api.route({
    ...admin, method: 'PUT', url: '/api/admin/settings', answer: lazyAnswer(adminCatalogAnswers, (m) => m.settingsAnswer), summary: 'Change registration (open, closed, or open to listed e-mail domains), the groups users may pick for their own keys, the public pricing page (on or off), and mail (SMTP URL, write-only, and From; null goes back to SMTP_URL / MAIL_FROM).',
    body: z.object({ registration: registrationSchema.optional(), self_service_groups: z.array(z.string().min(1).max(128)).max(200).optional(), pricing_page: z.object({ enabled: z.boolean() }).strict().optional(), mail: mailSettingsChange.optional() }).strict(),
    handler: async ({ caller, body }) => {
      if (body.registration) {
        const before = await registrationSetting(accounts);
        await setSetting(db, REGISTRATION_SETTING, body.registration);
        await recordAudit(db, actorOf(caller), 'settings.registration', 'settings:registration', before, body.registration);
      }
      if (body.self_service_groups) await requireKnownGroups(db, body.self_service_groups, 'self_service_groups');
      if (body.self_service_groups) {
        const before = await selfServiceGroups(accounts);
        await setSetting(db, SELF_SERVICE_GROUPS_SETTING, body.self_service_groups);
        await recordAudit(db, actorOf(caller), 'settings.self_service_groups', 'settings:self_service_groups', before, body.self_service_groups);
      }
      if (body.pricing_page) {
        const before = await pricingPageSetting(accounts);
        await setPricingPageSetting(accounts, body.pricing_page);
        await recordAudit(db, actorOf(caller), 'settings.pricing_page', 'settings:pricing_page', before, body.pricing_page);
      }
      if (body.mail) {
        const before = mailSettingsView(await accounts.mail.settings());
        await changeMailSettings(db, accounts.secrets, body.mail);
        // Audited as shown (set or not, host, source), never the URL: it holds the SMTP password.
        await recordAudit(db, actorOf(caller), 'settings.mail', 'settings:mail', before, mailSettingsView(await accounts.mail.settings()));
      }
      return { registration: await registrationSetting(accounts), self_service_groups: await selfServiceGroups(accounts), pricing_page: await pricingPageSetting(accounts), mail: await mailView() };
    },
  });
  api.route({
    ...admin, method: 'POST', url: '/api/admin/settings/test-mail', answer: lazyAnswer(adminCatalogAnswers, (m) => m.testMailAnswer), summary: 'Send a test mail now through the mail settings in force; answers whether it was sent, or the SMTP error.',
    body: z.object({ to: emailField }).strict(),
    handler: async ({ caller, body }) => {
      const outcome = await accounts.mail.sendNow(testMail(body.to));
      await recordAudit(db, actorOf(caller), 'settings.test_mail', `mail:${body.to}`, null, outcome);
      return { ...outcome, transport: accounts.mail.kind };
    },
  });
}
