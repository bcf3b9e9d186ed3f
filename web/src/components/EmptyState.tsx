// What a page shows when it has nothing yet: an icon, what is missing, and the next step to take.
import type { ReactNode } from 'react';
import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';

export function EmptyState({ icon: IconShown, title, children, action, testId }: { icon: Icon; title: string; children?: ReactNode; action?: ReactNode; testId?: string }) {
  return (
    <Paper withBorder p="lg" data-testid={testId}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconShown size={26} stroke={1.6} aria-hidden />
        </ThemeIcon>
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
        {action}
      </Stack>
    </Paper>
  );
}
