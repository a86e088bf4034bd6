import type { MountIndex } from '../../../contract/search';
import type { AppDeps } from '../../context';
import type { Lang } from '../../i18n/messages';
import { mountNotFound, type MountRow } from '../mounts/mounts';
import { mountIndexes, queueBuild, setRescanMinutes } from './index-records';
import { indexerOf } from './indexer';

/** What the admin does with the mounts' indexes: look at them, rebuild one, set how often one is rescanned. */

const mountsInOrder = (deps: AppDeps) =>
  deps.db.selectFrom('mounts').select(['id', 'mount_path']).orderBy('sort_order').orderBy('name').orderBy('id');

export async function listIndexes(deps: AppDeps, lang: Lang): Promise<MountIndex[]> {
  return mountIndexes(deps.db, await mountsInOrder(deps).execute(), lang);
}

async function mountOf(deps: AppDeps, mountId: string): Promise<Pick<MountRow, 'id' | 'mount_path'>> {
  const mount = await mountsInOrder(deps).where('id', '=', mountId).executeTakeFirst();
  if (!mount) throw mountNotFound();
  return mount;
}

async function indexOf(deps: AppDeps, mount: Pick<MountRow, 'id' | 'mount_path'>, lang: Lang): Promise<MountIndex> {
  const [index] = await mountIndexes(deps.db, [mount], lang);
  return index as MountIndex;
}

/** Walks the whole mount again; the index stays searchable meanwhile and is `building` until the walk ends. */
export async function rebuildIndex(deps: AppDeps, mountId: string, lang: Lang): Promise<MountIndex> {
  const mount = await mountOf(deps, mountId);
  await queueBuild(deps, mount.id);
  indexerOf(deps).kick();
  return indexOf(deps, mount, lang);
}

export async function updateIndex(deps: AppDeps, mountId: string, rescanMinutes: number, lang: Lang): Promise<MountIndex> {
  const mount = await mountOf(deps, mountId);
  await setRescanMinutes(deps, mount.id, rescanMinutes);
  indexerOf(deps).kick();
  return indexOf(deps, mount, lang);
}
