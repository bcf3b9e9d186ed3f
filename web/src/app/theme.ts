import { createTheme, mergeThemeOverrides, PasswordInput, type CSSVariablesResolver, type MantineThemeOverride } from '@mantine/core';

// WCAG AA contrast in both schemes: filled buttons use shade 7 (white text at 5:1) in light and dark, and
// "dimmed" text and the error red (required-field marks, messages) are a step stronger than Mantine's
// defaults (gray 6 and red 6 on white are only 3.3:1). test/web checks every text on every page.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  focusRing: 'auto',
  // Filled badges pick black or white text by their colour's luminance, so every status reads at AA.
  autoContrast: true,
  // CJK faces after the Latin ones, so Simplified Chinese gets a real font on each system.
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", sans-serif',
});

/** The theme with the labels Mantine writes itself (the password field's eye button) in the language in force. */
export function localizedTheme(labels: { togglePassword: string }): MantineThemeOverride {
  return mergeThemeOverrides(theme, {
    components: { PasswordInput: PasswordInput.extend({ defaultProps: { visibilityToggleButtonProps: { 'aria-label': labels.togglePassword } } }) },
  });
}

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
'--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-placeholder': 'var(--mantine-color-gray-6)', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: { '--mantine-color-dimmed': 'var(--mantine-color-dark-1)', '--mantine-color-anchor': 'var(--mantine-color-indigo-3)', '--mantine-color-error': 'var(--mantine-color-red-4)' },
});
