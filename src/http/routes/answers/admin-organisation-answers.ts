// What /api/admin/organisations answers (src/http/routes/admin-organisation-routes.ts): every organisation
// with its wallet's balance (USD) and member count, and the channel group its keys use.
import { z } from 'zod';
import { listOf, rowId } from './common-answers.ts';

export const adminOrganisationsAnswer = listOf(z.object({
  id: rowId,
  name: z.string(),
  group: z.string(),
  members: z.number().int().nonnegative(),
  balance_usd: z.number(),
  /** The account that holds the organisation's wallet. */
  wallet_user_id: rowId,
  created_at: z.iso.datetime(),
}));

/** The group set, and how many of the organisation's keys moved to it. */
export const organisationGroupSetAnswer = z.object({ id: rowId, name: z.string(), group: z.string(), keys_moved: z.number().int().nonnegative() });
