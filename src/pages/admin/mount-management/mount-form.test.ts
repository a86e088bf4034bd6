import { describe, expect, it } from 'vitest';
import { mountRequestOf, validateMountForm, type MountFormValues } from './mount-form';

const valid: MountFormValues = { name: 'Photos', storageConfigId: 'c1', mountPath: '/photos', remark: '', sortOrder: '0', cacheTtl: '300', isActive: true };

describe('the mount form checks', () => {
  it('accepts a valid form and builds the request with the config’s storage type', () => {
    expect(validateMountForm(valid)).toEqual({});
    expect(mountRequestOf({ ...valid, remark: '  ', name: ' Photos ' }, 'S3')).toEqual({
      name: 'Photos',
      storage_type: 'S3',
      storage_config_id: 'c1',
      mount_path: '/photos',
      remark: null,
      sort_order: 0,
      cache_ttl: 300,
      is_active: true,
    });
  });

  it.each<[Partial<MountFormValues>, object]>([
    [{ name: '' }, { name: 'required' }],
    [{ name: 'x' }, { name: 'length' }],
    [{ name: 'x'.repeat(51) }, { name: 'length' }],
    [{ storageConfigId: '' }, { storageConfigId: 'required' }],
    [{ mountPath: '' }, { mountPath: 'required' }],
    [{ mountPath: 'photos' }, { mountPath: 'invalid' }],
    [{ mountPath: '/photos/' }, { mountPath: 'invalid' }],
    [{ mountPath: '/a//b' }, { mountPath: 'invalid' }],
    [{ mountPath: '/api/x' }, { mountPath: 'reserved' }],
    [{ sortOrder: '-1' }, { sortOrder: 'invalid' }],
    [{ sortOrder: '1.5' }, { sortOrder: 'invalid' }],
    [{ cacheTtl: '' }, { cacheTtl: 'invalid' }],
    [{ cacheTtl: 'abc' }, { cacheTtl: 'invalid' }],
  ])('refuses %j', (change, errors) => {
    expect(validateMountForm({ ...valid, ...change })).toEqual(errors);
  });
});
