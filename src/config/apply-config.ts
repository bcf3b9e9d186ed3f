// Applies the declarative config file to the database: upsert by name, idempotent. Entries missing from
// the file are left alone (removing a line never deletes data); rows are only written when they differ.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseSchema } from '../db/schema.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import type { ConfigFile } from './config-file-schema.ts';
import { channelRowFromConfig, groupRowFromConfig, keyRowFromConfig, modelRowFromConfig, userRowFromConfig } from './config-to-rows.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../accounts/api-key-format.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { usdToMicros } from '../metering/pricing.ts';

type Db = Kysely<DatabaseSchema>;

export async function applyConfig(db: Db, config: ConfigFile, secrets: SecretBox, logger: Logger, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const group of config.groups) {
      const desired = groupRowFromConfig(group);
      const existing = await trx.selectFrom('groups').selectAll().where('name', '=', group.name).executeTakeFirst();
      if (!existing) await trx.insertInto('groups').values({ ...desired, created_at: now, updated_at: now }).execute();
      else if (differs(existing, desired)) await trx.updateTable('groups').set({ ...desired, updated_at: now }).where('id', '=', existing.id).execute();
    }
    for (const channel of config.channels) {
      const desired = channelRowFromConfig(channel);
      const existing = await trx.selectFrom('channels').selectAll().where('name', '=', channel.name).executeTakeFirst();
      const keysJson = JSON.stringify(Array.isArray(channel.api_key) ? channel.api_key : [channel.api_key]);
      if (!existing) {
        await trx.insertInto('channels').values({ ...desired, api_keys_encrypted: secrets.encrypt(keysJson), status_reason: null, created_at: now, updated_at: now }).execute();
        continue;
      }
      // Encryption is randomised, so compare plaintexts: an unchanged key must not rewrite the row.
      const keysChanged = safeDecrypt(secrets, existing.api_keys_encrypted) !== keysJson;
      if (keysChanged || differs(existing, desired)) {
        await trx.updateTable('channels').set({
          ...desired,
          ...(keysChanged ? { api_keys_encrypted: secrets.encrypt(keysJson) } : {}),
          updated_at: now,
        }).where('id', '=', existing.id).execute();
      }
    }
    for (const model of config.models) {
      const desired = modelRowFromConfig(model);
      const existing = await trx.selectFrom('models').selectAll().where('id', '=', model.id).executeTakeFirst();
      if (!existing) await trx.insertInto('models').values({ id: model.id, ...desired, created_at: now, updated_at: now }).execute();
      else if (differs(existing, desired)) await trx.updateTable('models').set({ ...desired, updated_at: now }).where('id', '=', model.id).execute();
    }
    for (const user of config.users) {
      const desired = userRowFromConfig(user);
      const existing = await trx.selectFrom('users').selectAll().where('name', '=', user.name).executeTakeFirst();
      if (!existing) {
        const balance = usdToMicros(user.balance);
        const inserted = await trx.insertInto('users').values({
          ...desired,
          password_hash: user.password ? await hashPassword(user.password) : null,
          email_verified_at: user.email ? now : null,
          totp_secret_encrypted: null,
          balance_micros: balance,
          settings_json: '{}',
          created_at: now,
          updated_at: now,
        }).returning('id').executeTakeFirstOrThrow();
        // The opening balance is a ledger row like any other, so the balance always equals the ledger's sum.
        if (balance !== 0) {
          await trx.insertInto('wallet_ledger').values({ user_id: inserted.id, created_at: now, kind: 'grant', amount_micros: balance, reference: `config:${user.name}`, note: 'opening balance from the config file' }).execute();
        }
        continue;
      }
      const passwordChanged = user.password !== undefined && !(existing.password_hash && await verifyPassword(user.password, existing.password_hash));
      if (passwordChanged || differs(existing, desired)) {
        await trx.updateTable('users').set({
          ...desired,
          ...(passwordChanged ? { password_hash: await hashPassword(user.password!) } : {}),
          updated_at: now,
        }).where('id', '=', existing.id).execute();
      }
    }
    for (const key of config.keys) {
      const owner = await trx.selectFrom('users').select('id').where('name', '=', key.user).executeTakeFirst();
      if (!owner) throw new Error(`Config keys entry '${key.name}' names user '${key.user}', who does not exist: declare the user under users`);
      const desired = keyRowFromConfig(key);
      const existing = await trx.selectFrom('api_keys').selectAll().where('user_id', '=', owner.id).where('name', '=', key.name).executeTakeFirst();
      const declaredHash = key.key ? hashApiKey(key.key) : null;
      if (!existing) {
        const secret = key.key ?? generateApiKey();
        await trx.insertInto('api_keys').values({ ...desired, user_id: owner.id, key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret), used_micros: 0, created_at: now, updated_at: now, last_used_at: null }).execute();
        if (!key.key) announceGeneratedKey(key.user, key.name, secret);
        continue;
      }
      const rotate = declaredHash !== null && declaredHash !== existing.key_hash;
      if (rotate || differs(existing, desired)) {
        await trx.updateTable('api_keys').set({
          ...desired,
          ...(rotate ? { key_hash: declaredHash, key_prefix: displayPrefix(key.key!) } : {}),
          updated_at: now,
        }).where('id', '=', existing.id).execute();
      }
    }
  });
  logger.info({ groups: config.groups.length, channels: config.channels.length, models: config.models.length, users: config.users.length, keys: config.keys.length }, 'config file applied');
}

function differs<T extends object>(existing: T, desired: Partial<T>): boolean {
  return Object.entries(desired).some(([field, value]) => (existing as Record<string, unknown>)[field] !== value);
}

function safeDecrypt(secrets: SecretBox, sealed: string): string | null {
  try {
    return secrets.decrypt(sealed);
  } catch {
    return null;
  }
}

/** Generated secrets go to stdout once, never into the log stream, which may be shipped elsewhere. */
function announceGeneratedKey(user: string, name: string, secret: string): void {
  process.stdout.write(`\nNew API key '${name}' for user '${user}' (shown once, store it now):\n  ${secret}\n\n`);
}
