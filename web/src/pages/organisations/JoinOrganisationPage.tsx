// Where the mailed invitation link lands (/orgs/join?token=…): behind sign-in, so a signed-out visitor signs
// in (or signs up with the invited address) and comes back here; then one click joins.
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { organisationsApi } from '../../api/organisations-api.ts';

export default function JoinOrganisationPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token') ?? '';
  const join = useMutation({ mutationFn: () => organisationsApi.join(token), onSuccess: (joined) => navigate(`/orgs/${joined.organisation_id}`) });
  return (
    <Stack maw={560}>
      <Title order={1}>{t('orgs.join.title')}</Title>
      <Paper withBorder p="md">
        <Stack>
          <Text>{t('orgs.join.body')}</Text>
          {join.error instanceof Error ? <Alert color="red" role="alert">{join.error.message}</Alert> : null}
          <Button onClick={() => join.mutate()} loading={join.isPending} disabled={!token}>{t('orgs.join.accept')}</Button>
        </Stack>
      </Paper>
    </Stack>
  );
}
