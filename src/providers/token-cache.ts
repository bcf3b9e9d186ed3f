// Short-lived upstream access tokens (Entra ID, Google OAuth), one per credential, shared by every routing
// table built from it: a table rebuilt after an admin edit must not throw away a token still good for
// an hour. A token is renewed `RENEW_BEFORE_MS` before it expires (or at half its life when it lives less),
// so no call is ever sent with one that runs out on the way; concurrent calls share one renewal.
import { createHash } from 'node:crypto';

export interface IssuedToken {
  accessToken: string;
  /** Epoch milliseconds at which the issuer says it stops being valid. */
  expiresAt: number;
}

const RENEW_BEFORE_MS = 5 * 60_000;
/** Distinct credentials remembered; the oldest is forgotten first (rotated keys must not pile up). */
const MAX_CREDENTIALS = 1_000;

interface Entry {
  token: IssuedToken | null;
  /** When to fetch the next one: RENEW_BEFORE_MS before expiry, or half-way through a shorter life. */
  renewAt: number;
  inflight: Promise<IssuedToken> | null;
}

interface TokenCache {
  /** A token for the credential, fetching a new one when there is none or it is close to expiry. */
  get(credential: string, fetchToken: () => Promise<IssuedToken>): Promise<string>;
  /** Forgets the credential's token (the upstream refused it before its time). */
  forget(credential: string): void;
}

export function createTokenCache(now: () => number = () => Date.now()): TokenCache {
  const entries = new Map<string, Entry>();
  const keyOf = (credential: string) => createHash('sha256').update(credential).digest('base64url');
  return {
    async get(credential, fetchToken) {
      const key = keyOf(credential);
      let entry = entries.get(key);
      if (entry?.token && entry.renewAt > now()) return entry.token.accessToken;
      if (!entry) {
        if (entries.size >= MAX_CREDENTIALS) entries.delete(entries.keys().next().value!);
        entry = { token: null, renewAt: 0, inflight: null };
        entries.set(key, entry);
      }
      const current = entry;
      current.inflight ??= fetchToken().then((token) => {
        const issuedAt = now();
        current.token = token;
        current.renewAt = token.expiresAt - Math.min(RENEW_BEFORE_MS, (token.expiresAt - issuedAt) / 2);
        return token;
      }).finally(() => {
        current.inflight = null;
      });
      return (await current.inflight).accessToken;
    },
    forget(credential) {
      entries.delete(keyOf(credential));
    },
  };
}
