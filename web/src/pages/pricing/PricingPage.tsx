// The public pricing page (issue 31, item 4): every model of each group anyone may pick for a key, with the
// group's ratio already applied. No sign-in. While an administrator has the page off, the API answers 404
// and this is the app's Not Found page (the server sends it with a 404 too, src/http/web-app.ts).
import { useState } from 'react';
import { Anchor, Badge, Container, Group, Loader, Paper, SegmentedControl, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fetchPublicPricing, type PublicModelPrice } from '../../api/pricing-api.ts';
import { Brand } from '../../brand/BrandMark.tsx';
import { CardTable } from '../../components/CardTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatCount, formatUsd } from '../../components/format.ts';
import { LanguageSwitch } from '../../layout/LanguageSwitch.tsx';
import { NotFoundPage } from '../NotFoundPage.tsx';
import { priceLines } from './price-lines.ts';

export default function PricingPage() {
  const { t } = useTranslation();
  const pricing = useQuery({ queryKey: ['public-pricing'], queryFn: fetchPublicPricing });
  const [chosen, setChosen] = useState<string | null>(null);
  if (pricing.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={t('common.loading')} />
      </Group>
    );
  }
  if (pricing.data === null) return <NotFoundPage />;
  const groups = pricing.data ?? [];
  const group = groups.find((candidate) => candidate.name === chosen) ?? groups[0];
  return (
    <Container size="lg" py="md" component="main">
      <Stack>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" underline="never" c="inherit" aria-label={t('brand.home')}>
            <Brand />
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            <LanguageSwitch />
            <Anchor component={Link} to="/login">
              {t('pricing.signIn')}
            </Anchor>
          </Group>
        </Group>
        <Title order={1}>{t('pricing.title')}</Title>
        <Text>{t('pricing.intro')}</Text>
        {pricing.isError ? <ErrorNotice error={pricing.error} /> : null}
        {groups.length > 1 ? (
          groups.length <= 4 ? (
            <SegmentedControl aria-label={t('pricing.group')} value={group?.name ?? ''} onChange={setChosen} data={groups.map((item) => ({ value: item.name, label: item.name }))} w="fit-content" />
          ) : (
            <Select label={t('pricing.group')} value={group?.name ?? null} onChange={setChosen} allowDeselect={false} data={groups.map((item) => item.name)} w={240} />
          )
        ) : null}
        {group ? (
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={2} size="h3">
                {t('pricing.groupTitle', { name: group.name })}
              </Title>
              {group.description ? (
                <Text size="sm" data-user-content>
                  {group.description}
                </Text>
              ) : null}
              <Text size="sm" c="dimmed">
                {group.ratio === 1 ? t('pricing.ratioOne') : t('pricing.ratio', { ratio: group.ratio })}
              </Text>
              {group.models.length === 0 ? <Text>{t('pricing.noModels')}</Text> : <PriceTable models={group.models} />}
            </Stack>
          </Paper>
        ) : (
          <Text>{t('pricing.noGroups')}</Text>
        )}
      </Stack>
    </Container>
  );
}

function PriceTable({ models }: { models: PublicModelPrice[] }) {
  const { t } = useTranslation();
  return (
    <CardTable minWidth={640}>
      <Table striped aria-label={t('pricing.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('pricing.model')}</Table.Th>
            <Table.Th>{t('pricing.kind')}</Table.Th>
            <Table.Th>{t('pricing.prices')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {models.map((model) => (
            <Table.Tr key={model.id}>
              <Table.Td>
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {model.id}
                </Text>
                <Text size="xs" c="dimmed">
                  {model.owned_by}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light">{t(`pricing.kinds.${model.kind}`)}</Badge>
              </Table.Td>
              <Table.Td>
                {model.free ? (
                  <Badge color="green" variant="filled">
                    {t('pricing.free')}
                  </Badge>
                ) : (
                  <Stack gap={2}>
                    {priceLines(model.prices).map((line) => (
                      <Text size="sm" key={`${line.unit}-${line.variant ?? ''}`}>
                        {t(line.unit, { price: formatUsd(line.usd), variant: line.variant === '*' ? t('pricing.anySize') : line.variant })}
                      </Text>
                    ))}
                    {(model.tiers ?? []).map((tier) => (
                      <Text size="xs" c="dimmed" key={tier.above_prompt_tokens}>
                        {t('pricing.tier', { tokens: formatCount(tier.above_prompt_tokens) })}{' '}
                        {priceLines(tier.prices).map((line) => t(line.unit, { price: formatUsd(line.usd) })).join(' · ')}
                      </Text>
                    ))}
                  </Stack>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </CardTable>
  );
}
