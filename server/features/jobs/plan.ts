import type { SyncDryRun, SyncMode } from '../../../contract/jobs';
import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import type { ListedObject } from '../../storage/driver';
import { itemTargets } from '../fs/copy';
import { isWithin, type FsPath } from '../fs/paths';
import { innerOfKey, listMount, resolveInMount, withInner, type FsCaller, type MountTarget } from '../fs/resolve';
import { onStorage } from '../fs/storage-errors';
import { kindAt } from '../fs/writes';
import { assertFits, uploadLimits } from '../storages/upload-limits';
import type { NewJobItem } from './records';
import type { StorageConfigRow } from '../../storage/registry';

/**
 * What a job will do, listed before it starts: every folder to make, file to copy and (a mirror) file to delete,
 * checked against the target's max upload size and quota, so that a job that cannot fit is refused at once.
 */
export interface JobPlan {
  items: NewJobItem[];
  bytes: number;
}

/** A file or folder tree below `source`, each entry with its segments below it. */
async function treeOf(source: MountTarget) {
  const file = await onStorage(source.path.text, () => source.driver.stat(source.key));
  if (file) return { file, folders: [] as string[][], objects: [] as { below: string[]; object: ListedObject }[] };
  const tree = await onStorage(source.path.text, () => listMount(source, true));
  const below = (key: string) => innerOfKey(source, key).slice(source.inner.length);
  return { file: undefined, folders: tree.folders.map(below), objects: tree.objects.map((object) => ({ below: below(object.key), object })) };
}

const under = (target: MountTarget, below: string[]) => withInner(target, [...target.inner, ...below]);

/** Bytes each target storage config receives, to check against its limits together. */
class TargetBudget {
  private readonly byConfig = new Map<string, { config: StorageConfigRow; bytes: number; largest: number }>();

  add(target: MountTarget, size: number) {
    const entry = this.byConfig.get(target.config.id) ?? { config: target.config, bytes: 0, largest: 0 };
    entry.bytes += size;
    entry.largest = Math.max(entry.largest, size);
    this.byConfig.set(target.config.id, entry);
  }

  /** 413 `file_too_large` for a file over the max upload size, `quota_exceeded` when the whole does not fit. */
  async check(deps: AppDeps) {
    for (const { config, bytes, largest } of this.byConfig.values()) {
      const limits = await uploadLimits(deps, config);
      assertFits(largest, { maxUploadBytes: limits.maxUploadBytes });
      if (limits.quota) assertFits(bytes, { maxUploadBytes: Infinity, quota: limits.quota });
    }
  }
}

/** A copy's or move's items: each source's whole tree mapped under its target (fs/copy.ts's item rules). */
export async function planTransfer(
  deps: AppDeps,
  caller: FsCaller,
  type: 'copy' | 'move',
  requested: { sourcePath: string; targetPath: string }[],
): Promise<JobPlan & { targets: MountTarget[] }> {
  const items: NewJobItem[] = [];
  const budget = new TargetBudget();
  const targets: MountTarget[] = [];
  const file = (from: MountTarget, to: MountTarget, size: number) => {
    items.push({ seq: items.length, kind: 'file', source_path: from.path.text, target_path: to.path.text, size, status: 'pending', placed: 0 });
    // A move inside one storage config adds nothing to it.
    if (type === 'copy' || from.config.id !== to.config.id) budget.add(to, size);
  };
  for (const item of requested) {
    const { source, target } = await itemTargets(deps, caller, item);
    targets.push(target);
    const tree = await treeOf(source);
    if (tree.file) {
      file(source, target, tree.file.size);
      continue;
    }
    // A folder's source is kept for a move, which removes it once emptied.
    for (const below of [[], ...tree.folders]) {
      const folder = { source_path: under(source, below).path.text, target_path: under(target, below).path.text };
      items.push({ seq: items.length, kind: 'folder', ...folder, size: 0, status: 'pending', placed: 1 });
    }
    for (const { below, object } of tree.objects) file(withInner(source, [...source.inner, ...below]), under(target, below), object.size);
  }
  await budget.check(deps);
  return { items, bytes: items.reduce((sum, item) => sum + (item.size ?? 0), 0), targets };
}

/** Why a file is copied by a sync. */
export type SyncWhy = 'new' | 'changed';

