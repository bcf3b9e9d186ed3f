// How numbers, money and dates read in the dashboard, in the language in force (i18n/i18n.ts).
import { currentLanguage } from '../i18n/i18n.ts';

export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Dollars exactly as the gateway counts them (integer micro-dollars): at least cents, more decimals only
 * when the amount has them ($8.995 reads $8.995, never $9.00: money is never rounded up). Built from the
 * integer of micro-dollars, so a float's noise (8.995 is 8.99499999… in binary) cannot change a digit.
 */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const micros = Math.round(Math.abs(value) * 1_000_000);
  const fraction = String(micros % 1_000_000).padStart(6, '0').replace(/0{1,4}$/, '');
  const exact = `${value < 0 && micros !== 0 ? '-' : ''}${Math.floor(micros / 1_000_000)}.${fraction}`;
  // Intl reads a decimal string exactly (no binary float in between) and writes it the language's way.
  const digits = fraction.length;
  const format = new Intl.NumberFormat(currentLanguage(), { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(exact as unknown as number);
}

function formatMicroUsd(micros: number | null | undefined): string {
  return micros === null || micros === undefined ? '—' : formatUsd(micros / 1_000_000);
}

export function formatCount(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toLocaleString(currentLanguage());
}
