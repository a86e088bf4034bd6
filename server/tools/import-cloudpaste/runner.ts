import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { moveSharesIntoArea, type ShareMoveLog } from '../../features/storages/share-area';
import { SYSTEM_CREATOR } from '../../features/storages/configs';
import { SHARE_AREA } from '../../storage/keys';
import { importAdmins, importApiKeys } from './accounts';
import type { ImportContext, ImportOptions } from './context';
import { ImportReport } from './report';
import { importSettings } from './settings';
import { importFiles, importPastes } from './shares';
import type { CloudPasteData } from './source';
import { importMounts, importStorageConfigs } from './storage';

export class ImportRefused extends Error {}

/** Thrown to end a dry run's transaction: everything it wrote is rolled back. */
class DryRunOver extends Error {}

/**
 * Whether an earlier run brought this CloudPaste: its admin is here under CloudPaste's id (every run that is not a
 * merge brings it). Ids of other rows alone prove nothing: a crafted source can name the install's own.
 */
async function importedBefore(db: DB, data: CloudPasteData): Promise<boolean> {
  const ids = data.admins.map((admin) => admin.id);
  return ids.length > 0 && (await db.selectFrom('admins').select('id').where('id', 'in', ids).executeTakeFirst()) !== undefined;
}

/**
 * What the install holds besides its own starting state (the admin, the built-in LOCAL storage and its mount) and
 * besides what an earlier run brought from this same CloudPaste (found by CloudPaste's ids, which the import keeps).
 */
async function otherData(db: DB, data: CloudPasteData): Promise<string[]> {
  const sourceRows = [data.pastes, data.files, data.apiKeys, data.mounts, data.s3Configs].flat();
  const ours = new Set((await importedBefore(db, data)) ? sourceRows.map((row) => row.id) : []);
  const counts: [string, { id: string }[]][] = [
    ['pastes', await db.selectFrom('pastes').select('id').execute()],
    ['file shares', await db.selectFrom('files').select('id').execute()],
    ['API keys', await db.selectFrom('api_keys').select('id').execute()],
    ['mounts', await db.selectFrom('mounts').select('id').where('created_by', '!=', SYSTEM_CREATOR).execute()],
    ['storage configs', await db.selectFrom('storage_configs').select('id').where('created_by', '!=', SYSTEM_CREATOR).execute()],
    ['expense claims', await db.selectFrom('expense_claims').select('id').execute()],
  ];
  return counts
    .map(([kind, rows]) => [kind, rows.filter((row) => !ours.has(row.id)).length] as const)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${kind}`);
}

/** Committed shares whose object is still outside the share area: what the move after the import takes. */
async function sharesToMove(db: DB): Promise<number> {
  const row = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('status', '=', 'committed')
    .where('storage_path', 'not like', `${SHARE_AREA}/%`)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Imports a CloudPaste install into this one, in one transaction (a failure, such as a wrong --secret, leaves the
 * install as it was), then moves the imported shares' objects into the share area as the share-area move does for
 * an old install's own. A dry run does all of it but the move and rolls back. Running again imports nothing twice.
 */
export async function importCloudPaste(
  deps: AppDeps,
  data: CloudPasteData,
  options: ImportOptions,
  log: ShareMoveLog = console,
): Promise<ImportReport> {
  const report = new ImportReport();
  const other = await otherData(deps.db, data);
  if (other.length > 0 && !options.merge) {
    throw new ImportRefused(`The install already holds ${other.join(', ')} of its own. Import beside them with --merge, or into an empty install.`);
  }
  try {
    await deps.db.transaction().execute(async (trx) => {
      const ctx: ImportContext = { deps: { ...deps, db: trx }, data, options, report, brought: { storageConfigs: new Set(), apiKeys: new Set() } };
      await importStorageConfigs(ctx);
      await importMounts(ctx);
      await importAdmins(ctx);
      await importApiKeys(ctx);
      await importPastes(ctx);
      await importFiles(ctx);
      await importSettings(ctx);
      if (options.dryRun) {
        report.sharesMoved = await sharesToMove(trx);
        throw new DryRunOver();
      }
    });
  } catch (error) {
    if (!(error instanceof DryRunOver)) throw error;
    return report;
  }
  const moved = await moveSharesIntoArea(deps, log);
  report.sharesMoved = moved.moved;
  report.sharesNotMoved = moved.failed;
  return report;
}
