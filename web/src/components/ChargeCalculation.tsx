// How a call's charge was computed (the `calculation` of /api/logs/:id): each quantity with its unit price
// and amount, the long-context tier, the group ratio and the total, as a customer reads an invoice.
import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { formatCount } from './format.ts';

interface ChargeCalculationData {
  lines: { item: string; label: string; quantity: number; unit_price_usd: number; per: string; amount_usd: number; description: string }[];
  tier: { prompt_tokens: number; above_prompt_tokens: number | null } | null;
  subtotal_usd: number;
  group_ratio: number;
  total_usd: number;
  charged_usd: number;
  prices_changed: boolean;
  text: string;
}

export function isChargeCalculation(value: unknown): value is ChargeCalculationData {
  return typeof value === 'object' && value !== null && Array.isArray((value as { lines?: unknown }).lines) && typeof (value as { text?: unknown }).text === 'string';
}

/** USD as the calculation states it: every decimal that matters (a token can cost a millionth of a cent). */
const usd = (value: number) => `$${Number(value.toFixed(9)).toLocaleString('en-US', { maximumFractionDigits: 9 })}`;

export function ChargeCalculation({ calculation }: { calculation: ChargeCalculationData }) {
  if (calculation.lines.length === 0) {
    return (
      <Stack gap="xs" aria-label="How this charge was computed">
        <Title order={3} size="h5">How this charge was computed</Title>
        <Text>{calculation.text}</Text>
      </Stack>
    );
  }
  const tier = calculation.tier;
  return (
    <Stack gap="xs" aria-label="How this charge was computed">
      <Title order={3} size="h5">How this charge was computed</Title>
      {tier ? (
        <Text size="sm">
          {tier.above_prompt_tokens === null
            ? `Prompt of ${formatCount(tier.prompt_tokens)} tokens: standard prices.`
            : `Prompt of ${formatCount(tier.prompt_tokens)} tokens, above ${formatCount(tier.above_prompt_tokens)}: long-context prices on every token.`}
        </Text>
      ) : null}
      <Table aria-label="Charge calculation">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            <Table.Th ta="right">Unit price</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calculation.lines.map((line) => (
            <Table.Tr key={line.item}>
              <Table.Td>{line.label.charAt(0).toUpperCase() + line.label.slice(1)}</Table.Td>
              <Table.Td ta="right">{formatCount(line.quantity)}</Table.Td>
              <Table.Td ta="right">{`${usd(line.unit_price_usd)} per ${line.per}`}</Table.Td>
              <Table.Td ta="right">{usd(line.amount_usd)}</Table.Td>
            </Table.Tr>
          ))}
          {calculation.group_ratio !== 1 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>{`Subtotal ${usd(calculation.subtotal_usd)} × group ratio ${calculation.group_ratio}`}</Table.Td>
              <Table.Td ta="right">{usd(calculation.total_usd)}</Table.Td>
            </Table.Tr>
          ) : null}
          <Table.Tr>
            <Table.Th colSpan={3}>Total (rounded to the micro-dollar)</Table.Th>
            <Table.Th ta="right">{usd(calculation.total_usd)}</Table.Th>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {calculation.prices_changed ? (
        <Alert color="yellow" title="Prices have changed">{`This call was charged ${usd(calculation.charged_usd)} under the prices in force then; the lines above use today's prices.`}</Alert>
      ) : null}
    </Stack>
  );
}
