import * as v from 'valibot';
import { mountListSchema, mountSchema } from '../../../contract/mounts';
import { storageConfigListSchema, storageConfigSchema, storageTestResultSchema } from '../../../contract/storage';
import type { RouteDocs } from './types';

export const mountDocs: RouteDocs = {
  'GET /api/admin/mounts': { tag: 'Mounts', summary: 'List mounts', data: mountListSchema },
  'POST /api/admin/mounts': { tag: 'Mounts', summary: 'Create a mount', data: mountSchema, ok: [201], errors: [404, 409] },
  'GET /api/admin/mounts/:id': { tag: 'Mounts', summary: 'Read a mount', data: mountSchema, errors: [404] },
  'PUT /api/admin/mounts/:id': {
    tag: 'Mounts',
    summary: 'Change a mount',
    description: 'Every field optional: `{ "is_active": false }` deactivates it.',
    data: mountSchema,
    errors: [404, 409],
  },
  'DELETE /api/admin/mounts/:id': { tag: 'Mounts', summary: 'Delete a mount (not its files)', data: v.null(), errors: [404] },
  'GET /api/user/mounts': { tag: 'Mounts', summary: 'The active mounts your base path reaches', data: mountListSchema },
  'GET /api/user/mounts/:id': { tag: 'Mounts', summary: 'Read a mount you can reach', data: mountSchema, errors: [404] },
};

export const storageDocs: RouteDocs = {
  'GET /api/s3-configs': {
    tag: 'Storage',
    summary: 'List storage configurations',
    description: 'API keys see the public ones only. Secrets are never answered.',
    data: storageConfigListSchema,
  },
  'GET /api/s3-configs/:id': { tag: 'Storage', summary: 'Read a storage configuration', data: storageConfigSchema, errors: [404] },
  'POST /api/s3-configs': {
    tag: 'Storage',
    summary: 'Create a storage configuration',
    description:
      '`storage_type` LOCAL, S3, WEBDAV (`endpoint_url`, `username`, `password`), SFTP (`host`, `port` 22, `username`, ' +
      '`password` and/or `private_key` with `passphrase`, `host_key_sha256` as `ssh-keygen -l` prints it) or FTP (`host`, ' +
      '`port` 21, `username`, `password`, `tls` none/explicit/implicit, `passive`). Secrets are sealed at rest and never ' +
      'answered. A host resolving to a loopback or private address is refused (400) unless the server allows private ' +
      'URLs or `allow_private_host` is true.',
    data: storageConfigSchema,
    ok: [201],
  },
  'PUT /api/s3-configs/:id': {
    tag: 'Storage',
    summary: 'Change a storage configuration',
    description: 'An absent or empty secret keeps the stored one.',
    data: storageConfigSchema,
    errors: [404, 409],
  },
  'DELETE /api/s3-configs/:id': {
    tag: 'Storage',
    summary: 'Delete a storage configuration',
    description: 'Refused (409) while files or mounts use it, or when it is the default or the built-in one.',
    data: v.null(),
    errors: [404, 409],
  },
  'PUT /api/s3-configs/:id/set-default': { tag: 'Storage', summary: 'Make it the default', data: storageConfigSchema, errors: [404] },
  'POST /api/s3-configs/:id/test': {
    tag: 'Storage',
    summary: 'Test read, write, CORS and a presigned PUT',
    description: '`steps` says in words how each step went: connect, list, write, read back, delete.',
    data: storageTestResultSchema,
    errors: [404],
  },
};
