import { Alert, Center } from '@mantine/core';
import { ApiError } from '../api/api-client.ts';

/** An error in plain words, for a page that could not load. */
export function ErrorNotice({ error }: { error: unknown }) {
  const message = error instanceof ApiError ? error.message : 'The gateway could not be reached. Check your connection and try again.';
  return (
    <Center p="xl">
      <Alert color="red" title="Something went wrong" role="alert" maw={520}>
        {message}
      </Alert>
    </Center>
  );
}
