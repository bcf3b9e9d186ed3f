// Notification mails from the user's settings: a low-balance alert when the balance falls below the
// threshold (once per crossing: re-armed when the balance is back above it) and a warning before a key
// expires (once per key and expiry date). A periodic pass over the database, off the request path; the
// "already sent" marks live in the user's settings, written with a conditional update so two instances
// running the pass send one mail, not two.
import type { Logger } from 'pino';
import type { AccountsDeps } from './accounts-deps.ts';
import type { UserRow } from '../db/schema.ts';
import { preferencesOf, type UserPreferences } from './user-view.ts';
import { listUsersWithNotifications, replaceUserSettingsJson } from '../db/repositories/users.ts';
import { listKeysExpiringBetween } from '../db/repositories/api-keys.ts';

interface NotificationState {
  low_balance_alerted?: boolean;
  /** key id → the expires_at the warning was sent for. */
  key_expiry_warned?: Record<string, number>;
}

type Stored = UserPreferences & { notification_state?: NotificationState };

function lowBalanceMail(to: string, balanceUsd: number, thresholdUsd: number) {
  const text = `Your balance is $${balanceUsd.toFixed(2)}, below your alert threshold of $${thresholdUsd.toFixed(2)}. Top up to keep your keys working.`;
  return { to, subject: 'Your balance is low', text, html: `<p>${text}</p>` };
}

function keyExpiryMail(to: string, keyName: string, expiresAt: number) {
  const text = `Your API key "${keyName}" expires on ${new Date(expiresAt).toISOString().slice(0, 16).replace('T', ' ')} UTC. Extend its expiry or create a new key.`;
  const html = `<p>${text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]!))}</p>`;
  return { to, subject: 'An API key expires soon', text, html };
}

/** Writes the new state only if settings_json is still what was read (no double mail between instances). */
async function saveState(deps: AccountsDeps, user: UserRow, state: NotificationState): Promise<boolean> {
  const next = JSON.stringify({ ...(preferencesOf(user) as Stored), notification_state: state });
  return replaceUserSettingsJson(deps.db, user.id, user.settings_json, next);
}

async function runNotificationPass(deps: AccountsDeps, balanceOf: (userId: number) => Promise<number>, now = Date.now()): Promise<number> {
  let sent = 0;
  // Only users who asked for a notification; the settings JSON is small.
  const users = await listUsersWithNotifications(deps.db);
  for (const user of users) {
    const preferences = preferencesOf(user) as Stored;
    const state: NotificationState = { ...preferences.notification_state };
    let changed = false;
    const mails: ReturnType<typeof lowBalanceMail>[] = [];
    const threshold = preferences.notifications?.low_balance_usd;
    if (typeof threshold === 'number') {
      const balanceUsd = (await balanceOf(user.id)) / 1_000_000;
      if (balanceUsd < threshold && !state.low_balance_alerted) {
        mails.push(lowBalanceMail(user.email!, balanceUsd, threshold));
        state.low_balance_alerted = true;
        changed = true;
      } else if (balanceUsd >= threshold && state.low_balance_alerted) {
        state.low_balance_alerted = false;
        changed = true;
      }
    }
    const days = preferences.notifications?.key_expiry_days;
    if (typeof days === 'number') {
      const keys = await listKeysExpiringBetween(deps.db, user.id, now, now + days * 86_400_000);
      const warned = { ...state.key_expiry_warned };
      for (const key of keys) {
        if (warned[String(key.id)] === key.expires_at) continue;
        warned[String(key.id)] = key.expires_at!;
        mails.push(keyExpiryMail(user.email!, key.name, key.expires_at!));
        changed = true;
      }
      state.key_expiry_warned = warned;
    }
    if (!changed || !await saveState(deps, user, state)) continue;
    for (const mail of mails) await deps.outbox.enqueue(mail);
    sent += mails.length;
  }
  return sent;
}

export function scheduleNotifications(deps: AccountsDeps, balanceOf: (userId: number) => Promise<number>, logger: Logger, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runNotificationPass(deps, balanceOf).catch((error: unknown) => logger.error({ err: error }, 'notification pass failed')).finally(() => {
      running = false;
    });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
