// The app's own page for an address it does not have (the server answers such page loads with this app
// and a 404 status, src/http/web-app.ts), instead of the API's JSON.
import { Anchor, Center, Code, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

export function NotFoundPage() {
  const location = useLocation();
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" maw={520}>
        <Title order={1}>Page not found</Title>
        <Text ta="center">
          There is no page at <Code>{location.pathname}</Code>. Check the address, or start again from the overview.
        </Text>
        <Anchor component={Link} to="/">
          Go to the overview
        </Anchor>
      </Stack>
    </Center>
  );
}
