// The dashboard's playground calls models under the signed-in user's own key named "playground": the same
// limits, relay and metering as any key, logged under that name and charged to the user's wallet. The key
// is made on first use; nobody ever sees its secret (the playground finds it by id, never by secret).
import type { AccountsDeps } from './accounts-deps.ts';
import type { CachedKey } from './key-index.ts';
import type { GatewayState } from '../gateway-state.ts';
import { createUserKey } from './user-keys.ts';
import { gatewayError } from '../gateway-errors.ts';
import { findKeyStatusByUserAndName, renameApiKey } from '../db/repositories/api-keys.ts';

const PLAYGROUND_KEY_NAME = 'playground';

export async function playgroundKeyFor(deps: AccountsDeps, state: GatewayState, userId: number): Promise<CachedKey> {
  const existing = await findKeyStatusByUserAndName(deps.db, userId, PLAYGROUND_KEY_NAME);
  let id = existing && existing.status !== 'deleted' ? existing.id : null;
  if (id === null) {
    // A deleted playground key keeps its row (deletes are final) but gives its name up to the new one.
    if (existing) await renameApiKey(deps.db, existing.id, `${PLAYGROUND_KEY_NAME} (deleted ${existing.id})`);
    id = (await createUserKey(deps, userId, { name: PLAYGROUND_KEY_NAME })).data.id;
  }
  const key = state.current.keys.byId(id) ?? (await state.reload(), state.current.keys.byId(id));
  if (!key) throw gatewayError('GW_ERR_INTERNAL', { message: 'The playground key could not be loaded.', code: 'internal_error' });
  return key;
}
