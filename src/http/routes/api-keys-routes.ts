// /api/keys: a user's own API keys; /api/groups: the groups a key can use and their models.
import { z } from 'zod';
import { hasAtMostDecimals } from '../../metering/money-bounds.ts';
import { type ApiRouter, lazyAnswer, idParams } from '../api-route.ts';
import type { AccountsDeps } from '../../accounts/accounts-deps.ts';
import type { GatewayState } from '../../gateway-state.ts';
import { isValidCidr } from '../../accounts/ip-allowlist.ts';
import { mcpToolEntry } from '../../config/mcp-server-schema.ts';
import { createUserKey, deleteUserKey, listUserKeys, rotateUserKey, selfServiceGroups, updateUserKey } from '../../accounts/user-keys.ts';
import { listGroupsNamed } from '../../db/repositories/groups.ts';

// The answer schemas load on first use (src/http/api-route.ts lazyAnswer).
const keysAnswers = () => import('./answers/keys-answers.ts');

const keyFields = {
  group: z.string().trim().min(1).max(128).optional(),
  models: z.array(z.string().min(1).max(200)).max(500).nullable().optional(),
  mcp_tools: z.array(mcpToolEntry).max(500).nullable().optional(),
  quota_usd: z.number().finite().nonnegative().max(1e9).refine((value) => hasAtMostDecimals(value, 6), 'must be exact to a micro-dollar (at most 6 decimals)').nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  ip_allowlist: z.array(z.string().max(64).refine(isValidCidr, 'not an IP address or CIDR')).max(100).nullable().optional(),
};
const keyName = z.string().trim().min(1).max(128);

export function apiKeysRoutes(api: ApiRouter, deps: AccountsDeps, state: GatewayState): void {
  const tag = 'Keys';
  api.route({
    method: 'GET', url: '/api/keys', tag, access: 'verified', allowKeys: true, summary: 'My keys: prefix, name, group, restrictions, created, last used, spend.',
    answer: lazyAnswer(keysAnswers, (m) => m.keysAnswer),
    handler: async ({ caller }) => ({ data: await listUserKeys(deps, caller.user.id) }),
  });
  api.route({
    method: 'POST', url: '/api/keys', tag, access: 'verified', status: 201, summary: 'Create a key; the secret is in this answer only.',
    body: z.object({ name: keyName, ...keyFields }).strict(),
    answer: lazyAnswer(keysAnswers, (m) => m.keyWithSecretAnswer),
    handler: async ({ caller, body }) => {
      const created = await createUserKey(deps, caller.user.id, body);
      return { key: created.key, ...created.data };
    },
  });
  api.route({
    method: 'PATCH', url: '/api/keys/:id', tag, access: 'verified', params: idParams, summary: 'Edit a key, or disable / enable it (enabled).',
    body: z.object({ name: keyName.optional(), enabled: z.boolean().optional(), ...keyFields }).strict(),
    answer: lazyAnswer(keysAnswers, (m) => m.keyAnswer),
    handler: async ({ caller, params, body }) => (await updateUserKey(deps, caller.user.id, params.id, body)).after,
  });
  api.route({
    method: 'POST', url: '/api/keys/:id/rotate', tag, access: 'verified', params: idParams, summary: 'A new secret with the same settings; the old one stops at once.',
    answer: lazyAnswer(keysAnswers, (m) => m.keyWithSecretAnswer),
    handler: async ({ caller, params }) => {
      const rotated = await rotateUserKey(deps, caller.user.id, params.id);
      return { key: rotated.key, ...rotated.data };
    },
  });
  api.route({
    method: 'DELETE', url: '/api/keys/:id', tag, access: 'verified', params: idParams, summary: 'Delete a key, for good.',
    answer: lazyAnswer(keysAnswers, (m) => m.keyDeletedAnswer),
    handler: async ({ caller, params }) => {
      await deleteUserKey(deps, caller.user.id, params.id);
      return { id: params.id, deleted: true as const };
    },
  });
  api.route({
    method: 'GET', url: '/api/groups', tag, access: 'verified', allowKeys: true, summary: 'Groups I can pick for my keys (set by an admin), with their price ratio and models.',
    answer: lazyAnswer(keysAnswers, (m) => m.groupsAnswer),
    handler: async () => {
      const allowed = await selfServiceGroups(deps);
      const groups = allowed.length === 0 ? [] : await listGroupsNamed(deps.db, allowed);
      return {
        data: groups.map((group) => ({
          name: group.name,
          description: group.description,
          ratio: group.ratio_ppm / 1_000_000,
          models: state.current.routing.modelsForGroup(group.name).map((model) => model.id),
        })),
      };
    },
  });
}
