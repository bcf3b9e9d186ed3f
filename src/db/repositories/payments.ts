// Card payments (src/payments: top-ups and Stripe's events). A payment's state changes by conditional
// updates only, guarded by the state read, so a replayed or concurrent event changes nothing the second time.
import type { PaymentRow, PaymentsTable } from '../schema.ts';
import type { Db } from './repository-helpers.ts';

type PaymentChanges = Partial<Pick<PaymentRow, 'status' | 'completed_at' | 'amount_micros' | 'payment_intent' | 'refunded_micros' | 'receipt_url' | 'updated_at'>>;

/** A new pending payment; answers its id. */
export async function insertPendingPayment(db: Db, userId: number, provider: string, placeholderSessionId: string, amountMicros: number, now: number): Promise<number> {
  const inserted = await db.insertInto('payments').values({
    user_id: userId, provider, provider_session_id: placeholderSessionId,
    amount_micros: amountMicros, status: 'pending', created_at: now, completed_at: null, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function markPaymentFailed(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.updateTable('payments').set({ status: 'failed', updated_at: now }).where('id', '=', id).execute();
}

export async function setPaymentCheckout(db: Db, id: number, sessionId: string, checkoutUrl: string | null, now = Date.now()): Promise<void> {
  await db.updateTable('payments').set({ provider_session_id: sessionId, checkout_url: checkoutUrl, updated_at: now }).where('id', '=', id).execute();
}

export async function findPaymentBySession(db: Db, provider: string, sessionId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('provider', '=', provider).where('provider_session_id', '=', sessionId).executeTakeFirst();
}

export async function findPaymentByIntent(db: Db, intent: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('payment_intent', '=', intent).executeTakeFirst();
}

/** Applies `changes` only while the payment's status is one of `fromStatuses`; true when it did (this caller claimed it). */
export async function updatePaymentInStatus(db: Db, id: number, fromStatuses: readonly PaymentsTable['status'][], changes: PaymentChanges): Promise<boolean> {
  const result = await db.updateTable('payments').set(changes).where('id', '=', id).where('status', 'in', [...fromStatuses]).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Applies `changes` only while refunded_micros is still `refundedBefore` (what the caller read); true when it did. */
export async function updatePaymentRefunded(db: Db, id: number, refundedBefore: number, changes: PaymentChanges): Promise<boolean> {
  const result = await db.updateTable('payments').set(changes).where('id', '=', id).where('refunded_micros', '=', refundedBefore).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Remembers the PaymentIntent of a session that has none yet; true when it did. */
export async function setSessionIntentOnce(db: Db, provider: string, sessionId: string, intent: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('payments').set({ payment_intent: intent, updated_at: now })
    .where('provider', '=', provider).where('provider_session_id', '=', sessionId).where('payment_intent', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A session's payment still pending becomes failed; true when it did (false: unknown, or already completed or failed). */
export async function failPendingSession(db: Db, provider: string, sessionId: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('payments').set({ status: 'failed', updated_at: now })
    .where('provider', '=', provider).where('provider_session_id', '=', sessionId).where('status', '=', 'pending').executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setReceiptByIntent(db: Db, intent: string, receiptUrl: string, now = Date.now()): Promise<boolean> {
  const result = await db.updateTable('payments').set({ receipt_url: receiptUrl, updated_at: now }).where('payment_intent', '=', intent).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A user's payments with an id below `beforeId` (all when undefined), newest first, at most `limit`. */
export async function listUserPayments(db: Db, userId: number, limit: number, beforeId: number | undefined): Promise<PaymentRow[]> {
  let select = db.selectFrom('payments').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit);
  if (beforeId !== undefined) select = select.where('id', '<', beforeId);
  return select.execute();
}

export async function findUserPayment(db: Db, userId: number, id: number): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

/** Every payment with its user's e-mail and handle, newest first (the administrators' list). */
export async function listPaymentsWithUsers(db: Db, limit: number, beforeId: number | undefined): Promise<(PaymentRow & { user_email: string | null; user_name: string })[]> {
  let select = db.selectFrom('payments').innerJoin('users', 'users.id', 'payments.user_id').selectAll('payments').select(['users.email as user_email', 'users.name as user_name']).orderBy('payments.id', 'desc').limit(limit);
  if (beforeId !== undefined) select = select.where('payments.id', '<', beforeId);
  return select.execute();
}
