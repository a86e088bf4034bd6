import { describe, expect, it } from 'vitest';
import { syncBodyOf, syncValuesOf, validateSyncForm } from './sync-form';

const valid = { ...syncValuesOf(), source: '/local/photos', target: '/s3/backup' };

describe('sync schedule form', () => {
  it('accepts two separate mount paths and a five-field cron, and sends them trimmed', () => {
    expect(validateSyncForm(valid)).toEqual({});
    expect(syncBodyOf({ ...valid, cron: ' 0  3 * * * ', source: ' /local/photos ' })).toEqual({
      source: '/local/photos',
      target: '/s3/backup',
      cron: '0 3 * * *',
      mode: 'copy-new-and-changed',
      enabled: true,
      confirmMirror: false,
    });
  });

  it('refuses empty, relative and climbing paths, and a target inside the source or around it', () => {
    expect(validateSyncForm({ ...valid, source: '', target: 'local/x' })).toEqual({ source: 'required', target: 'invalid' });
    expect(validateSyncForm({ ...valid, target: '/local/a\u0000b' }).target).toBe('invalid');
    expect(validateSyncForm({ ...valid, target: '/local/x/../photos/copy' }).target).toBe('overlap');
    expect(validateSyncForm({ ...valid, target: '/local/photos/copy' }).target).toBe('overlap');
    expect(validateSyncForm({ ...valid, target: '/local' }).target).toBe('overlap');
    expect(validateSyncForm({ ...valid, target: '/local/photos2' })).toEqual({});
  });

  it('needs a cron of five (or six) fields, and a confirmed mirror', () => {
    expect(validateSyncForm({ ...valid, cron: '' }).cron).toBe('required');
    expect(validateSyncForm({ ...valid, cron: 'every night' }).cron).toBe('invalid');
    expect(validateSyncForm({ ...valid, mode: 'mirror' }).confirmMirror).toBe('required');
    expect(validateSyncForm({ ...valid, mode: 'mirror', confirmMirror: true })).toEqual({});
    expect(syncBodyOf({ ...valid, mode: 'copy-new-and-changed', confirmMirror: true }).confirmMirror).toBe(false);
  });
});
