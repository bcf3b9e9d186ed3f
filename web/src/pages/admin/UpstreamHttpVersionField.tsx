// A channel's `http2` setting has three states, each shown with what it does so an admin sees which one is
// in force and what the others would change: absent (automatic), true (HTTP/2) and false (HTTP/1.1 only).
// Radios in a column rather than a segmented row: the three labels do not fit side by side on a phone.
import { Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type UpstreamHttpVersion = 'automatic' | 'http2' | 'http1';

/** The choices; each one's label and description are admin.http.<value> and admin.http.<value>Hint. */
const CHOICES: UpstreamHttpVersion[] = ['automatic', 'http2', 'http1'];

/** The form's state for a channel's stored `http2` (undefined when automatic). */
export function httpVersionOf(http2: boolean | undefined): UpstreamHttpVersion {
  return http2 === undefined ? 'automatic' : http2 ? 'http2' : 'http1';
}

/** What the admin API takes: null clears a stored setting, so saving Automatic really goes back to it. */
export function http2Body(version: UpstreamHttpVersion): boolean | null {
  return version === 'automatic' ? null : version === 'http2';
}

/** A radio group named by its visible label; the arrow keys move between the choices. */
export function UpstreamHttpVersionField({ value, onChange }: { value: UpstreamHttpVersion; onChange: (value: UpstreamHttpVersion) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group label={t('admin.http.label')} value={value} onChange={(next) => onChange(next as UpstreamHttpVersion)}>
      <Stack gap="xs" mt={6}>
        {CHOICES.map((choice) => (
          <Radio key={choice} value={choice} label={t(`admin.http.${choice}`)} description={t(`admin.http.${choice}Hint`)} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
