// A channel's `responses_websocket` setting (issue 29): whether the turns of a client's Responses WebSocket
// go to this upstream over its own Responses WebSocket. Three states, like the HTTP version beside it:
// absent (the type's default: on for OpenAI channels), on, and off (streamed POSTs only).
import { Radio, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type ResponsesWebSocketChoice = 'automatic' | 'on' | 'off';

/** The choices; each one's label and description are admin.responsesWs.<value> and admin.responsesWs.<value>Hint. */
const CHOICES: ResponsesWebSocketChoice[] = ['automatic', 'on', 'off'];

/** The form's state for a channel's stored `responses_websocket` (undefined: the type's default). */
export function responsesWebSocketOf(stored: boolean | undefined): ResponsesWebSocketChoice {
  return stored === undefined ? 'automatic' : stored ? 'on' : 'off';
}

/** What the admin API takes: null clears a stored setting, so saving Automatic really goes back to the default. */
export function responsesWebSocketBody(choice: ResponsesWebSocketChoice): boolean | null {
  return choice === 'automatic' ? null : choice === 'on';
}

export function ResponsesWebSocketField({ value, onChange }: { value: ResponsesWebSocketChoice; onChange: (value: ResponsesWebSocketChoice) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group label={t('admin.responsesWs.label')} value={value} onChange={(next) => onChange(next as ResponsesWebSocketChoice)}>
      <Stack gap="xs" mt={6}>
        {CHOICES.map((choice) => (
          <Radio key={choice} value={choice} label={t(`admin.responsesWs.${choice}`)} description={t(`admin.responsesWs.${choice}Hint`)} />
        ))}
      </Stack>
    </Radio.Group>
  );
}
