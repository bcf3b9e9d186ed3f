// Turns a presented secret into the key it names, or the error the caller must see. Memory only.
import {
  disabledApiKey, disabledUser, expiredApiKey, invalidApiKey, ipNotAllowed, missingApiKey,
} from '../gateway-errors.ts';
import type { CachedKey, KeyIndex } from './key-index.ts';
import { unmapIpv4 } from './ip-allowlist.ts';

export function authenticateKey(keys: KeyIndex, presented: string | undefined, clientIp: string, now: number): CachedKey {
  if (!presented) throw missingApiKey();
  const key = keys.lookup(presented);
  if (!key) throw invalidApiKey();
  if (!key.keyEnabled) throw disabledApiKey();
  if (key.expiresAt !== null && key.expiresAt <= now) throw expiredApiKey();
  if (!key.userEnabled) throw disabledUser();
  if (key.ipAllowlist && !key.ipAllowlist.allows(clientIp)) throw ipNotAllowed(unmapIpv4(clientIp));
  return key;
}
