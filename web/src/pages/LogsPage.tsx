import { Title } from '@mantine/core';

export default function LogsPage() {
  return <Title order={1}>Logs</Title>;
}
