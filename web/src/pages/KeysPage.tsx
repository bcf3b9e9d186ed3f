import { Title } from '@mantine/core';

export default function KeysPage() {
  return <Title order={1}>Keys</Title>;
}
