import type { AppDeps } from '../../context';
import { ApiError } from '../../errors';
import type { StorageConfigRow } from '../../storage/registry';
import { readSettings } from '../settings/settings';
import { reservedBytes } from './configs';

/** `1.5 MB`: sizes in messages (the numbers themselves travel in `data`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : Number(value.toFixed(2))} ${units[unit]}`;
}

export interface UploadLimits {
  /** The system setting `max_upload_size` (MB) in bytes. */
  maxUploadBytes: number;
  /** The config's quota; undefined when it has none. */
  quota?: { total: number; used: number };
}

export async function uploadLimits(deps: AppDeps, config: StorageConfigRow): Promise<UploadLimits> {
  const { max_upload_size } = await readSettings(deps.db);
  const maxUploadBytes = Math.floor(max_upload_size * 1024 * 1024);
  if (config.total_storage_bytes === null) return { maxUploadBytes };
  return { maxUploadBytes, quota: { total: config.total_storage_bytes, used: await reservedBytes(deps.db, config.id) } };
}

/** The most bytes one upload may bring: the smaller of the max upload size and what the quota has left. */
export const byteBudget = (limits: UploadLimits) =>
  Math.min(limits.maxUploadBytes, limits.quota ? Math.max(0, limits.quota.total - limits.quota.used) : Infinity);

/** 413 with the figures the client shows: max size first, then the quota. */
export function assertFits(fileSize: number, limits: UploadLimits): void {
  if (fileSize > limits.maxUploadBytes) {
    throw new ApiError(
      413,
      'file_too_large',
      { fileSize: formatBytes(fileSize), maxUploadSize: formatBytes(limits.maxUploadBytes) },
      { fileSize, maxUploadSize: limits.maxUploadBytes },
    );
  }
  if (limits.quota) {
    const remaining = Math.max(0, limits.quota.total - limits.quota.used);
    if (fileSize > remaining) {
      throw new ApiError(
        413,
        'quota_exceeded',
        { fileSize: formatBytes(fileSize), remaining: formatBytes(remaining), total: formatBytes(limits.quota.total) },
        { fileSize, remaining, total: limits.quota.total },
      );
    }
  }
}
