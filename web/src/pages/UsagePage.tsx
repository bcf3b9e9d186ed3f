import { Title } from '@mantine/core';

export default function UsagePage() {
  return <Title order={1}>Usage</Title>;
}
