import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { LogoMark } from '../../brand/BrandMark.tsx';
import { LanguageSwitch } from '../../layout/LanguageSwitch.tsx';

/**
 * The frame of the signed-out pages: a centred card that fits a 375 px phone, with the brand, and the
 * language switch at the end (after the form in the keyboard's order).
 */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420} component="main">
        <Stack gap="md">
          <div>
            <LogoMark size={32} />
            <Title order={1} size="h2" mt="xs">
              {title}
            </Title>
            {subtitle ? (
              <Text c="dimmed" size="sm" mt={4}>
                {subtitle}
              </Text>
            ) : null}
          </div>
          {children}
          <Group justify="flex-end">
            <LanguageSwitch />
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
