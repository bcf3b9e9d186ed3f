import { describe, expect, it } from 'vitest';
import { formatUsd } from './format.ts';
import { switchLanguage } from '../i18n/i18n.ts';

describe('formatUsd', () => {
  it('shows money exactly, never rounded up', () => {
    expect(formatUsd(8.995)).toBe('$8.995');
    expect(formatUsd(9)).toBe('$9.00');
    expect(formatUsd(0.1 + 0.2)).toBe('$0.30');
    expect(formatUsd(0.000001)).toBe('$0.000001');
    expect(formatUsd(1234567.5)).toBe('$1,234,567.50');
    expect(formatUsd(-2.25)).toBe('-$2.25');
    expect(formatUsd(0.00015)).toBe('$0.00015');
    expect(formatUsd(-0)).toBe('$0.00');
    expect(formatUsd(null)).toBe('—');
  });

  it('writes money the chosen language’s way, still exact', async () => {
    await switchLanguage('zh-CN', false);
    try {
      expect(formatUsd(8.995)).toBe('US$8.995');
      expect(formatUsd(1234567.5)).toBe('US$1,234,567.50');
    } finally {
      await switchLanguage('en', false);
    }
    expect(formatUsd(8.995)).toBe('$8.995');
  });
});
