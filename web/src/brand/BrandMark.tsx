// The product's name with its logo mark (the same drawing as the favicon, web/src/brand/logo-mark.svg),
// drawn inline so it needs no request and follows the text size.
import { Group, Text } from '@mantine/core';

const BRAND_NAME = 'Model gateway';

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden focusable="false">
      <rect width="32" height="32" rx="8" fill="#4263eb" />
      <g fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round">
        <path d="M7 9.5h5.5l5 6.5H25" />
        <path d="M7 22.5h5.5l5-6.5" />
        <circle cx="7" cy="16" r="1.4" fill="#fff" stroke="none" />
        <path d="M21.5 12.5 25 16l-3.5 3.5" />
      </g>
    </svg>
  );
}

export function Brand({ size = 28 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap" data-testid="brand">
      <LogoMark size={size} />
      <Text fw={700} size="lg" style={{ whiteSpace: 'nowrap' }}>
        {BRAND_NAME}
      </Text>
    </Group>
  );
}
