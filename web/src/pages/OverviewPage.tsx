import { Title } from '@mantine/core';

export default function OverviewPage() {
  return <Title order={1}>Overview</Title>;
}
