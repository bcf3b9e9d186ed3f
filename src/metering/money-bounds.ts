// Bounds on amounts an administrator sets (grants, debits, key quotas, opening balances): every amount and
// every balance stays an exact integer of micro-USD as a JavaScript number (below 2^53), in PostgreSQL's
// bigint and in SQLite's 64-bit integer, so it is never stored as a float nor refused by the database.
import { invalidRequest } from '../gateway-errors.ts';
import { usdToMicros } from './pricing.ts';

/** The largest single grant, debit or key quota: one billion USD. */
export const MAX_AMOUNT_USD = 1_000_000_000;
/** The largest balance a grant may leave, either way: four billion USD, 4e15 micro-USD (< 2^53 ≈ 9.007e15). */
const MAX_BALANCE_MICROS = 4_000_000_000_000_000;

/** Whether `value` has at most `decimals` decimal places (as typed: 0.15 has two, despite its binary form). */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) <= Math.max(1e-7, Math.abs(scaled) * 1e-12);
}

/** USD from an admin request → integer micro-USD, or a 400 naming the field. */
export function boundedUsdToMicros(usd: number, field: string, options: { allowNegative: boolean; allowZero: boolean }): number {
  if (!Number.isFinite(usd) || Math.abs(usd) > MAX_AMOUNT_USD) {
    throw invalidRequest(`Invalid value for '${field}': must be at most ${MAX_AMOUNT_USD.toLocaleString('en-US')} USD${options.allowNegative ? ' either way' : ''}.`, field, 'invalid_value');
  }
  if (!options.allowNegative && usd < 0) throw invalidRequest(`Invalid value for '${field}': must not be negative.`, field, 'invalid_value');
  const micros = usdToMicros(usd);
  if (!options.allowZero && micros === 0) {
    throw invalidRequest(`Invalid value for '${field}': must be at least 0.000001 USD (one micro-dollar) either way.`, field, 'invalid_value');
  }
  return micros === 0 ? 0 : micros; // never -0
}

/** A 400 when a grant or debit would take a balance past the bound. */
export function checkBalanceBound(balanceMicros: number, field: string): void {
  if (Math.abs(balanceMicros) > MAX_BALANCE_MICROS) {
    throw invalidRequest(`Invalid value for '${field}': the balance would pass ${(MAX_BALANCE_MICROS / 1_000_000).toLocaleString('en-US')} USD either way.`, field, 'invalid_value');
  }
}
