import { i18n } from '../i18n/i18n.ts';
import { Alert, Center } from '@mantine/core';
import { ApiError } from '../api/api-client.ts';
import { errorText } from '../i18n/error-text.ts';

/** An error in plain words, for a page that could not load. */
export function ErrorNotice({ error }: { error: unknown }) {
  const message = error instanceof ApiError ? errorText(error) : i18n.t('common.unreachableCheck');
  return (
    <Center p="xl">
      <Alert color="red" title={i18n.t('common.somethingWrong')} role="alert" maw={520}>
        {message}
      </Alert>
    </Center>
  );
}