export interface SyncPlan {
  source: MountTarget;
  target: MountTarget;
  folders: MountTarget[];
  copy: { from: MountTarget; to: MountTarget; size: number; why: SyncWhy }[];
  delete: MountTarget[];
}

const md5Of = (etag: string | null) => (etag && /^[0-9a-f]{32}$/i.test(etag) ? etag.toLowerCase() : undefined);

/**
 * Whether the target's copy of a file is out of date: another size; the same MD5 means the same bytes; otherwise a
 * source modified after the target was written.
 */
function changed(source: ListedObject, target: ListedObject): boolean {
  if (source.size !== target.size) return true;
  const [from, to] = [md5Of(source.etag), md5Of(target.etag)];
  if (from && to && from === to) return false;
  return (source.modified?.getTime() ?? 0) > (target.modified?.getTime() ?? 0);
}

/**
 * A sync's plan: what the target lacks (`new`) or has out of date (`changed`), and with `mirror` what the target
 * has that the source lacks. Exported for sync schedules' dry runs.
 */
export async function planSync(deps: AppDeps, caller: FsCaller, sourcePath: FsPath, targetPath: FsPath, mode: SyncMode): Promise<SyncPlan> {
  if (isWithin(targetPath, sourcePath) || isWithin(sourcePath, targetPath)) {
    throw new ApiError(400, 'fs_into_itself', {}, { field: 'target', issue: 'into_itself' });
  }
  const source = await resolveInMount(deps, caller, sourcePath);
  const target = await resolveInMount(deps, caller, targetPath);
  if ((await kindAt(source)) !== 'folder') throw new ApiError(400, 'fs_not_a_folder', { path: sourcePath.text });
  const targetKind = await kindAt(target);
  if (targetKind === 'file') throw new ApiError(400, 'fs_not_a_folder', { path: targetPath.text });
  const [from, to] = await Promise.all([treeOf(source), targetKind === 'folder' ? treeOf(target) : undefined]);
  const key = (below: string[]) => below.join('/');
  const present = new Map((to?.objects ?? []).map(({ below, object }) => [key(below), object]));
  const folders = new Set((to?.folders ?? []).map(key));
  const plan: SyncPlan = { source, target, folders: [], copy: [], delete: [] };
  if (targetKind === 'none') plan.folders.push(target);
  for (const below of from.folders) if (!folders.has(key(below))) plan.folders.push(under(target, below));
  for (const { below, object } of from.objects) {
    const there = present.get(key(below));
    const why = !there ? 'new' : changed(object, there) ? 'changed' : undefined;
    if (why) plan.copy.push({ from: withInner(source, [...source.inner, ...below]), to: under(target, below), size: object.size, why });
  }
  if (mode === 'mirror') {
    const kept = new Set(from.objects.map(({ below }) => key(below)));
    for (const { below } of to?.objects ?? []) if (!kept.has(key(below))) plan.delete.push(under(target, below));
  }
  return plan;
}

/** A sync plan as its job's items, within the target's limits. */
export async function syncItems(deps: AppDeps, plan: SyncPlan): Promise<JobPlan> {
  const budget = new TargetBudget();
  const items: NewJobItem[] = [];
  for (const folder of plan.folders) items.push({ seq: items.length, kind: 'folder', source_path: null, target_path: folder.path.text, size: 0, status: 'pending', placed: 1 });
  for (const { from, to, size } of plan.copy) {
    items.push({ seq: items.length, kind: 'file', source_path: from.path.text, target_path: to.path.text, size, status: 'pending', placed: 1 });
    budget.add(to, size);
  }
  for (const gone of plan.delete) items.push({ seq: items.length, kind: 'delete', source_path: null, target_path: gone.path.text, size: 0, status: 'pending', placed: 1 });
  await budget.check(deps);
  return { items, bytes: plan.copy.reduce((sum, { size }) => sum + size, 0) };
}

/** Entries a dry run lists at most of each kind (the counts tell the rest). */
const DRY_RUN_LISTED = 1000;

export const dryRunOf = (plan: SyncPlan): SyncDryRun => ({
  copy: plan.copy.slice(0, DRY_RUN_LISTED).map(({ from, size, why }) => ({ path: from.path.text, size, why })),
  delete: plan.delete.slice(0, DRY_RUN_LISTED).map((gone) => ({ path: gone.path.text })),
  copyCount: plan.copy.length,
  deleteCount: plan.delete.length,
  bytes: plan.copy.reduce((sum, { size }) => sum + size, 0),
});
