// The wallet (/api/wallet): balance, totals, the ledger page by page, and the ways money comes in.
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';
import { i18n } from '../i18n/i18n.ts';

type WalletAnswer = ApiAnswer<'/api/wallet', 'get'>;

interface LedgerEntry {
  kind: WalletAnswer['ledger']['data'][number]['kind'];
  amountUsd: number;
  /** The entry's note, or for a day's charges how many calls they sum. */
  note: string | null;
  reference: string | null;
  createdAt: string;
}

interface Wallet {
  balanceUsd: number;
  totalUsageUsd: number;
  requests: number;
  ledger: LedgerEntry[];
  nextCursor: string | null;
}

function readWallet(answer: WalletAnswer): Wallet {
  return {
    balanceUsd: answer.balance_usd,
    totalUsageUsd: answer.total_usage_usd,
    requests: answer.requests,
    ledger: answer.ledger.data.map((entry) => ({
      kind: entry.kind,
      amountUsd: entry.amount_usd,
      note: entry.note ?? (entry.count === undefined ? null : `${entry.count} call${entry.count === 1 ? '' : 's'}`),
      reference: entry.reference,
      createdAt: entry.at,
    })),
    nextCursor: answer.ledger.next_cursor,
  };
}

export async function fetchWallet(cursor: string | null): Promise<Wallet> {
  return readWallet(await api.get<WalletAnswer>(`/api/wallet${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`));
}

type PaymentAnswer = ApiAnswer<'/api/wallet/payments/{id}', 'get'>;

export interface Payment {
  id: number;
  amountUsd: number;
  refundedUsd: number;
  status: PaymentAnswer['status'];
  receiptUrl: string | null;
  createdAt: string;
}

const readPayment = (payment: PaymentAnswer): Payment => ({
  id: payment.id,
  amountUsd: payment.amount_usd,
  refundedUsd: payment.refunded_usd,
  status: payment.status,
  receiptUrl: payment.receipt_url,
  createdAt: payment.created_at,
});

export async function fetchPayments(): Promise<Payment[]> {
  return (await api.get<ApiAnswer<'/api/wallet/payments', 'get'>>('/api/wallet/payments')).data.map(readPayment);
}

export async function fetchPayment(id: string): Promise<Payment> {
  return readPayment(await api.get<PaymentAnswer>(`/api/wallet/payments/${encodeURIComponent(id)}`));
}

export async function fetchTopUpOptions(): Promise<{ enabled: boolean; minUsd: number; maxUsd: number }> {
  const answer = await api.get<ApiAnswer<'/api/wallet/topup', 'get'>>('/api/wallet/topup');
  return { enabled: answer.enabled, minUsd: answer.min_usd, maxUsd: answer.max_usd };
}

export const walletApi = {
  topUp: (amountUsd: number) => api.post<ApiAnswer<'/api/wallet/topup', 'post'>>('/api/wallet/topup', { amount_usd: amountUsd } satisfies ApiBody<'/api/wallet/topup', 'post'>),
  redeem: (code: string) => api.post<ApiAnswer<'/api/wallet/redeem', 'post'>>('/api/wallet/redeem', { code } satisfies ApiBody<'/api/wallet/redeem', 'post'>),
};

/** The server's rule, checked in the form first: a whole number of dollars from 1 to the maximum. */
export function topUpProblem(value: number | string, maxUsd: number): string | null {
  const amount = typeof value === 'number' ? value : Number(value);
  if (value === '' || !Number.isFinite(amount)) return i18n.t('wallet.enterWholeDollars');
  if (!Number.isInteger(amount)) return i18n.t('wallet.noCents');
  if (amount < 1) return i18n.t('wallet.smallest');
  if (amount > maxUsd) return i18n.t('wallet.largest', { max: maxUsd.toLocaleString(i18n.language) });
  return null;
}
