// Where the database keeps the fingerprint of the GATEWAY_SECRET that sealed its credentials (a settings
// row; src/config/secret-seal.ts decides what it means), and what the seal check reads before migrations.
import { z } from 'zod';
import { sql } from '../kysely-parts.ts';
import { parseJsonColumn } from '../json-columns.ts';
import type { Db } from './repository-helpers.ts';

const SECRET_FINGERPRINT_SETTING = 'gateway_secret_fingerprint';

/** settings.value_json of the fingerprint row. */
const fingerprintColumn = z.object({ hmac_sha256: z.string() });

/** Whether the table exists (before migrations it may not): on both engines, without scanning the catalogue. */
export async function tableExists(db: Db, table: string): Promise<boolean> {
  try {
    await sql`select 1 from ${sql.table(table)} where 1 = 0`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** The stored fingerprint (hex), or undefined when none is (the settings table must exist). */
export async function findSecretFingerprint(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value_json').where('key', '=', SECRET_FINGERPRINT_SETTING).executeTakeFirst();
  return row && parseJsonColumn(fingerprintColumn, row.value_json, 'the GATEWAY_SECRET fingerprint setting').hmac_sha256;
}

/** Stores the fingerprint unless one is stored already; returns the one stored now (a concurrent start's may win). */
export async function storeSecretFingerprint(db: Db, fingerprint: string, now = Date.now()): Promise<string> {
  await db.insertInto('settings')
    .values({ key: SECRET_FINGERPRINT_SETTING, value_json: JSON.stringify({ hmac_sha256: fingerprint } satisfies z.infer<typeof fingerprintColumn>), updated_at: now })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return (await findSecretFingerprint(db))!;
}

/** Every channel's sealed upstream keys (the channels table must exist). */
export async function listSealedChannelKeys(db: Db): Promise<string[]> {
  return (await db.selectFrom('channels').select('api_keys_encrypted').execute()).map((row) => row.api_keys_encrypted);
}
