// Redemption codes: create a batch (each number checked as the server checks it, never clamped; a large
// batch asks first), copy or download the new codes at once (the gateway keeps only their hashes), and
// the list a page at a time with who redeemed each code, and Revoke for an unused one.
import { useState } from 'react';
import { Badge, Button, CopyButton, Code, Group, Modal, NumberInput, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminApi, type CodeState, type RedemptionCode } from '../../api/admin-api.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDateTime, formatUsd } from '../../components/format.ts';
import { exactNumberProps, numberProblems, usdBound } from '../../components/number-rules.ts';
import { runAdminAction } from './admin-actions.ts';
import { downloadText, newCodesCsv } from './new-codes-csv.ts';
import { CardTable } from '../../components/CardTable.tsx';
import { formatCount } from '../../components/format.ts';
import { useTranslation } from 'react-i18next';

/** From this many codes on, creating them asks first (a typo of a zero is money). */
const LARGE_BATCH = 100;
const RULES = {
  count: { integer: true, min: 1, max: 1000 },
  amount: { min: 0, above: true, max: 100_000, decimals: 2, format: usdBound },
};

interface Batch {
  codes: string[];
  amountUsd: number;
  note: string;
}

export function AdminRedemptionCodes() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Batch | null>(null);
  const { t } = useTranslation();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        {t('admin.codes.title')}
      </Title>
      <CreateCodes onCreated={(batch) => { setCreated(batch); void refresh(); }} />
      {created ? <NewCodes batch={created} /> : null}
      <CodeList onChanged={refresh} />
    </Paper>
  );
}

function CreateCodes({ onCreated }: { onCreated: (batch: Batch) => void }) {
  const [count, setCount] = useState<number | string>(1);
  const [amount, setAmount] = useState<number | string>(10);
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'count' | 'amount', string>>>({});
  const [confirming, setConfirming] = useState(false);
  const { t } = useTranslation();
  const create = async () => {
    setConfirming(false);
    await runAdminAction(async () => {
      const answer = await adminApi.createRedemptionCodes(Number(count), Number(amount), note.trim());
      onCreated({ codes: answer.codes, amountUsd: answer.amount_usd, note: note.trim() });
    }, t('admin.codes.created'), () => undefined);
  };
  const submit = () => {
    const problems = numberProblems({ count, amount }, RULES);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    if (Number(count) >= LARGE_BATCH) setConfirming(true);
    else void create();
  };
  return (
    <>
      <Group align="flex-start" wrap="wrap">
        <NumberInput label={t('admin.codes.howMany')} {...exactNumberProps} value={count} onChange={setCount} error={errors.count} w={140} />
        <NumberInput label={t('admin.codes.worthEach')} {...exactNumberProps} value={amount} onChange={setAmount} error={errors.amount} w={180} />
        <TextInput label={t('wallet.note')} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={200} w={200} />
        <Button onClick={submit} mt={25}>
          {t('admin.codes.create')}
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('admin.codes.confirmTitle')}>
        <Stack>
          <Text>
            {t('admin.codes.confirmBody', { count: formatCount(Number(count)), worth: formatUsd(Number(amount)), total: formatUsd(Number(count) * Number(amount)) })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('keys.cancel')}
            </Button>
            <Button color="red" onClick={() => void create()}>
              {t('admin.codes.createN', { count: formatCount(Number(count)) })}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function NewCodes({ batch }: { batch: Batch }) {
  const text = batch.codes.join('\n');
  const { t } = useTranslation();
  return (
    <Stack gap="xs" mt="sm">
      <Group>
        <Text size="sm" fw={500}>
          {t('admin.codes.newCodes', { count: batch.codes.length, worth: formatUsd(batch.amountUsd) })}
        </Text>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? t('common.copied') : t('admin.codes.copy')}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="light" onClick={() => downloadText(newCodesCsv(batch.codes, batch.amountUsd, batch.note), `redemption-codes-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`)}>
          {t('admin.codes.download')}
        </Button>
      </Group>
      <Code block aria-label={t('admin.codes.newLabel')} mah={240} style={{ overflow: 'auto' }}>
        {text}
      </Code>
    </Stack>
  );
}

/** The list's filters; each one's label is admin.codes.states.<value>. */
const STATES: Array<CodeState | 'all'> = ['all', 'unused', 'redeemed', 'revoked'];

function CodeList({ onChanged }: { onChanged: () => unknown }) {
  const [state, setState] = useState<CodeState | 'all'>('all');
  // The cursors of the pages seen so far: back goes to the one before, next to the page's next_cursor.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors.at(-1) ?? null;
  const page = useQuery({ queryKey: ['admin', 'codes', state, cursor], queryFn: () => adminApi.redemptionCodes({ cursor, state: state === 'all' ? null : state }) });
  const [revoking, setRevoking] = useState<RedemptionCode | null>(null);
  const { t } = useTranslation();
  return (
    <Stack mt="md" gap="xs">
      <SegmentedControl aria-label={t('admin.codes.show')} value={state} data={STATES.map((value) => ({ value, label: t(`admin.codes.states.${value}`) }))} onChange={(value) => { setState(value as CodeState | 'all'); setCursors([null]); }} w="fit-content" />
      {page.isError ? <ErrorNotice error={page.error} /> : null}
      <CardTable minWidth={640}>
        <Table striped aria-label={t('admin.codes.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.codes.code')}</Table.Th>
              <Table.Th>{t('admin.codes.worth')}</Table.Th>
              <Table.Th>{t('wallet.note')}</Table.Th>
              <Table.Th>{t('keys.created')}</Table.Th>
              <Table.Th>{t('admin.codes.state')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('keys.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(page.data?.data ?? []).map((code) => (
              <Table.Tr key={code.id}>
                <Table.Td ff="monospace">{code.prefix}…</Table.Td>
                <Table.Td>{formatUsd(code.amount_usd)}</Table.Td>
                <Table.Td data-user-content>{code.note ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(code.created_at)}</Table.Td>
                <Table.Td>
                  {code.state === 'redeemed' ? t('admin.codes.redeemedBy', { when: formatDateTime(code.redeemed_at), who: code.redeemed_by_email ?? code.redeemed_by_name ?? t('admin.codes.deletedUser') }) : null}
                  {code.state === 'revoked' ? t('admin.codes.revokedAt', { when: formatDateTime(code.revoked_at) }) : null}
                  {code.state === 'unused' ? <Badge variant="light">{t('admin.codes.states.unused')}</Badge> : null}
                </Table.Td>
                <Table.Td>
                  {code.state === 'unused' ? (
                    <Button size="xs" variant="subtle" color="red" aria-label={t('admin.codes.revokeNamed', { prefix: code.prefix })} onClick={() => setRevoking(code)}>
                      {t('admin.codes.revoke')}
                    </Button>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </CardTable>
      <Group justify="flex-end">
        <Button variant="default" size="xs" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          {t('logs.newer')}
        </Button>
        <Button variant="default" size="xs" disabled={!page.data?.next_cursor} onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}>
          {t('logs.older')}
        </Button>
      </Group>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title={t('admin.codes.revokeTitle')}>
        <Stack>
          <Text>
            {t('admin.codes.revokeBody', { prefix: revoking?.prefix ?? '', worth: formatUsd(revoking?.amount_usd) })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              {t('keys.cancel')}
            </Button>
            <Button color="red" onClick={() => revoking && void runAdminAction(() => adminApi.revokeRedemptionCode(revoking.id), t('admin.codes.revoked'), onChanged).then(() => setRevoking(null))}>
              {t('admin.codes.revokeCode')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
