// /api/admin/organisations: every organisation with its wallet and members, and the channel group its keys
// use (a platform administrator's choice, audited; the keys move at once on every instance).
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import { findOrganisation, listOrganisations, setOrganisationGroup } from '../../db/repositories/organisations.ts';
import { findGroupByName } from '../../db/repositories/groups.ts';
import { apiNotFound, invalidRequest } from '../../gateway-errors.ts';
import { recordAudit } from '../../admin/audit-log.ts';
import { actorOf } from './admin-routes.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const adminOrganisationAnswers = () => import('./answers/admin-organisation-answers.ts');

export function adminOrganisationRoutes(api: ApiRouter, accounts: AccountsDeps): void {
  const tag = 'Administration';
  api.route({
    method: 'GET', url: '/api/admin/organisations', tag, access: 'admin', allowKeys: true, summary: 'Every organisation: members, balance, channel group.',
    answer: lazyAnswer(adminOrganisationAnswers, (m) => m.adminOrganisationsAnswer),
    handler: async () => ({
      data: (await listOrganisations(accounts.db)).map((row) => ({
        id: Number(row.id), name: row.name, group: row.group_name, members: row.members, balance_usd: Number(row.balance_micros) / 1_000_000,
        wallet_user_id: Number(row.wallet_user_id), created_at: new Date(Number(row.created_at)).toISOString(),
      })),
    }),
  });
  api.route({
    method: 'PATCH', url: '/api/admin/organisations/:id', tag, access: 'admin', allowKeys: true, params: idParams, summary: "Set the organisation's channel group: every key of it uses that group from the next request on.",
    body: z.object({ group: z.string().trim().min(1).max(128) }).strict(),
    answer: lazyAnswer(adminOrganisationAnswers, (m) => m.organisationGroupSetAnswer),
    handler: async ({ caller, params, body }) => {
      const organisation = await findOrganisation(accounts.db, params.id);
      if (!organisation) throw apiNotFound('Organisation');
      if (!(await findGroupByName(accounts.db, body.group))) throw invalidRequest(`There is no group '${body.group}'.`, 'group', 'unknown_group');
      const keyIds = await setOrganisationGroup(accounts.db, organisation, body.group);
      await recordAudit(accounts.db, actorOf(caller), 'organisation.group', `organisation:${organisation.id}`, { group: organisation.group_name }, { group: body.group });
      await accounts.announce({ reason: 'organisation group changed', keyIds });
      return { id: Number(organisation.id), name: organisation.name, group: body.group, keys_moved: keyIds.length };
    },
  });
}
