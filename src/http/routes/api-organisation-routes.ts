// /api/orgs: organisations, their members, invitations and keys (issue 34). Sessions only: an sk- key never
// changes an organisation. Services in src/accounts/organisations.ts, organisation-invites.ts, organisation-keys.ts.
import { z } from 'zod';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { Accounting } from '../../metering/accounting.ts';
import { hasAtMostDecimals } from '../../metering/money-bounds.ts';
import { isValidCidr } from '../../accounts/ip-allowlist.ts';
import {
  MANAGERS, ORGANISATION_ROLES, PAYERS, changeRole, createOrganisation, listMyOrganisations, membersView, membershipFor,
  organisationView, remove, rename, setCap, transfer,
} from '../../accounts/organisations.ts';
import { accept, invite, pendingInvites, revoke } from '../../accounts/organisation-invites.ts';
import { createKey, deleteKey, listKeys, rotateKey, updateKey } from '../../accounts/organisation-keys.ts';
import type { MembershipRow } from '../../db/repositories/organisations.ts';
import { usdToMicros } from '../../metering/pricing.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const apiOrganisationAnswers = () => import('./answers/api-organisation-answers.ts');

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const memberParams = z.object({ id, user_id: id });
const keyParams = z.object({ id, key_id: id });
const inviteParams = z.object({ id, invite_id: id });
const organisationName = z.string().trim().min(1).max(100);
const role = z.enum(ORGANISATION_ROLES);
const usd = z.number().finite().nonnegative().max(1e9).refine((value) => hasAtMostDecimals(value, 6), 'must be exact to a micro-dollar (at most 6 decimals)');
const keyName = z.string().trim().min(1).max(128);
const keyFields = {
  models: z.array(z.string().min(1).max(200)).max(500).nullable().optional(),
  quota_usd: usd.nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ip_allowlist: z.array(z.string().max(64).refine(isValidCidr, 'not an IP address or CIDR')).max(100).nullable().optional(),
};

