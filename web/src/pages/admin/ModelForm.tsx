// The admin's model form: every price the gateway bills by (token prices with both cache-write lifetimes,
// the per-unit prices, the per-image table) and the long-context tiers, in USD as the config file says them;
// then fallbacks, hedging, limits and capabilities (ModelRoutingFields.tsx).
import { exactNumberProps, numberProblem, usdBound } from '../../components/number-rules.ts';
import { useState } from 'react';
import { Button, CloseButton, Fieldset, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { adminApi, type AdminModel } from '../../api/admin-api.ts';
import { runAdminAction } from './admin-actions.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ModelRoutingFields, ROUTING_FORM_FIELDS, routingFormBody, routingFormState, routingProblems, type RoutingFormState } from './ModelRoutingFields.tsx';
import { emptyTier, PRICE_FORM_FIELDS, priceFormBody, priceFormState, TOKEN_PRICES, UNIT_PRICES, type PriceFormState, type PriceText } from './model-prices.ts';

/** As the server checks prices (src/admin/admin-number-rules.ts): never negative, bounded, exact to a micro-dollar. */
const PRICE_RULE = { optional: true, min: 0, max: 10_000, decimals: 6, format: usdBound };

/** Every price field's problem, keyed as the inputs are (`input_per_mtok`, `tier0.input_per_mtok`, `image0`). */
function priceProblems(state: PriceFormState): Record<string, string> {
  const problems: Record<string, string> = {};
  const check = (key: string, value: PriceText) => {
    const problem = numberProblem(value, PRICE_RULE);
    if (problem !== null) problems[key] = problem;
  };
  for (const [field, value] of Object.entries(state.prices)) check(field, value);
  state.tiers.forEach((tier, index) => {
    for (const [field, value] of Object.entries(tier.prices)) check(`tier${index}.${field}`, value);
  });
  state.images.forEach((image, index) => check(`image${index}`, image.price));
  return problems;
}

function TokenPriceInputs({ values, onChange, errors, prefix = '', errorKey = '' }: { values: Record<string, PriceText>; onChange: (field: string, value: PriceText) => void; errors: Record<string, string>; prefix?: string; errorKey?: string }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      {TOKEN_PRICES.map(({ field }) => (
        <NumberInput key={field} label={`${prefix}${t('admin.modelForm.usd', { label: t(`admin.prices.${field}`) })}`} description={t(`admin.prices.${field}Hint`)} {...exactNumberProps} value={values[field]} onChange={(value) => onChange(field, value)} error={errors[`${errorKey}${field}`]} />
      ))}
    </SimpleGrid>
  );
}

