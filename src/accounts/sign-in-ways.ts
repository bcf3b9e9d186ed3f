// A person's linked identities, and the rule that removing one (or a passkey) never leaves the account
// without a way to sign in: a password (unless their domain must use an identity provider), a passkey
// (likewise), or an identity at an enabled provider.
import type { AccountsDeps } from './accounts-deps.ts';
import type { UserRow } from '../db/schema.ts';
import { listLinkedIdentities, removeSignInWay, type RemainingWays } from '../db/repositories/user-identities.ts';
import { providerRequiredFor } from './signin-domains.ts';
import { apiNotFound, conflict } from '../gateway-errors.ts';

export async function linkedIdentitiesView(deps: Pick<AccountsDeps, 'db'>, userId: number) {
  return (await listLinkedIdentities(deps.db, userId)).map((row) => ({
    id: row.id,
    provider: row.provider_name,
    provider_slug: row.provider_slug,
    kind: row.provider_kind,
    provider_enabled: row.provider_enabled === 1,
    email: row.email,
    linked_at: new Date(Number(row.created_at)).toISOString(),
    last_used_at: new Date(Number(row.last_used_at)).toISOString(),
  }));
}

/** A removal is refused only when it takes the account from some way to sign in to none. */
async function stillSignsIn(deps: Pick<AccountsDeps, 'db'>, user: UserRow): Promise<(left: RemainingWays, before: RemainingWays) => boolean> {
  const providerOnly = await providerRequiredFor(deps, user.email);
  const signsIn = (ways: RemainingWays) => ways.identities.some((identity) => identity.provider_enabled === 1) || (!providerOnly && (ways.passwordSet || ways.passkeys > 0));
  return (left, before) => signsIn(left) || !signsIn(before);
}

const lastWay = () => conflict('This is your last way to sign in: set a password, add a passkey or link another identity first.', 'id', 'last_sign_in_method');

export async function unlinkIdentity(deps: Pick<AccountsDeps, 'db'>, user: UserRow, id: number): Promise<void> {
  const outcome = await removeSignInWay(deps.db, user.id, { identityId: id }, await stillSignsIn(deps, user));
  if (outcome === 'missing') throw apiNotFound('This linked identity');
  if (outcome === 'last') throw lastWay();
}

export async function removePasskeyUnlessLast(deps: Pick<AccountsDeps, 'db'>, user: UserRow, id: number): Promise<void> {
  const outcome = await removeSignInWay(deps.db, user.id, { passkeyId: id }, await stillSignsIn(deps, user));
  if (outcome === 'missing') throw apiNotFound('This passkey');
  if (outcome === 'last') throw lastWay();
}
