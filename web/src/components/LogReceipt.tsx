// One call read like a receipt (issue 31, item 4): what was called, when, with which key, how it ended,
// the tokens, how the charge was computed and the total charged; every recorded field below, folded.
import { Accordion, Badge, Code, CopyButton, Divider, Group, Stack, Table, Text, Title, Tooltip, ActionIcon } from '@mantine/core';
import { IconCheck, IconCopy, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { readLog } from '../api/logs-api.ts';
import { ChargeCalculation, isChargeCalculation } from './ChargeCalculation.tsx';
import { formatCount, formatDateTime, formatUsd } from './format.ts';

interface Attempt {
  attempt: number;
  model: string;
  status: number | null;
  outcome: string;
  error: string | null;
  latency_ms: number;
  channel?: string | null;
}

export function LogReceipt({ detail }: { detail: Record<string, unknown> }) {
  const { t } = useTranslation();
  const { calculation, attempts, ...fields } = detail;
  const call = readLog(fields);
  const requestId = typeof fields.request_id === 'string' ? fields.request_id : null;
  const cached = typeof fields.cached_tokens === 'number' ? fields.cached_tokens : 0;
  const reasoning = typeof fields.reasoning_tokens === 'number' ? fields.reasoning_tokens : 0;
  const tried = Array.isArray(attempts) ? (attempts as Attempt[]) : [];
  const lines: Array<[string, React.ReactNode]> = [
    [t('receipt.time'), formatDateTime(call.createdAt)],
    [t('receipt.model'), call.model],
    [t('receipt.key'), call.keyName || '—'],
    [t('receipt.endpoint'), `${call.endpoint}${call.stream ? ` · ${t('receipt.streamed')}` : ''}`],
    [
      t('receipt.outcome'),
      <Badge key="outcome" color={call.outcome === 'success' ? 'green' : 'red.9'} variant="filled">
        {call.outcome === 'success' ? t('receipt.succeeded') : t('receipt.failed', { status: call.status ?? '' })}
      </Badge>,
    ],
    [t('receipt.duration'), call.durationMs === null ? '—' : t('receipt.ms', { ms: formatCount(Math.round(call.durationMs)) })],
    [t('receipt.tokensIn'), cached > 0 ? t('receipt.withCached', { count: formatCount(call.inputTokens), cached: formatCount(cached) }) : formatCount(call.inputTokens)],
    [t('receipt.tokensOut'), reasoning > 0 ? t('receipt.withReasoning', { count: formatCount(call.outputTokens), reasoning: formatCount(reasoning) }) : formatCount(call.outputTokens)],
  ];
  return (
    <Stack gap="sm" aria-label={t('receipt.title')}>
      <Group gap="xs" wrap="nowrap">
        <IconReceipt size={22} stroke={1.6} aria-hidden />
        <Title order={2} size="h4">
          {t('receipt.title')}
        </Title>
      </Group>
      {requestId ? (
        <Group gap={4} wrap="nowrap">
          <Text size="sm" c="dimmed">
            {t('receipt.requestId')}
          </Text>
          <Code style={{ overflowWrap: 'anywhere' }}>{requestId}</Code>
          <CopyButton value={requestId}>
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
      {isChargeCalculation(calculation) ? <ChargeCalculation calculation={calculation} /> : null}
      <Divider variant="dashed" />
      <Group justify="space-between" data-testid="receipt-total">
        <Text fw={700}>{t('receipt.charged')}</Text>
        <Text fw={700} size="lg">
          {formatUsd(call.costUsd)}
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
                    {`${attempt.attempt}. ${attempt.model}${attempt.channel ? ` (${attempt.channel})` : ''}: ${attempt.outcome}${attempt.status ? ` ${attempt.status}` : ''}, ${formatCount(attempt.latency_ms)} ms${attempt.error ? ` — ${attempt.error}` : ''}`}
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
                {Object.entries(fields).map(([field, value]) => (
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