export function ModelForm({ existing, onClose, onDone }: { existing: AdminModel | null; onClose: () => void; onDone: () => unknown }) {
  const [id, setId] = useState(existing?.id ?? '');
  const [ownedBy, setOwnedBy] = useState(existing?.owned_by ?? 'system');
  const [free, setFree] = useState(existing?.free ?? false);
  const [state, setState] = useState<PriceFormState>(() => priceFormState(existing));
  const [routing, setRouting] = useState<RoutingFormState>(() => routingFormState(existing));
  const models = useQuery({ queryKey: ['admin', 'models'], queryFn: adminApi.models });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { t } = useTranslation();
  const setPrice = (field: string, value: PriceText) => setState({ ...state, prices: { ...state.prices, [field]: value } });
  const setTier = (index: number, change: Partial<PriceFormState['tiers'][number]>) => setState({ ...state, tiers: state.tiers.map((tier, i) => (i === index ? { ...tier, ...change } : tier)) });
  const setImage = (index: number, change: Partial<PriceFormState['images'][number]>) => setState({ ...state, images: state.images.map((image, i) => (i === index ? { ...image, ...change } : image)) });

  const submit = async () => {
    // Judged, never rewritten: what was typed stays in the field, with what is wrong beside it.
    const problems = { ...priceProblems(state), ...routingProblems(routing, id) };
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    // Keep any field this form does not show as it was.
    const shown = [...PRICE_FORM_FIELDS, ...ROUTING_FORM_FIELDS];
    const kept = existing ? Object.fromEntries(Object.entries(existing).filter(([field, value]) => value !== undefined && value !== null && !shown.includes(field))) : {};
    const body: Record<string, unknown> = { ...kept, id: id.trim(), owned_by: ownedBy.trim() || 'system', free, ...priceFormBody(state), ...routingFormBody(routing) };
    if (await runAdminAction(() => adminApi.putModel(body), t('admin.modelForm.saved'), onDone)) onClose();
  };

  return (
    <Stack>
      <TextInput label={t('admin.modelForm.id')} value={id} onChange={(event) => setId(event.currentTarget.value)} disabled={existing !== null} />
      <TextInput label={t('admin.models.ownedBy')} value={ownedBy} onChange={(event) => setOwnedBy(event.currentTarget.value)} />
      <Fieldset legend={t('admin.modelForm.tokenPrices')}>
        <TokenPriceInputs values={state.prices} onChange={setPrice} errors={errors} />
      </Fieldset>
      <Fieldset legend={t('admin.modelForm.tiers')}>
        <Stack gap="sm">
          <Text size="xs" c="dimmed">
            {t('admin.modelForm.tiersIntro')}
          </Text>
          {state.tiers.map((tier, index) => (
            <Fieldset key={index} legend={t('admin.modelForm.tier', { n: index + 1 })} variant="filled">
              <Group align="flex-end" wrap="nowrap">
                <NumberInput label={t('admin.modelForm.tierAbove', { n: index + 1 })} min={1} allowDecimal={false} thousandSeparator="," value={tier.above} onChange={(value) => setTier(index, { above: value })} style={{ flex: 1 }} />
                <CloseButton aria-label={t('admin.modelForm.removeTier', { n: index + 1 })} onClick={() => setState({ ...state, tiers: state.tiers.filter((_, i) => i !== index) })} />
              </Group>
              <TokenPriceInputs prefix={t('admin.modelForm.tierPrefix', { n: index + 1 })} errorKey={`tier${index}.`} errors={errors} values={tier.prices} onChange={(field, value) => setTier(index, { prices: { ...tier.prices, [field]: value } })} />
            </Fieldset>
          ))}
          <Button variant="default" size="xs" onClick={() => setState({ ...state, tiers: [...state.tiers, emptyTier()] })}>
            {t('admin.modelForm.addTier')}
          </Button>
        </Stack>
      </Fieldset>
      <Fieldset legend={t('admin.modelForm.otherPrices')}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {UNIT_PRICES.map(({ field }) => (
            <NumberInput key={field} label={t('admin.modelForm.usd', { label: t(`admin.prices.${field}`) })} {...exactNumberProps} value={state.prices[field]} onChange={(value) => setPrice(field, value)} error={errors[field]} />
          ))}
        </SimpleGrid>
        <Stack gap={6} mt="sm">
          <Text size="sm">{t('admin.modelForm.perImage')}</Text>
          {state.images.map((image, index) => (
            <Group key={index} align="flex-end" wrap="nowrap">
              <TextInput label={t('admin.modelForm.imageKey', { n: index + 1 })} placeholder="1024x1024/hd" value={image.key} onChange={(event) => setImage(index, { key: event.currentTarget.value })} style={{ flex: 1 }} />
              <NumberInput label={t('admin.modelForm.imagePrice', { n: index + 1 })} {...exactNumberProps} value={image.price} onChange={(value) => setImage(index, { price: value })} error={errors[`image${index}`]} style={{ flex: 1 }} />
              <CloseButton aria-label={t('admin.modelForm.removeImage', { n: index + 1 })} onClick={() => setState({ ...state, images: state.images.filter((_, i) => i !== index) })} />
            </Group>
          ))}
          <Button variant="default" size="xs" onClick={() => setState({ ...state, images: [...state.images, { key: '', price: '' }] })}>
            {t('admin.modelForm.addImage')}
          </Button>
        </Stack>
      </Fieldset>
      <ModelRoutingFields state={routing} onChange={setRouting} errors={errors} models={(models.data ?? []).map((model) => model.id).filter((other) => other !== id.trim())} />
      <Switch label={t('admin.modelForm.free')} checked={free} onChange={(event) => setFree(event.currentTarget.checked)} />
      <Text size="xs" c="dimmed">
        {t('admin.modelForm.freeHint')}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('keys.cancel')}
        </Button>
        <Button onClick={() => void submit()}>{t('admin.modelForm.save')}</Button>
      </Group>
    </Stack>
  );
}
