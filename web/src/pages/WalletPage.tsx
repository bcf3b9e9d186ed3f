import { Title } from '@mantine/core';

export default function WalletPage() {
  return <Title order={1}>Wallet</Title>;
}
