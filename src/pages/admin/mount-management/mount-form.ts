import { MOUNT_NAME_MAX, MOUNT_NAME_MIN, mountPathProblem, type CreateMountRequest } from '../../../../contract/mounts';

export interface MountFormValues {
  name: string;
  storageConfigId: string;
  mountPath: string;
  remark: string;
  sortOrder: string;
  cacheTtl: string;
  isActive: boolean;
}

export type MountFormErrors = Partial<
  Record<'name' | 'storageConfigId' | 'mountPath' | 'sortOrder' | 'cacheTtl', 'required' | 'length' | 'invalid' | 'reserved'>
>;

const isNonNegativeInteger = (text: string) => /^\d+$/.test(text.trim()) && Number(text) <= 1_000_000_000;

/** The mount form's checks, shown per field before anything is sent. */
export function validateMountForm(values: MountFormValues): MountFormErrors {
  const errors: MountFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'required';
  else if (name.length < MOUNT_NAME_MIN || name.length > MOUNT_NAME_MAX) errors.name = 'length';
  if (!values.storageConfigId) errors.storageConfigId = 'required';
  const path = values.mountPath.trim();
  if (!path) errors.mountPath = 'required';
  else {
    const problem = mountPathProblem(path);
    if (problem === 'reserved_path') errors.mountPath = 'reserved';
    else if (problem) errors.mountPath = 'invalid';
  }
  if (!isNonNegativeInteger(values.sortOrder)) errors.sortOrder = 'invalid';
  if (!isNonNegativeInteger(values.cacheTtl)) errors.cacheTtl = 'invalid';
  return errors;
}

/** The request body of valid values; the storage type follows the chosen config. */
export function mountRequestOf(values: MountFormValues, storageType: CreateMountRequest['storage_type']): CreateMountRequest {
  return {
    name: values.name.trim(),
    storage_type: storageType,
    storage_config_id: values.storageConfigId,
    mount_path: values.mountPath.trim(),
    remark: values.remark.trim() || null,
    sort_order: Number(values.sortOrder),
    cache_ttl: Number(values.cacheTtl),
    is_active: values.isActive,
  };
}
