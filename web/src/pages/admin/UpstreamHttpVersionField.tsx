// A channel's `http2` setting has three states, each shown with what it does so an admin sees which one is
// in force and what the others would change: absent (automatic), true (HTTP/2) and false (HTTP/1.1 only).
// Radios in a column rather than a segmented row: the three labels do not fit side by side on a phone.
import { Radio, Stack } from '@mantine/core';

type UpstreamHttpVersion = 'automatic' | 'http2' | 'http1';

const CHOICES: { value: UpstreamHttpVersion; label: string; description: string }[] = [
  { value: 'automatic', label: 'Automatic', description: 'http: HTTP/1.1. https: both offered, the server chooses.' },
  { value: 'http2', label: 'HTTP/2', description: 'Many calls share one connection. https: h2 if offered; http: h2c, which the server must speak.' },
  { value: 'http1', label: 'HTTP/1.1 only', description: 'h2 is never offered: for an upstream or proxy that misbehaves on it.' },
];

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
  return (
    <Radio.Group label="HTTP version to the upstream" value={value} onChange={(next) => onChange(next as UpstreamHttpVersion)}>
      <Stack gap="xs" mt={6}>
        {CHOICES.map((choice) => (
          <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
