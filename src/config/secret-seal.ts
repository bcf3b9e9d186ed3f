// The database remembers which GATEWAY_SECRET sealed its credentials: a fingerprint (an HMAC of a fixed
// label under the secret, from which the secret cannot be recovered) in the settings table. A gateway
// started with another secret would write credentials no other instance can read, and could read none of
// the stored ones; it is refused before it writes anything (checkSeal runs before migrations).
import { createHmac } from 'node:crypto';
import type { Db } from '../db/repositories/repository-helpers.ts';
import { findSecretFingerprint, listSealedChannelKeys, storeSecretFingerprint, tableExists } from '../db/repositories/secret-fingerprint.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { StartupError } from './startup-error.ts';

const LABEL = 'model-gateway/secret-fingerprint/v1';

function secretFingerprint(secret: string): string {
  return createHmac('sha256', secret).update(LABEL).digest('hex');
}

function mismatch(where: string): StartupError {
  return new StartupError(`The database ${where} was sealed with a different GATEWAY_SECRET, so the gateway stopped before writing anything: start it with the GATEWAY_SECRET (or DATA_DIR holding gateway-secret) this database was created with, or point DATABASE_URL at another database.`);
}

/**
 * Read-only. Refuses a database sealed with another secret; a database from before sealing existed is
 * accepted only if its credentials decrypt with this secret (or it has none).
 */
export async function checkSeal(db: Db, secret: string, secrets: SecretBox, where: string): Promise<void> {
  if (!(await tableExists(db, 'settings'))) return; // a new database: nothing stored yet
  const stored = await findSecretFingerprint(db);
  if (stored !== undefined) {
    if (stored !== secretFingerprint(secret)) throw mismatch(where);
    return;
  }
  if (!(await tableExists(db, 'channels'))) return;
  const sealed = await listSealedChannelKeys(db);
  if (sealed.length > 0 && !sealed.some((keys) => decrypts(secrets, keys))) throw mismatch(where);
}

/** After migrations: records this secret's fingerprint if none is; a concurrent start with another secret loses. */
export async function sealDatabase(db: Db, secret: string, where: string, now = Date.now()): Promise<void> {
  const fingerprint = secretFingerprint(secret);
  if ((await storeSecretFingerprint(db, fingerprint, now)) !== fingerprint) throw mismatch(where);
}

function decrypts(secrets: SecretBox, sealed: string): boolean {
  try {
    secrets.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}
