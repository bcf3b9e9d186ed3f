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
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['admin', 'codes'] });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Redemption codes
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
  const create = async () => {
    setConfirming(false);
    await runAdminAction(async () => {
      const answer = await adminApi.createRedemptionCodes(Number(count), Number(amount), note.trim());
      onCreated({ codes: answer.codes, amountUsd: answer.amount_usd, note: note.trim() });
    }, 'Codes created: copy or download them now, they are shown only once.', () => undefined);
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
        <NumberInput label="How many" {...exactNumberProps} value={count} onChange={setCount} error={errors.count} w={140} />
        <NumberInput label="Worth (USD each)" {...exactNumberProps} value={amount} onChange={setAmount} error={errors.amount} w={180} />
        <TextInput label="Note" value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={200} w={200} />
        <Button onClick={submit} mt={25}>
          Create codes
        </Button>
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Create this many codes?">
        <Stack>
          <Text>
            {Number(count).toLocaleString('en-US')} codes worth {formatUsd(Number(amount))} each: {formatUsd(Number(count) * Number(amount))} in all, redeemable by anyone who has one.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void create()}>
              Create {Number(count).toLocaleString('en-US')} codes
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function NewCodes({ batch }: { batch: Batch }) {
  const text = batch.codes.join('\n');
  return (
    <Stack gap="xs" mt="sm">
      <Group>
        <Text size="sm" fw={500}>
          {batch.codes.length} new {batch.codes.length === 1 ? 'code' : 'codes'} worth {formatUsd(batch.amountUsd)} each: shown only now.
        </Text>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button size="xs" variant="light" onClick={copy}>
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="light" onClick={() => downloadText(newCodesCsv(batch.codes, batch.amountUsd, batch.note), `redemption-codes-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`)}>
          Download CSV
        </Button>
      </Group>
      <Code block aria-label="New redemption codes" mah={240} style={{ overflow: 'auto' }}>
        {text}
      </Code>
    </Stack>
  );
}

const STATES: Array<{ value: CodeState | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'unused', label: 'Unused' },
  { value: 'redeemed', label: 'Redeemed' },
  { value: 'revoked', label: 'Revoked' },
];

function CodeList({ onChanged }: { onChanged: () => unknown }) {
  const [state, setState] = useState<CodeState | 'all'>('all');
  // The cursors of the pages seen so far: back goes to the one before, next to the page's next_cursor.
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors.at(-1) ?? null;
  const page = useQuery({ queryKey: ['admin', 'codes', state, cursor], queryFn: () => adminApi.redemptionCodes({ cursor, state: state === 'all' ? null : state }) });
  const [revoking, setRevoking] = useState<RedemptionCode | null>(null);
  return (
    <Stack mt="md" gap="xs">
      <SegmentedControl aria-label="Show codes" value={state} data={STATES} onChange={(value) => { setState(value as CodeState | 'all'); setCursors([null]); }} w="fit-content" />
      {page.isError ? <ErrorNotice error={page.error} /> : null}
      <CardTable minWidth={640}>
        <Table striped aria-label="Redemption codes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Code</Table.Th>
              <Table.Th>Worth</Table.Th>
              <Table.Th>Note</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>
                <span className="visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(page.data?.data ?? []).map((code) => (
              <Table.Tr key={code.id}>
                <Table.Td ff="monospace">{code.prefix}…</Table.Td>
                <Table.Td>{formatUsd(code.amount_usd)}</Table.Td>
                <Table.Td>{code.note ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(code.created_at)}</Table.Td>
                <Table.Td>
                  {code.state === 'redeemed' ? `Redeemed ${formatDateTime(code.redeemed_at)} by ${code.redeemed_by_email ?? code.redeemed_by_name ?? 'a deleted user'}` : null}
                  {code.state === 'revoked' ? `Revoked ${formatDateTime(code.revoked_at)}` : null}
                  {code.state === 'unused' ? <Badge variant="light">Unused</Badge> : null}
                </Table.Td>
                <Table.Td>
                  {code.state === 'unused' ? (
                    <Button size="xs" variant="subtle" color="red" aria-label={`Revoke ${code.prefix}`} onClick={() => setRevoking(code)}>
                      Revoke
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
          Newer
        </Button>
        <Button variant="default" size="xs" disabled={!page.data?.next_cursor} onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}>
          Older
        </Button>
      </Group>
      <Modal opened={revoking !== null} onClose={() => setRevoking(null)} title="Revoke this code?">
        <Stack>
          <Text>
            {revoking?.prefix}… worth {formatUsd(revoking?.amount_usd)} will be refused from now on. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => revoking && void runAdminAction(() => adminApi.revokeRedemptionCode(revoking.id), 'Code revoked.', onChanged).then(() => setRevoking(null))}>
              Revoke code
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
