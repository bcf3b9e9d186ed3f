// A PostgreSQL database named by DATABASE_URL that does not exist yet is created, when the role may
// (CREATEDB or superuser): connect to the server's `postgres` database and CREATE DATABASE. Otherwise the
// gateway stops with one sentence saying what to do. Several instances starting at once are fine: the
// losers of the race see "already exists" and carry on.
import { StartupError } from '../config/startup-error.ts';

const INVALID_CATALOG_NAME = '3D000';
const DUPLICATE_DATABASE = '42P04';
const INSUFFICIENT_PRIVILEGE = '42501';

export async function ensurePostgresDatabase(url: string): Promise<void> {
  const { default: pg } = await import('pg'); // loaded only for PostgreSQL
  // Bounded, so a server that accepts connections but never answers stops start-up with a sentence.
  const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_CATALOG_NAME) throw new StartupError(`Cannot connect to PostgreSQL ${describePostgres(url)}: ${(error as Error).message}.`, { cause: error });
  } finally {
    await probe.end().catch(() => {});
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 10_000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === DUPLICATE_DATABASE) return;
    const role = decodeURIComponent(target.username) || 'the connecting role';
    const why = code === INSUFFICIENT_PRIVILEGE ? `role '${role}' may not create databases` : (error as Error).message;
    throw new StartupError(`The PostgreSQL database '${name}' ${describeServer(url)} does not exist and could not be created (${why}): create it (CREATE DATABASE ${quoteIdentifier(name)} OWNER ${quoteIdentifier(role)}) or grant the role CREATEDB.`, { cause: error });
  } finally {
    await admin.end().catch(() => {});
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Database and server, never the password. */
export function describePostgres(url: string): string {
  const parsed = new URL(url);
  return `'${decodeURIComponent(parsed.pathname.slice(1))}' ${describeServer(url)}`;
}

function describeServer(url: string): string {
  const parsed = new URL(url);
  return `on ${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
}
