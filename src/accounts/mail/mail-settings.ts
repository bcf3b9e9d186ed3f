// Mail settings edited at runtime (PUT /api/admin/settings): an SMTP URL and a From address that override
// SMTP_URL and MAIL_FROM, which stay the defaults. The URL carries the SMTP password, so it is stored
// encrypted (like upstream keys) and never leaves the gateway: answers and the audit log show only whether
// a URL is set, where it comes from, and its host.
import { z } from 'zod';
import type { Db } from '../../db/repositories/repository-helpers.ts';
import { getSetting, setSetting } from '../../db/repositories/settings.ts';
import { mailSettingColumn } from '../../db/json-columns.ts';
import type { SecretBox } from '../secret-box.ts';

const MAIL_SETTING = 'mail';

interface StoredMailSetting {
  /** The runtime SMTP URL, encrypted; absent: SMTP_URL applies. */
  smtp_url_encrypted?: string;
  /** The runtime From; absent: MAIL_FROM applies. */
  from?: string;
}

export interface MailDefaults {
  smtpUrl: string | undefined;
  from: string;
}

export interface EffectiveMailSettings {
  smtpUrl: string | undefined;
  from: string;
  smtpSource: 'runtime' | 'env' | 'none';
  fromSource: 'runtime' | 'env';
  /** The runtime URL cannot be decrypted (GATEWAY_SECRET changed): no mail is sent until it is set again. */
  smtpUrlError?: string;
}

/** What PUT /api/admin/settings takes under `mail`: a value sets the override, null removes it (back to env). */
export const mailSettingsChange = z.object({
  smtp_url: z.string().trim().max(2000).regex(/^smtps?:\/\/[^\s]+$/i, 'must start with smtp:// or smtps://')
    .refine((text) => URL.canParse(text) && new URL(text).hostname !== '', 'not a URL with a host').nullable().optional(),
  from: z.string().trim().min(3).max(320).regex(/^[^\r\n]+$/, 'one line').nullable().optional(),
}).strict();
type MailSettingsChange = z.infer<typeof mailSettingsChange>;

export async function readMailSettings(db: Db, secrets: SecretBox, defaults: MailDefaults): Promise<EffectiveMailSettings> {
  const stored = (await getSetting(db, MAIL_SETTING, mailSettingColumn)) ?? {};
  const from = stored.from ?? defaults.from;
  const fromSource = stored.from !== undefined ? 'runtime' : 'env';
  if (stored.smtp_url_encrypted !== undefined) {
    try {
      return { smtpUrl: secrets.decrypt(stored.smtp_url_encrypted), from, smtpSource: 'runtime', fromSource };
    } catch (error) {
      // Not a fall-back to SMTP_URL or to files: mail would silently go somewhere the admin did not choose.
      return { smtpUrl: undefined, from, smtpSource: 'runtime', fromSource, smtpUrlError: `The SMTP URL set at runtime cannot be used: ${(error as Error).message}. Set it again.` };
    }
  }
  return { smtpUrl: defaults.smtpUrl, from, smtpSource: defaults.smtpUrl ? 'env' : 'none', fromSource };
}

export async function changeMailSettings(db: Db, secrets: SecretBox, change: MailSettingsChange): Promise<void> {
  const stored = { ...((await getSetting(db, MAIL_SETTING, mailSettingColumn)) ?? {}) };
  if (change.smtp_url === null) delete stored.smtp_url_encrypted;
  else if (change.smtp_url !== undefined) stored.smtp_url_encrypted = secrets.encrypt(change.smtp_url);
  if (change.from === null) delete stored.from;
  else if (change.from !== undefined) stored.from = change.from;
  await setSetting(db, MAIL_SETTING, stored);
}

/** The settings as answers and the audit log show them: never the URL, its user or its password. */
export function mailSettingsView(settings: EffectiveMailSettings) {
  return {
    transport: settings.smtpUrl || settings.smtpUrlError ? 'smtp' as const : 'file' as const,
    smtp_url_set: settings.smtpSource !== 'none',
    smtp_host: settings.smtpUrl ? smtpHost(settings.smtpUrl) : null,
    smtp_error: settings.smtpUrlError ?? null,
    smtp_source: settings.smtpSource,
    from: settings.from,
    from_source: settings.fromSource,
  };
}

function smtpHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return null;
  }
}

/** An SMTP error's message without the URL's password or user (servers and libraries may echo either). */
export function withoutSmtpSecrets(message: string, smtpUrl: string | undefined): string {
  if (!smtpUrl || !URL.canParse(smtpUrl)) return message;
  const parsed = new URL(smtpUrl);
  let safe = message.split(smtpUrl).join('smtp://…');
  for (const secret of [parsed.password, parsed.username]) {
    if (!secret) continue;
    for (const form of new Set([secret, safeDecode(secret)])) if (form.length > 0) safe = safe.split(form).join('…');
  }
  return safe;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
