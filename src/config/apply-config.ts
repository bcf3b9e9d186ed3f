// Applies the declarative config file to the database: upsert by name, idempotent. Entries missing from
// the file are left alone (removing a line never deletes data); rows are only written when they differ
// (the repositories' upserts compare before writing).
import type { Logger } from 'pino';
import { inTransaction, type Db } from '../db/repositories/repository-helpers.ts';
import type { SecretBox } from '../accounts/secret-box.ts';
import { sealSecretSettings } from '../providers/provider-secrets.ts';
import type { ConfigFile } from './config-file-schema.ts';
import { channelRowFromConfig, groupRowFromConfig, keyRowFromConfig, modelRowFromConfig, userRowFromConfig } from './config-to-rows.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '../accounts/api-key-format.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { usdToMicros } from '../metering/pricing.ts';
import { upsertGroupByName } from '../db/repositories/groups.ts';
import { findChannelByName, upsertChannelByName } from '../db/repositories/channels.ts';
import { upsertModelById } from '../db/repositories/models.ts';
import { createUser, findUserByName, upsertUserByName } from '../db/repositories/users.ts';
import { findApiKeyByHash, findApiKeyByUserAndName, insertApiKey, updateApiKeyByUserAndName } from '../db/repositories/api-keys.ts';
import { appendLedgerBatch } from '../db/repositories/wallet-ledger.ts';
import { StartupError } from './startup-error.ts';
import { upsertIdentityProviderFromConfig } from '../accounts/identity-provider-store.ts';
import { findMcpServerByName, upsertMcpServerByName } from '../db/repositories/mcp-servers.ts';
import { mcpCredentialOfConfig, mcpServerColumnsOfConfig, sealMcpCredential } from '../mcp/mcp-server-rows.ts';

export async function applyConfig(db: Db, config: ConfigFile, secrets: SecretBox, logger: Logger, now = Date.now()): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const group of config.groups) {
      const { name, ...fields } = groupRowFromConfig(group);
      await upsertGroupByName(trx, name, fields, now);
    }
    for (const channel of config.channels) {
      const existing = await findChannelByName(trx, channel.name);
      const storedSecrets = existing ? existing.settings.providerSecrets : undefined;
      const { name, ...fields } = channelRowFromConfig(channel, (secret) => sealSecretSettings(secrets, secret, storedSecrets));
      const keysJson = JSON.stringify(Array.isArray(channel.api_key) ? channel.api_key : [channel.api_key]);
      // Encryption is randomised, so compare plaintexts: an unchanged key must not rewrite the row.
      const keysChanged = !existing || safeDecrypt(secrets, existing.api_keys_encrypted) !== keysJson;
      await upsertChannelByName(trx, name, {
        ...fields,
        ...(keysChanged ? { api_keys_encrypted: secrets.encrypt(keysJson) } : {}),
        ...(existing ? {} : { status_reason: null }),
      }, now);
    }
    for (const server of config.mcp_servers) {
      const credential = mcpCredentialOfConfig(server);
      const existing = await findMcpServerByName(trx, server.name);
      // As for channels: encryption is randomised, so an unchanged credential must not rewrite the row.
      const stored = existing?.credential_encrypted ? safeDecrypt(secrets, existing.credential_encrypted) : null;
      const credentialChanged = !existing || stored !== (credential === null ? null : JSON.stringify(credential));
      await upsertMcpServerByName(trx, server.name, {
        ...mcpServerColumnsOfConfig(server),
        ...(credentialChanged ? { credential_encrypted: sealMcpCredential(secrets, credential) } : {}),
      }, now);
    }
    for (const model of config.models) {
      await upsertModelById(trx, model.id, modelRowFromConfig(model), now);
    }
    for (const user of config.users) {
      const { name, ...fields } = userRowFromConfig(user);
      const existing = await findUserByName(trx, name);
      if (!existing) {
        const created = await createUser(trx, name, {
          ...fields,
          password_hash: user.password ? await hashPassword(user.password) : null,
          email_verified_at: user.email ? now : null,
        }, now);
        // The opening balance is a ledger row like any other, so the balance always equals the ledger's sum.
        const balance = usdToMicros(user.balance);
        if (balance !== 0) {
          await appendLedgerBatch(trx, [{ user_id: created.id, kind: 'grant', amount_micros: balance, reference: `config:${name}`, note: 'opening balance from the config file', created_at: now }], now);
        }
        continue;
      }
      const passwordChanged = user.password !== undefined && !(existing.password_hash && await verifyPassword(user.password, existing.password_hash));
      await upsertUserByName(trx, name, { ...fields, ...(passwordChanged ? { password_hash: await hashPassword(user.password!) } : {}) }, now);
    }
    for (const [index, key] of config.keys.entries()) {
      const owner = await findUserByName(trx, key.user);
      if (!owner) throw new Error(`Config keys entry '${key.name}' names user '${key.user}', who does not exist: declare the user under users`);
      const { name, ...fields } = keyRowFromConfig(key);
      if (await keyStaysDeleted(trx, index, owner.id, key, logger)) continue;
      // A declared secret may rotate an existing key; an undeclared one is generated only on creation.
      const declared = key.key ? { key_hash: hashApiKey(key.key), key_prefix: displayPrefix(key.key) } : {};
      const updated = await updateApiKeyByUserAndName(trx, owner.id, name, { ...fields, ...declared }, now);
      if (updated) continue;
      const secret = key.key ?? generateApiKey();
      await insertApiKey(trx, { ...fields, user_id: owner.id, name, key_hash: hashApiKey(secret), key_prefix: displayPrefix(secret) }, now);
      if (!key.key) announceGeneratedKey(key.user, name, secret);
    }
    for (const provider of config.identity_providers) {
      await upsertIdentityProviderFromConfig({ db: trx, secrets }, provider, now);
    }
  });
  logger.info({ groups: config.groups.length, channels: config.channels.length, models: config.models.length, users: config.users.length, keys: config.keys.length, mcpServers: config.mcp_servers.length }, 'config file applied');
}

/**
 * A key an administrator deleted is final: the file's entry for it is skipped with a warning (so restarts
 * keep working), and its secret can never be declared again, under any name.
 */
async function keyStaysDeleted(trx: Db, index: number, userId: number, key: ConfigFile['keys'][number], logger: Logger): Promise<boolean> {
  const existing = await findApiKeyByUserAndName(trx, userId, key.name);
  if (existing?.status === 'deleted') {
    logger.warn({ key: key.name, user: key.user }, `config keys[${index}]: this key was deleted by an administrator and stays deleted; remove the entry or give it another name`);
    return true;
  }
  if (key.key) {
    const holder = await findApiKeyByHash(trx, hashApiKey(key.key));
    if (holder && (holder.user_id !== userId || holder.name !== key.name)) {
      const why = holder.status === 'deleted' ? 'belonged to a deleted key and can never be used again' : 'is already the secret of another key';
      throw new StartupError(`Config keys[${index}].key (key '${key.name}' of user '${key.user}') ${why}: declare another secret, or none to have one generated.`);
    }
  }
  return false;
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
