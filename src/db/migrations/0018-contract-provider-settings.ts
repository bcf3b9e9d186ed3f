// A channel type's own settings are declared by its provider (issue 27, item 2) and kept as the config file
// writes them, under settings_json's `provider` key. Before, three types' settings sat beside the common
// ones in their own spellings: Bedrock's `region`, Azure's `azure` and Vertex's `vertex` in camelCase. Each
// row is rewritten once; a row without them is left as it is.
import type { Kysely, Migration } from 'kysely';
import { sql } from '../kysely-parts.ts';

type Settings = Record<string, unknown> & {
  region?: string;
  azure?: { apiVersion?: string; pathStyle?: string; entraAuthority?: string };
  vertex?: { project?: string; location?: string; tokenUrl?: string };
  provider?: Record<string, unknown>;
};

const defined = (entries: Record<string, unknown>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/** The settings in the new layout, or null when there is nothing to move. */
function movedProviderSettings(settings: Settings): Settings | null {
  const { region, azure, vertex, ...rest } = settings;
  if (region === undefined && azure === undefined && vertex === undefined) return null;
  const provider = defined({
    region,
    azure: azure ? defined({ api_version: azure.apiVersion, path_style: azure.pathStyle, entra_authority: azure.entraAuthority }) : undefined,
    vertex: vertex ? defined({ project: vertex.project, location: vertex.location, token_url: vertex.tokenUrl }) : undefined,
  });
  return { ...rest, provider: { ...provider, ...rest.provider } };
}

/** @public Loaded by src/db/migrate.ts through a dynamic import. */
export const providerSettings: Migration = {
  async up(db: Kysely<unknown>) {
    const rows = await sql<{ id: number; settings_json: string }>`select id, settings_json from channels`.execute(db);
    for (const row of rows.rows) {
      const moved = movedProviderSettings(JSON.parse(row.settings_json) as Settings);
      if (moved) await sql`update channels set settings_json = ${JSON.stringify(moved)} where id = ${row.id}`.execute(db);
    }
  },
  async down() {
    // The old layout is not written back: a build before this one would read the moved settings as missing.
  },
};
