// The low-balance alert: one mail when a user's balance falls below the threshold in their notification
// settings, and none again until the balance has been back above it (a top-up re-arms it). Checked every
// BALANCE_ALERT_INTERVAL_MS from the database balance; an instance claims each alert with a conditional
// update, so several instances never send the same one twice.
import type { Logger } from 'pino';
import type { Db } from '../db/repositories/repository-helpers.ts';
import type { MailOutbox } from '../accounts/mail/mail-outbox.ts';
import { preferencesOf } from '../accounts/user-view.ts';
import { lowBalanceMail } from './payment-mails.ts';

export interface BalanceAlertDeps {
  db: Db;
  outbox: MailOutbox;
  logger: Logger;
  publicUrl(): string;
}

export async function checkBalanceAlerts(deps: BalanceAlertDeps, now = Date.now()): Promise<{ sent: number; rearmed: number }> {
  // Only users who set a threshold; the JSON is parsed here so both engines run the same query.
  const users = await deps.db.selectFrom('users').select(['id', 'email', 'balance_micros', 'settings_json', 'low_balance_alerted_at'])
    .where('settings_json', 'like', '%low_balance_usd%').where('status', '=', 'active').execute();
  let sent = 0;
  let rearmed = 0;
  for (const user of users) {
    const threshold = preferencesOf(user).notifications?.low_balance_usd;
    if (typeof threshold !== 'number' || !user.email) continue;
    const thresholdMicros = Math.round(threshold * 1_000_000);
    const balance = Number(user.balance_micros);
    if (balance < thresholdMicros && user.low_balance_alerted_at === null) {
      const claimed = await deps.db.updateTable('users').set({ low_balance_alerted_at: now }).where('id', '=', user.id).where('low_balance_alerted_at', 'is', null).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) continue;
      await deps.outbox.enqueue(lowBalanceMail(user.email, balance, thresholdMicros, `${deps.publicUrl()}/wallet`));
      sent += 1;
    } else if (balance >= thresholdMicros && user.low_balance_alerted_at !== null) {
      await deps.db.updateTable('users').set({ low_balance_alerted_at: null }).where('id', '=', user.id).execute();
      rearmed += 1;
    }
  }
  return { sent, rearmed };
}

export function startBalanceAlerts(deps: BalanceAlertDeps, intervalMs: number): { close(): void } {
  if (intervalMs <= 0) return { close() {} };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkBalanceAlerts(deps).catch((error: unknown) => deps.logger.warn({ err: error }, 'balance alert check failed')).finally(() => {
      running = false;
    });
  }, intervalMs);
  timer.unref();
  return { close: () => clearInterval(timer) };
}
