// The dashboard's number fields check what was typed against the server's rules and say what is wrong;
// they never clamp, round or drop a keystroke (a Mantine NumberInput's min/max/decimalScale would). The
// server refuses the same numbers with a 400 naming the field: it stays the source of truth. The sentences
// and the bounds are written in the language in force.
import { currentLanguage, i18n } from '../i18n/i18n.ts';

export interface NumberRule {
  /** Empty is allowed (it means "none" for optional limits). */
  optional?: boolean;
  integer?: boolean;
  min?: number;
  /** min is exclusive: the value must be more than it. */
  above?: boolean;
  max?: number;
  /** At most this many decimals: 2 for whole cents, 6 for micro-dollars. */
  decimals?: number;
  /** How a bound reads: "$1,000" rather than "1000". */
  format?: (value: number) => string;
}

const plain = (value: number) => value.toLocaleString(currentLanguage(), { maximumFractionDigits: 6 });

/** Decimal places as written, exponents included (an input may hand over 1e-7 for 0.0000001). */
function decimalsOf(text: string): number {
  const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e');
  const [, fraction = ''] = mantissa.split('.');
  return Math.max(0, fraction.length - Number(exponent));
}

/** What is wrong with the value, in a sentence, or null. */
export function numberProblem(value: number | string, rule: NumberRule): string | null {
  const text = String(value).trim();
  if (text === '' || text === '-') return rule.optional ? null : i18n.t('numbers.enter');
  const number = Number(text);
  if (!Number.isFinite(number)) return i18n.t('numbers.enter');
  const show = rule.format ?? plain;
  if (rule.integer && !Number.isInteger(number)) return i18n.t('numbers.whole');
  if (rule.min !== undefined && (rule.above ? number <= rule.min : number < rule.min)) {
    return i18n.t(rule.above ? 'numbers.moreThan' : 'numbers.atLeast', { bound: show(rule.min) });
  }
  if (rule.max !== undefined && number > rule.max) return i18n.t('numbers.atMost', { bound: show(rule.max) });
  if (rule.decimals !== undefined && !rule.integer && decimalsOf(text) > rule.decimals) {
    return rule.decimals === 2 ? i18n.t('numbers.cents') : i18n.t('numbers.decimals', { count: rule.decimals });
  }
  return null;
}

/** Problems of several fields at once: { field: message } for the ones that have one. */
export function numberProblems<F extends string>(values: Record<F, number | string>, rules: Record<F, NumberRule>): Partial<Record<F, string>> {
  const problems: Partial<Record<F, string>> = {};
  for (const field of Object.keys(rules) as F[]) {
    const problem = numberProblem(values[field], rules[field]);
    if (problem) problems[field] = problem;
  }
  return problems;
}

export const usdBound = (value: number) => value.toLocaleString(currentLanguage(), { style: 'currency', currency: 'USD', maximumFractionDigits: 6 });

/** Props that make a Mantine NumberInput keep exactly what was typed (the rules above judge it). */
export const exactNumberProps = { clampBehavior: 'none', allowNegative: true, allowDecimal: true } as const;
