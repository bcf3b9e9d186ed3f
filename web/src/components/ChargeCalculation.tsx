// How a call's charge was computed (the `calculation` of /api/logs/:id): each quantity with its unit price
// and amount, the long-context tier, the group ratio and the total, as a customer reads an invoice.
import { Alert, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiAnswer } from '../api/api-types.ts';
import { formatCount } from './format.ts';
import { currentLanguage, i18n } from '../i18n/i18n.ts';

type ChargeCalculationData = ApiAnswer<'/api/logs/{id}', 'get'>['calculation'];

export function isChargeCalculation(value: unknown): value is ChargeCalculationData {
  return typeof value === 'object' && value !== null && Array.isArray((value as { lines?: unknown }).lines) && typeof (value as { text?: unknown }).text === 'string';
}

/** USD as the calculation states it: every decimal that matters (a token can cost a millionth of a cent). */
const usd = (value: number) =>
  Number(value.toFixed(9)).toLocaleString(currentLanguage(), { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 9 });

/**
 * A line's name: the server's English sentence in English (it counts the quantity: "input tokens"), else the
 * catalogue's name for the line's item, with the server's parenthesis of an image line (its size, quality).
 */
function lineLabel(line: ChargeCalculationData['lines'][number]): string {
  const english = line.label.charAt(0).toUpperCase() + line.label.slice(1);
  const key = `receipt.items.${line.item}`;
  if (currentLanguage() === 'en' || !i18n.exists(key)) return english;
  const variant = line.item === 'images' ? /\(([^)]*)\)$/.exec(line.label)?.[1] : undefined;
  return variant ? `${i18n.t(key)}（${variant}）` : i18n.t(key);
}

export function ChargeCalculation({ calculation }: { calculation: ChargeCalculationData }) {
  const { t } = useTranslation();
  if (calculation.lines.length === 0) {
    return (
      <Stack gap="xs" aria-label={t('receipt.howComputed')}>
        <Title order={3} size="h5">
          {t('receipt.howComputed')}
        </Title>
        <Text lang="en">{calculation.text}</Text>
      </Stack>
    );
  }
  const tier = calculation.tier;
  return (
    <Stack gap="xs" aria-label={t('receipt.howComputed')}>
      <Title order={3} size="h5">
        {t('receipt.howComputed')}
      </Title>
      {tier ? (
        <Text size="sm">
          {tier.above_prompt_tokens === null
            ? t('receipt.standard', { tokens: formatCount(tier.prompt_tokens) })
            : t('receipt.longContext', { tokens: formatCount(tier.prompt_tokens), above: formatCount(tier.above_prompt_tokens) })}
        </Text>
      ) : null}
      <Table aria-label={t('receipt.calculation')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('receipt.what')}</Table.Th>
            <Table.Th ta="right">{t('receipt.quantity')}</Table.Th>
            <Table.Th ta="right">{t('receipt.unitPrice')}</Table.Th>
            <Table.Th ta="right">{t('receipt.amount')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {calculation.lines.map((line) => (
            <Table.Tr key={line.item}>
              <Table.Td>{lineLabel(line)}</Table.Td>
              <Table.Td ta="right">{formatCount(line.quantity)}</Table.Td>
              <Table.Td ta="right">{t('receipt.per', { price: usd(line.unit_price_usd), unit: i18n.exists(`receipt.units.${line.per}`) ? t(`receipt.units.${line.per}`) : line.per })}</Table.Td>
              <Table.Td ta="right">{usd(line.amount_usd)}</Table.Td>
            </Table.Tr>
          ))}
          {calculation.group_ratio !== 1 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>{t('receipt.subtotal', { subtotal: usd(calculation.subtotal_usd), ratio: calculation.group_ratio })}</Table.Td>
              <Table.Td ta="right">{usd(calculation.total_usd)}</Table.Td>
            </Table.Tr>
          ) : null}
          <Table.Tr>
            <Table.Th colSpan={3}>{t('receipt.total')}</Table.Th>
            <Table.Th ta="right">{usd(calculation.total_usd)}</Table.Th>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {calculation.prices_changed ? (
        <Alert color="yellow" title={t('receipt.pricesChanged')}>
          {t('receipt.pricesChangedBody', { charged: usd(calculation.charged_usd) })}
        </Alert>
      ) : null}
    </Stack>
  );
}
