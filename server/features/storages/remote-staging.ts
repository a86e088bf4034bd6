import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppDeps } from '../../context';
import { isMissing } from '../../storage/local/root';
import { multipartFolderOf } from '../../storage/local/uploads';
import { remoteStagingFolderOf } from '../../storage/registry';

/**
 * A staged upload nothing has touched for this long is abandoned: the uploads that records follow are aborted by
 * their own sweeps after an hour idle, so what is left this long after is one whose server process died mid-way.
 */
export const STAGED_UPLOAD_MAX_IDLE_MS = 24 * 3600_000;

/** The newest modification time in a staged upload's folder (the folder's own, or a part's). */
async function lastTouched(dir: string): Promise<number> {
  let newest = (await stat(dir)).mtimeMs;
  for (const name of await readdir(dir)) {
    try {
      newest = Math.max(newest, (await stat(join(dir, name))).mtimeMs);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return newest;
}

/**
 * Removes the staged multipart uploads of WebDAV, SFTP and FTP storages (`DATA_DIR/remote-staging/<config id>`)
 * left idle past STAGED_UPLOAD_MAX_IDLE_MS, and the staging of configs that no longer exist. Answers how many went.
 */
export async function sweepStagedRemoteUploads(deps: AppDeps): Promise<number> {
  const root = remoteStagingFolderOf(deps);
  let configIds: string[];
  try {
    configIds = await readdir(root);
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  const known = new Set((await deps.db.selectFrom('storage_configs').select('id').execute()).map((row) => row.id));
  const cutoff = deps.now().getTime() - STAGED_UPLOAD_MAX_IDLE_MS;
  let removed = 0;
  for (const configId of configIds) {
    const staging = join(root, configId);
    if (!known.has(configId)) {
      await rm(staging, { recursive: true, force: true });
      continue;
    }
    const uploads = multipartFolderOf(staging);
    let ids: string[];
    try {
      ids = await readdir(uploads);
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    for (const id of ids) {
      const dir = join(uploads, id);
      if ((await lastTouched(dir).catch(() => Number.POSITIVE_INFINITY)) > cutoff) continue;
      await rm(dir, { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}
