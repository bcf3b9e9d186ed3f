// The database remembers which GATEWAY_SECRET sealed its credentials: a fingerprint (an HMAC of a fixed
// label under the secret, from which the secret cannot be recovered) in the settings table. A gateway
// started with another secret would write credentials no other instance can read, and could read none of
// the stored ones; it is refused before it writes anything (checkSeal runs before migrations).
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from '../db/kysely-parts.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { StartupError } from './startup-error.ts';

const SECRET_FINGERPRINT_SETTING = 'gateway_secret_fingerprint';
const LABEL = 'model-gateway/secret-fingerprint/v1';

interface StoredFingerprint { hmac_sha256: string }

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
export async function checkSeal(db: Kysely<DatabaseSchema>, secret: string, secrets: SecretBox, where: string): Promise<void> {
  if (!(await hasTable(db, 'settings'))) return; // a new database: nothing stored yet
  const row = await db.selectFrom('settings').select('value_json').where('key', '=', SECRET_FINGERPRINT_SETTING).executeTakeFirst();
  if (row) {
    const stored = JSON.parse(row.value_json) as StoredFingerprint;
    if (stored.hmac_sha256 !== secretFingerprint(secret)) throw mismatch(where);
    return;
  }
  if (!(await hasTable(db, 'channels'))) return;
  const sealed = await db.selectFrom('channels').select('api_keys_encrypted').execute();
  if (sealed.length > 0 && !sealed.some((channel) => decrypts(secrets, channel.api_keys_encrypted))) throw mismatch(where);
}

/** After migrations: records this secret's fingerprint if none is; a concurrent start with another secret loses. */
export async function sealDatabase(db: Kysely<DatabaseSchema>, secret: string, where: string, now = Date.now()): Promise<void> {
  const fingerprint = secretFingerprint(secret);
  await db.insertInto('settings')
    .values({ key: SECRET_FINGERPRINT_SETTING, value_json: JSON.stringify({ hmac_sha256: fingerprint } satisfies StoredFingerprint), updated_at: now })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value_json').where('key', '=', SECRET_FINGERPRINT_SETTING).executeTakeFirstOrThrow();
  if ((JSON.parse(row.value_json) as StoredFingerprint).hmac_sha256 !== fingerprint) throw mismatch(where);
}

function decrypts(secrets: SecretBox, sealed: string): boolean {
  try {
    secrets.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}

async function hasTable(db: Kysely<DatabaseSchema>, table: string): Promise<boolean> {
  // Works on both engines without the introspection API's full table scan of the catalogue.
  try {
    await sql`select 1 from ${sql.table(table)} where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}
