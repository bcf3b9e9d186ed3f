// One call read like a receipt (issue 31, item 4): what was called, when, with which key, how it ended,
// the tokens, how the charge was computed and the total charged; every recorded field below, folded.
import { Accordion, Badge, Code, CopyButton, Divider, Group, Stack, Table, Text, Title, Tooltip, ActionIcon } from '@mantine/core';
import { IconCheck, IconCopy, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LogDetail } from '../api/logs-api.ts';
import { ChargeCalculation } from './ChargeCalculation.tsx';
import { formatCount, formatDateTime, formatUsd } from './format.ts';

export function LogReceipt({ detail }: { detail: LogDetail }) {
  const { t } = useTranslation();
  const { calculation, attempts: tried, ...call } = detail;
  const cached = call.cached_tokens;
  const reasoning = call.reasoning_tokens;
  const lines: Array<[string, React.ReactNode]> = [
    [t('receipt.time'), formatDateTime(call.created_at)],
    [t('receipt.model'), call.model],
    [t('receipt.key'), call.key_name || '—'],
    [t('receipt.endpoint'), `${call.endpoint}${call.stream ? ` · ${t('receipt.streamed')}` : ''}`],
    [
      t('receipt.outcome'),
      <Badge key="outcome" color={call.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
        {call.outcome === 'success' ? t('receipt.succeeded') : t('receipt.failed', { status: call.status })}
      </Badge>,
    ],
    [t('receipt.duration'), t('receipt.ms', { ms: formatCount(Math.round(call.latency_ms)) })],
    [t('receipt.tokensIn'), cached > 0 ? t('receipt.withCached', { count: formatCount(call.input_tokens), cached: formatCount(cached) }) : formatCount(call.input_tokens)],
    [t('receipt.tokensOut'), reasoning > 0 ? t('receipt.withReasoning', { count: formatCount(call.output_tokens), reasoning: formatCount(reasoning) }) : formatCount(call.output_tokens)],
  ];
  return (
    <Stack gap="sm" aria-label={t('receipt.title')}>
      <Group gap="xs" wrap="nowrap">
        <IconReceipt size={22} stroke={1.6} aria-hidden />
        <Title order={2} size="h4">
          {t('receipt.title')}
        </Title>
      </Group>
      {call.request_id ? (
        <Group gap={4} wrap="nowrap">
          <Text size="sm" c="dimmed">
            {t('receipt.requestId')}
          </Text>
          <Code style={{ overflowWrap: 'anywhere' }}>{call.request_id}</Code>
          <CopyButton value={call.request_id}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
                <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={t('receipt.copyRequestId')}>
                  {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
      ) : null}
      <Table aria-label={t('receipt.summary')} withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {lines.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w="40%" fw={500}>
                {label}
              </Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {call.error ? (
        <Text c="red" size="sm" role="note">
          {call.error}
        </Text>
      ) : null}
      <Divider />
      <ChargeCalculation calculation={calculation} />
      <Divider variant="dashed" />
      <Group justify="space-between" data-testid="receipt-total">
        <Text fw={700}>{t('receipt.charged')}</Text>
        <Text fw={700} size="lg">
          {formatUsd(call.cost_usd)}
        </Text>
      </Group>
      <Accordion variant="contained">
        {tried.length > 1 ? (
          <Accordion.Item value="attempts">
            <Accordion.Control>{t('receipt.attempts', { count: tried.length })}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap={4}>
                {tried.map((attempt) => (
                  <Text size="sm" key={attempt.attempt}>
                    {`${attempt.attempt}. ${attempt.model ?? ''}: ${attempt.outcome}${attempt.status ? ` ${attempt.status}` : ''}, ${formatCount(attempt.latency_ms)} ms${attempt.error ? ` — ${attempt.error}` : ''}`}
                  </Text>
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ) : null}
        <Accordion.Item value="fields">
          <Accordion.Control>{t('receipt.allFields')}</Accordion.Control>
          <Accordion.Panel>
            <Table aria-label={t('receipt.fieldsLabel')}>
              <Table.Tbody>
                {Object.entries(call).map(([field, value]) => (
                  <Table.Tr key={field}>
                    <Table.Th>{field.replaceAll('_', ' ')}</Table.Th>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{typeof value === 'object' && value !== null ? <Code block>{JSON.stringify(value, null, 2)}</Code> : String(value ?? '—')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
    </Stack>
  );
}
