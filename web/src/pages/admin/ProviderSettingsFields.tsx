// The fields of a channel type's own settings (Azure's api-version, Vertex's project and location, Bedrock's
// region, …), rendered from the JSON Schema the gateway publishes for the type (GET
// /api/admin/channel-types, from its provider's zod block): a label, a sentence and a placeholder per field,
// a list for a choice, a block (the config file's `azure:`) as a fieldset. A field marked secret is a
// password field whose stored value is never shown: left empty, it is kept. No type is named here.
import { Fieldset, PasswordInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import type { ChannelTypeView, JsonSchema } from '../../api/admin-api.ts';
import { useTranslation } from 'react-i18next';

/** The form's values: a string per field (a boolean as 'true'/'false'), a nested record per block. */
type SettingsValues = Record<string, string | Record<string, string>>;

const propertiesOf = (schema: JsonSchema) => Object.entries(schema.properties ?? {});
const isBlock = (schema: JsonSchema) => schema.type === 'object' && schema.properties !== undefined;
const asText = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The values of a channel's stored settings (secrets are never sent back: they start empty). */
export function initialSettings(type: ChannelTypeView | undefined, stored: Record<string, unknown> | null): SettingsValues {
  const values: SettingsValues = {};
  for (const [field, schema] of propertiesOf(type?.settings ?? {})) {
    const value = stored?.[field];
    if (isBlock(schema)) {
      const block = (value ?? {}) as Record<string, unknown>;
      values[field] = Object.fromEntries(propertiesOf(schema).map(([inner]) => [inner, asText(block[inner])]));
    } else {
      values[field] = asText(value);
    }
  }
  return values;
}

function wireValue(schema: JsonSchema, text: string): unknown {
  if (schema.type === 'boolean') return text === 'true';
  if (schema.type === 'number' || schema.type === 'integer') return Number(text);
  return text;
}

/** What the admin API takes for the type's settings: filled fields only; a block when any of its fields is filled or it is required. */
export function settingsBody(type: ChannelTypeView | undefined, values: SettingsValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const settings = type?.settings ?? {};
  for (const [field, schema] of propertiesOf(settings)) {
    const value = values[field];
    if (isBlock(schema) && typeof value === 'object') {
      const filled = Object.fromEntries(propertiesOf(schema).flatMap(([inner, innerSchema]) => {
        const text = (value[inner] ?? '').trim();
        return text === '' ? [] : [[inner, wireValue(innerSchema, text)]];
      }));
      if (Object.keys(filled).length > 0 || settings.required?.includes(field)) body[field] = filled;
    } else if (typeof value === 'string' && value.trim() !== '') {
      body[field] = wireValue(schema, value.trim());
    }
  }
  return body;
}

/** The gateway's own words for a type's settings (its providers' declarations), in English: marked so. */
const english = (text: string | undefined) => (text ? <span lang="en">{text}</span> : undefined);

function SettingField({ schema, name, value, keeping, onChange }: { schema: JsonSchema; name: string; value: string; keeping: boolean; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const label = english(schema.title ?? name);
  const placeholder = schema.examples?.[0] !== undefined ? String(schema.examples[0]) : undefined;
  if (schema.secret) {
    const note = keeping ? t('admin.settingsFields.keep') : t('admin.channels.keyStored');
    const description = (
      <>
        {schema.description ? <span lang="en">{schema.description} </span> : null}
        {note}
      </>
    );
    return <PasswordInput label={label} description={description} placeholder={placeholder} value={value} onChange={(event) => onChange(event.currentTarget.value)} autoComplete="off" />;
  }
  if (schema.enum) {
    return <Select label={label} description={english(schema.description)} placeholder={placeholder ?? t('admin.settingsFields.default')} data={schema.enum.map(String)} value={value || null} onChange={(next) => onChange(next ?? '')} clearable />;
  }
  if (schema.type === 'boolean') {
    return <Switch label={label} description={english(schema.description)} checked={value === 'true'} onChange={(event) => onChange(String(event.currentTarget.checked))} />;
  }
  return <TextInput label={label} description={english(schema.description)} placeholder={placeholder} value={value} onChange={(event) => onChange(event.currentTarget.value)} />;
}

/** `keeping`: the channel exists, so a secret left empty keeps its stored value. */
export function ProviderSettingsFields({ type, values, keeping, onChange }: { type: ChannelTypeView | undefined; values: SettingsValues; keeping: boolean; onChange: (next: SettingsValues) => void }) {
  const fields = propertiesOf(type?.settings ?? {});
  if (fields.length === 0) return null;
  return (
    <>
      {fields.map(([field, schema]) => {
        const value = values[field];
        if (isBlock(schema)) {
          const block = typeof value === 'object' ? value : {};
          return (
            <Fieldset key={field} legend={english(schema.title ?? field)} variant="filled">
              <Stack gap="sm">
                {propertiesOf(schema).map(([inner, innerSchema]) => (
                  <SettingField key={inner} schema={innerSchema} name={inner} value={block[inner] ?? ''} keeping={keeping} onChange={(next) => onChange({ ...values, [field]: { ...block, [inner]: next } })} />
                ))}
              </Stack>
            </Fieldset>
          );
        }
        return <SettingField key={field} schema={schema} name={field} value={typeof value === 'string' ? value : ''} keeping={keeping} onChange={(next) => onChange({ ...values, [field]: next })} />;
      })}
    </>
  );
}
