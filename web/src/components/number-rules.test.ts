import { describe, expect, it } from 'vitest';
import { numberProblem } from './number-rules.ts';

describe('numberProblem', () => {
  it('refuses what the server refuses, without rewriting it', () => {
    const topUp = { integer: true, min: 1, max: 10_000 };
    expect(numberProblem('2.5', topUp)).toBe('Enter a whole number.');
    expect(numberProblem(0, topUp)).toBe('Must be at least 1.');
    expect(numberProblem(-5, topUp)).toBe('Must be at least 1.');
    expect(numberProblem(99_999_999, topUp)).toBe('Must be at most 10,000.');
    expect(numberProblem(25, topUp)).toBeNull();
    const code = { min: 0, above: true, max: 100_000, decimals: 2 };
    expect(numberProblem(-5, code)).toBe('Must be more than 0.');
    expect(numberProblem('0.005', code)).toBe('Use whole cents (at most 2 decimals).');
    expect(numberProblem('8.99', code)).toBeNull();
    expect(numberProblem('', { optional: true, min: 1 })).toBeNull();
    expect(numberProblem('', { min: 1 })).toBe('Enter a number.');
    expect(numberProblem(0.0000001, { decimals: 6 })).toBe('Use at most 6 decimals.');
    expect(numberProblem(1e21, { decimals: 6 })).toBeNull();
  });
});
