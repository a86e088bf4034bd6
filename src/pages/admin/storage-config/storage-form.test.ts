import { describe, expect, it } from 'vitest';
import type { StorageConfig } from '../../../../contract/storage';
import { changesOf, createBodyOf, initialValues, problemOf, type StorageFormValues } from './storage-form';

const filled = (changes: Partial<StorageFormValues>): StorageFormValues => ({ ...initialValues(), name: 'NAS', ...changes });

const stored: StorageConfig = {
  ...({} as StorageConfig),
  id: 'c1',
  name: 'Box',
  storage_type: 'SFTP',
  provider_type: 'SFTP',
  endpoint_url: null,
  host: 'sftp.example.com',
  port: 2222,
  username: 'me',
  password: '********',
  private_key: '********',
  passphrase: null,
  host_key_sha256: null,
  tls: null,
  passive: null,
  allow_private_host: false,
  path_style: false,
  default_folder: 'clips',
  total_storage_bytes: null,
  is_public: false,
  is_default: false,
};

describe('the storage form', () => {
  it('asks for what each kind needs, in order', () => {
    expect(problemOf('WEBDAV', filled({ endpoint_url: 'ftp://x' }), false)).toBe('endpoint');
    expect(problemOf('WEBDAV', filled({ endpoint_url: 'https://dav.example.com/dav', username: 'u' }), false)).toBe('password');
    expect(problemOf('SFTP', filled({}), false)).toBe('host');
    expect(problemOf('SFTP', filled({ host: 'h', port: '70000' }), false)).toBe('port');
    expect(problemOf('SFTP', filled({ host: 'h', username: 'u' }), false)).toBe('password_or_key');
    expect(problemOf('SFTP', filled({ host: 'h', username: 'u', private_key: 'KEY', host_key_sha256: 'MD5:aa' }), false)).toBe('host_key');
    expect(problemOf('SFTP', filled({ host: 'h', username: 'u', private_key: 'KEY', host_key_sha256: `SHA256:${'A'.repeat(43)}` }), false)).toBeUndefined();
    expect(problemOf('FTP', filled({ host: 'h', username: 'u' }), false)).toBe('password');
    expect(problemOf('FTP', filled({ host: 'h', username: 'u', password: 'p' }), false)).toBeUndefined();
    expect(problemOf('FTP', filled({ name: ' ' }), false)).toBe('name');
  });

  it('never fills a secret in when editing, and an edit with blank secrets keeps them (sends none)', () => {
    const values = initialValues(stored);
    expect([values.password, values.private_key, values.passphrase]).toEqual(['', '', '']);
    expect(values.port).toBe('2222');
    expect(problemOf('SFTP', values, true)).toBeUndefined();
    const changes = changesOf('SFTP', values);
    expect(changes).not.toHaveProperty('password');
    expect(changes).not.toHaveProperty('private_key');
    expect(changes).toMatchObject({ host: 'sftp.example.com', port: 2222, username: 'me', host_key_sha256: '' });
    expect(changesOf('SFTP', { ...values, password: 'new' })).toHaveProperty('password', 'new');
  });

  it('sends each kind its own fields, with default ports', () => {
    expect(createBodyOf('FTP', filled({ host: ' ftp.example.com ', username: 'u', password: 'p', tls: 'implicit' }))).toEqual({
      storage_type: 'FTP',
      name: 'NAS',
      default_folder: '',
      total_storage_bytes: null,
      is_public: false,
      is_default: false,
      host: 'ftp.example.com',
      port: 21,
      username: 'u',
      password: 'p',
      tls: 'implicit',
      allow_private_host: false,
    });
    expect(createBodyOf('SFTP', filled({ host: 'h', username: 'u', password: 'p' }))).toMatchObject({ port: 22, password: 'p' });
    expect(createBodyOf('WEBDAV', filled({ endpoint_url: 'https://d.example/dav', username: 'u', password: 'p', allow_private_host: true }))).toMatchObject({
      storage_type: 'WEBDAV',
      endpoint_url: 'https://d.example/dav',
      allow_private_host: true,
    });
    expect(createBodyOf('LOCAL', filled({ password: 'ignored' }))).not.toHaveProperty('password');
  });
});
