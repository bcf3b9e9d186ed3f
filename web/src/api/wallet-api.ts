// The wallet (/api/wallet): balance, totals, the ledger page by page, and the ways money comes in.
import { api } from './api-client.ts';
import type { ApiAnswer, ApiBody } from './api-types.ts';
import { i18n } from '../i18n/i18n.ts';

interface LedgerEntry {
  id: string;
  kind: string;
  amountUsd: number;
  note: string | null;
  status: string | null;
  receiptUrl: string | null;
  createdAt: string | null;
}

interface Wallet {
  balanceUsd: number | null;
  totalUsageUsd: number | null;
  requests: number | null;
  ledger: LedgerEntry[];
  nextCursor: string | null;
  cardPayments: { enabled: boolean; minUsd: number; maxUsd: number };
}

const usd = (value: unknown, micros: unknown): number | null =>
  typeof value === 'number' ? value : typeof micros === 'number' ? micros / 1_000_000 : typeof micros === 'string' && micros !== '' ? Number(micros) / 1_000_000 : null;

const when = (value: unknown): string | null => (typeof value === 'string' ? value : typeof value === 'number' ? new Date(value).toISOString() : null);

function readWallet(raw: Record<string, unknown>): Wallet {
  const ledgerRaw = raw.ledger as unknown;
  const ledgerList = (Array.isArray(ledgerRaw) ? ledgerRaw : ((ledgerRaw as { data?: unknown[] } | undefined)?.data ?? [])) as Array<Record<string, unknown>>;
  const topup = (raw.topup ?? raw.card_payments ?? {}) as Record<string, unknown>;
  return {
    balanceUsd: usd(raw.balance_usd, raw.balance_micros),
    totalUsageUsd: usd(raw.total_usage_usd, raw.total_usage_micros),
    requests: typeof raw.requests === 'number' ? raw.requests : typeof raw.request_count === 'number' ? raw.request_count : null,
    ledger: ledgerList.map((entry) => ({
      id: String(entry.id ?? entry.reference ?? ''),
      kind: String(entry.kind ?? entry.type ?? ''),
      amountUsd: usd(entry.amount_usd, entry.amount_micros) ?? 0,
      note: typeof entry.note === 'string' ? entry.note : typeof entry.count === 'number' ? `${entry.count} call${entry.count === 1 ? '' : 's'}` : null,
      status: typeof entry.status === 'string' ? entry.status : null,
      receiptUrl: typeof entry.receipt_url === 'string' ? entry.receipt_url : null,
      createdAt: when(entry.at ?? entry.created_at),
    })),
    nextCursor: typeof raw.next_cursor === 'string' ? raw.next_cursor : ((ledgerRaw as { next_cursor?: string } | undefined)?.next_cursor ?? null),
    cardPayments: {
      enabled: topup.enabled === true,
      minUsd: typeof topup.min_usd === 'number' ? topup.min_usd : 1,
      maxUsd: typeof topup.max_usd === 'number' ? topup.max_usd : 10_000,
    },
  };
}

export async function fetchWallet(cursor: string | null): Promise<Wallet> {
  return readWallet(await api.get<Record<string, unknown>>(`/api/wallet${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`));
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

export async function fetchTopUpOptions(): Promise<Wallet['cardPayments']> {
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
