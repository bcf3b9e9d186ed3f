// `npm run admin -- create --email you@example.com [--name "You"]`: creates (or promotes) an administrator
// in the database named by DATABASE_URL and prints a one-time link to set the password. A running gateway
// needs no restart: the link works at once, and the new admin's sign-in reads the database.
import { parseArgs } from 'node:util';
import { readEnv } from './config/env.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createAdminWithLink } from './admin/first-admin.ts';

const USAGE = 'Usage: npm run admin -- create --email you@example.com [--name "Your name"]';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' } }, allowPositionals: true });
  if (positionals[0] !== 'create' || !values.email || !/^[^\s@]+@[^\s@]+$/.test(values.email)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const env = readEnv();
  const database = await openDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(database.db, database.engine);
    const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    const result = await createAdminWithLink(database.db, values.email, publicUrl, values.name);
    process.stdout.write(`${result.created ? 'Created' : 'Promoted'} administrator ${values.email} (user ${result.userId}).\n`
      + `Open this link within 24 hours to set the password (it works once):\n  ${result.link}\n`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
