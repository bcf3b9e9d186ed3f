// What /api/orgs answers (src/http/routes/api-organisation-routes.ts): organisations as a member sees them
// (src/accounts/organisations.ts organisationView), members, invitations (organisation-invites.ts) and the
// organisation's keys (organisation-keys.ts). USD amounts as numbers of dollars, times as ISO strings.
import { z } from 'zod';
import { ORGANISATION_ROLES } from '../../../accounts/organisations.ts';
import { listOf, rowId } from './common-answers.ts';
import { keyAnswer } from './keys-answers.ts';

const role = z.enum(ORGANISATION_ROLES);
const time = z.iso.datetime();

/** One organisation with my role in it; the balance only for the roles that see the wallet (else null). */
export const organisationAnswer = z.object({
  id: rowId,
  name: z.string(),
  role,
  group: z.string(),
  /** My monthly cap in it, or null for none. */
  monthly_cap_usd: z.number().nonnegative().nullable(),
  balance_usd: z.number().nullable(),
  created_at: time,
});

export const organisationListAnswer = listOf(organisationAnswer);

const member = z.object({
  user_id: rowId,
  name: z.string(),
  email: z.string().nullable(),
  role,
  monthly_cap_usd: z.number().nonnegative().nullable(),
  joined_at: time,
});
export const membersAnswer = listOf(member);

export const memberRemovedAnswer = z.object({ removed: z.literal(true), revoked_keys: z.number().int().nonnegative() });

export const inviteAnswer = z.object({
  id: rowId,
  email: z.string(),
  role,
  created_at: time,
  expires_at: time,
  expired: z.boolean(),
});
export const invitesAnswer = listOf(inviteAnswer);

export const inviteRevokedAnswer = z.object({ revoked: z.literal(true) });

export const joinedAnswer = z.object({ organisation_id: rowId, name: z.string(), role });

/** A key of the organisation: a personal key's view without its MCP tools, with the member who holds it. */
export const organisationKeyAnswer = keyAnswer.omit({ mcp_tools: true }).extend({
  member_user_id: rowId.nullable(),
  member_name: z.string().nullable(),
});
export const organisationKeysAnswer = listOf(organisationKeyAnswer);

/** A key just made or rotated: its secret, in this answer only. */
export const organisationKeySecretAnswer = organisationKeyAnswer.extend({ key: z.string() });

export { keyDeletedAnswer as organisationKeyDeletedAnswer } from './keys-answers.ts';