export function apiOrganisationRoutes(api: ApiRouter, deps: AccountsDeps, accounting: Accounting): void {
  const tag = 'Organisations';
  const view = async (membership: MembershipRow) => organisationView(membership, PAYERS.includes(membership.role) || MANAGERS.includes(membership.role) ? await accounting.balance(membership.wallet_user_id) : null);

  api.route({
    method: 'GET', url: '/api/orgs', tag, access: 'verified', summary: 'The organisations I belong to, with my role (and the balance where my role sees the wallet).',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationListAnswer),
    handler: async ({ caller }) => ({ data: await Promise.all((await listMyOrganisations(deps, caller.user.id)).map(view)) }),
  });
  api.route({
    method: 'POST', url: '/api/orgs', tag, access: 'verified', status: 201, summary: 'Create an organisation; I become its owner. It has a wallet of its own, empty.',
    body: z.object({ name: organisationName }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationAnswer),
    handler: async ({ caller, body }) => view(await createOrganisation(deps, caller.user, body.name)),
  });
  api.route({
    method: 'GET', url: '/api/orgs/:id', tag, access: 'verified', params: idParams, summary: 'One organisation I belong to.',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationAnswer),
    handler: async ({ caller, params }) => view(await membershipFor(deps, params.id, caller.user.id)),
  });
  api.route({
    method: 'PATCH', url: '/api/orgs/:id', tag, access: 'verified', params: idParams, summary: 'Rename (owners and admins).',
    body: z.object({ name: organisationName }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationAnswer),
    handler: async ({ caller, params, body }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, MANAGERS);
      await rename(deps, membership, body.name);
      return view(await membershipFor(deps, params.id, caller.user.id));
    },
  });

  api.route({
    method: 'GET', url: '/api/orgs/:id/members', tag, access: 'verified', params: idParams, summary: 'Members with their role and monthly cap.',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.membersAnswer),
    handler: async ({ caller, params }) => {
      await membershipFor(deps, params.id, caller.user.id);
      return { data: await membersView(deps, params.id) };
    },
  });
  api.route({
    method: 'PATCH', url: '/api/orgs/:id/members/:user_id', tag, access: 'verified', params: memberParams,
    summary: "A member's role and monthly cap (owners and admins; only owners make or unmake owners; the last owner stays one).",
    body: z.object({ role: role.optional(), monthly_cap_usd: usd.nullable().optional() }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.membersAnswer),
    handler: async ({ caller, params, body }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id, MANAGERS);
      if (body.role !== undefined) await changeRole(deps, membership, params.user_id, body.role);
      if (body.monthly_cap_usd !== undefined) await setCap(deps, membership, params.user_id, body.monthly_cap_usd === null ? null : usdToMicros(body.monthly_cap_usd));
      return { data: await membersView(deps, params.id) };
    },
  });
  api.route({
    method: 'DELETE', url: '/api/orgs/:id/members/:user_id', tag, access: 'verified', params: memberParams,
    summary: 'Remove a member, or leave (my own id): their organisation keys stop at once. The last owner cannot leave.',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.memberRemovedAnswer),
    handler: async ({ caller, params }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id);
      return { removed: true as const, revoked_keys: (await remove(deps, membership, caller.user.id, params.user_id)).revokedKeys };
    },
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/transfer', tag, access: 'verified', params: idParams, summary: 'Hand the ownership to another member (owners); I stay on as an admin.',
    body: z.object({ user_id: id }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.membersAnswer),
    handler: async ({ caller, params, body }) => {
      const membership = await membershipFor(deps, params.id, caller.user.id);
      await transfer(deps, membership, caller.user.id, body.user_id);
      return { data: await membersView(deps, params.id) };
    },
  });

  api.route({
    method: 'GET', url: '/api/orgs/:id/invites', tag, access: 'verified', params: idParams, summary: 'Invitations not yet accepted nor revoked (owners and admins).',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.invitesAnswer),
    handler: async ({ caller, params }) => {
      await membershipFor(deps, params.id, caller.user.id, MANAGERS);
      return { data: await pendingInvites(deps, params.id) };
    },
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/invites', tag, access: 'verified', params: idParams, status: 201,
    summary: 'Invite by e-mail (owners and admins): a single-use link valid 7 days. The answer is the same for every address.',
    body: z.object({ email: z.email().max(254), role: role.default('member') }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.inviteAnswer),
    handler: async ({ caller, params, body }) => invite(deps, await membershipFor(deps, params.id, caller.user.id, MANAGERS), caller.user, body.email, body.role),
  });
  api.route({
    method: 'DELETE', url: '/api/orgs/:id/invites/:invite_id', tag, access: 'verified', params: inviteParams, summary: 'Revoke an invitation (owners and admins).',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.inviteRevokedAnswer),
    handler: async ({ caller, params }) => {
      await membershipFor(deps, params.id, caller.user.id, MANAGERS);
      await revoke(deps, params.id, params.invite_id);
      return { revoked: true as const };
    },
  });
  api.route({
    method: 'POST', url: '/api/orgs/join', tag, access: 'verified', summary: "Accept an invitation: the token from the mailed link, signed in with the address it was sent to.",
    body: z.object({ token: z.string().min(20).max(200) }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.joinedAnswer),
    handler: async ({ caller, body }) => {
      const joined = await accept(deps, caller.user, body.token);
      return { organisation_id: joined.organisationId, name: joined.name, role: joined.role };
    },
  });

  api.route({
    method: 'GET', url: '/api/orgs/:id/keys', tag, access: 'verified', params: idParams, summary: "The organisation's keys I may see: mine, or every member's for owners and admins.",
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationKeysAnswer),
    handler: async ({ caller, params }) => ({ data: await listKeys(deps, await membershipFor(deps, params.id, caller.user.id), caller.user.id) }),
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/keys', tag, access: 'verified', params: idParams, status: 201,
    summary: "Create a key I hold, charged to the organisation's wallet (its group is the organisation's); the secret is in this answer only.",
    body: z.object({ name: keyName, ...keyFields }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationKeySecretAnswer),
    handler: async ({ caller, params, body }) => {
      const created = await createKey(deps, await membershipFor(deps, params.id, caller.user.id), caller.user.id, body);
      return { key: created.key, ...created.data };
    },
  });
  api.route({
    method: 'PATCH', url: '/api/orgs/:id/keys/:key_id', tag, access: 'verified', params: keyParams, summary: 'Edit, disable or enable an organisation key (mine; any for owners and admins).',
    body: z.object({ name: keyName.optional(), enabled: z.boolean().optional(), ...keyFields }).strict(),
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationKeyAnswer),
    handler: async ({ caller, params, body }) => updateKey(deps, await membershipFor(deps, params.id, caller.user.id), caller.user.id, params.key_id, body),
  });
  api.route({
    method: 'POST', url: '/api/orgs/:id/keys/:key_id/rotate', tag, access: 'verified', params: keyParams, summary: 'A new secret; the old one stops at once.',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationKeySecretAnswer),
    handler: async ({ caller, params }) => {
      const rotated = await rotateKey(deps, await membershipFor(deps, params.id, caller.user.id), caller.user.id, params.key_id);
      return { key: rotated.key, ...rotated.data };
    },
  });
  api.route({
    method: 'DELETE', url: '/api/orgs/:id/keys/:key_id', tag, access: 'verified', params: keyParams, summary: 'Delete an organisation key, for good.',
    answer: lazyAnswer(apiOrganisationAnswers, (m) => m.organisationKeyDeletedAnswer),
    handler: async ({ caller, params }) => {
      await deleteKey(deps, await membershipFor(deps, params.id, caller.user.id), caller.user.id, params.key_id);
      return { id: params.key_id, deleted: true as const };
    },
  });
}
