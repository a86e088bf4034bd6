import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CreatedApiKey } from '../../../contract/api-keys';
import {
  SECRET_MASK,
  storageConfigListSchema,
  storageConfigSchema,
  storageTestResultSchema,
  type StorageConfig,
} from '../../../contract/storage';
import { fileClient, patternBytes } from '../../../tests/fixtures/files';
import { startS3rver, type RunningS3rver } from '../../../tests/fixtures/s3rver';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { ensureDefaultStorage } from './configs';

// Real S3 traffic and several scrypt hashes per test: room for two shared cores under load.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('storage configs (/api/s3-configs)', () => {
  const t = useTestApp();
  let fileKey: CreatedApiKey;
  let textKey: CreatedApiKey;
  let s3: RunningS3rver;
  let noCors: RunningS3rver;
  const s3Body = (extra: Record<string, unknown> = {}) => ({
    storage_type: 'S3',
    name: 'Backup bucket',
    provider_type: 'Cloudflare R2',
    endpoint_url: 'https://account.r2.cloudflarestorage.com/',
    bucket_name: 'my-bucket',
    access_key_id: 'AKIAEXAMPLE',
    secret_access_key: SECRET,
    ...extra,
  });
  const create = async (body: Record<string, unknown>) =>
    expectOk(await t.request('/api/s3-configs', { token: t.token, json: body }), storageConfigSchema, 201);
  const list = async (auth: { token?: string; apiKey?: string }) => expectOk(await t.request('/api/s3-configs', auth), storageConfigListSchema);

  beforeAll(async () => {
    fileKey = await t.createKey(t.token, { file_permission: true });
    textKey = await t.createKey(t.token, { text_permission: true });
    [s3, noCors] = await Promise.all([startS3rver(), startS3rver({ corsXml: null })]);
  });
  afterAll(async () => {
    await Promise.all([s3.stop(), noCors.stop()]);
  });

  it('starts with the built-in LOCAL config: default, public, empty', async () => {
    const [local] = await list({ token: t.token });
    expect(local).toEqual({
      id: expect.any(String),
      name: 'Local storage',
      storage_type: 'LOCAL',
      provider_type: 'Local',
      endpoint_url: null,
      region: null,
      bucket_name: null,
      access_key_id: null,
      secret_access_key: null,
      path_style: false,
      host: null,
      port: null,
      username: null,
      password: null,
      private_key: null,
      passphrase: null,
      host_key_sha256: null,
      tls: null,
      passive: null,
      allow_private_host: false,
      default_folder: '',
      total_storage_bytes: null,
      is_public: true,
      is_default: true,
      used_storage_bytes: 0,
      file_count: 0,
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
      last_used: null,
    });
  });

  it('creates an S3 config, masks the secret in every answer and stores it encrypted', async () => {
    const res = await t.request('/api/s3-configs', { token: t.token, json: s3Body({ default_folder: '/shares/2030/', total_storage_bytes: 1_000_000 }) });
    const text = await res.clone().text();
    expect(text).not.toContain(SECRET);
    const created = await expectOk(res, storageConfigSchema, 201);
    expect(created).toMatchObject({
      storage_type: 'S3',
      provider_type: 'Cloudflare R2',
      endpoint_url: 'https://account.r2.cloudflarestorage.com',
      region: 'us-east-1',
      bucket_name: 'my-bucket',
      access_key_id: 'AKIAEXAMPLE',
      secret_access_key: SECRET_MASK,
      path_style: true,
      default_folder: 'shares/2030',
      total_storage_bytes: 1_000_000,
      is_public: false,
      is_default: false,
    });
    const row = await t.db.selectFrom('storage_configs').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret_access_key_encrypted).not.toContain(SECRET);
    expect(t.deps.secrets.open(row.secret_access_key_encrypted ?? '')).toBe(SECRET);
    for (const path of ['/api/s3-configs', `/api/s3-configs/${created.id}`]) {
      expect(await (await t.request(path, { token: t.token })).text()).not.toContain(SECRET);
    }
  });

  it('keeps the stored secret when an update leaves it out, empty or masked; replaces it when given', async () => {
    const created = await create(s3Body({ name: 'secret keeper' }));
    const secretOf = async () =>
      t.deps.secrets.open(
        (await t.db.selectFrom('storage_configs').select('secret_access_key_encrypted').where('id', '=', created.id).executeTakeFirstOrThrow())
          .secret_access_key_encrypted ?? '',
      );
    for (const body of [{ name: 'renamed' }, { secret_access_key: '' }, { secret_access_key: SECRET_MASK }]) {
      const updated = await expectOk(await t.request(`/api/s3-configs/${created.id}`, { token: t.token, method: 'PUT', json: body }), storageConfigSchema);
      expect(updated.secret_access_key).toBe(SECRET_MASK);
      expect(await secretOf()).toBe(SECRET);
    }
    await expectOk(await t.request(`/api/s3-configs/${created.id}`, { token: t.token, method: 'PUT', json: { secret_access_key: 'new-secret' } }), storageConfigSchema);
    expect(await secretOf()).toBe('new-secret');
  });

  it('validates with the contract and names the field (400)', async () => {
    for (const [body, field] of [
      [s3Body({ bucket_name: 'Not_A_Bucket' }), 'bucket_name'],
      [s3Body({ endpoint_url: 'ftp://example.com' }), 'endpoint_url'],
      [s3Body({ secret_access_key: '' }), 'secret_access_key'],
      [s3Body({ default_folder: 'a/../b' }), 'default_folder'],
      [s3Body({ total_storage_bytes: -1 }), 'total_storage_bytes'],
      [{ storage_type: 'GOPHER', name: 'x' }, 'storage_type'],
      [{ storage_type: 'LOCAL', name: '' }, 'name'],
    ] as const) {
      const body400 = await expectError(await t.request('/api/s3-configs', { token: t.token, json: body }), 400);
      expect(body400.data.field).toBe(field);
    }
  });

  it('lets file keys read public configs only, without access key ids; writes are for admins', async () => {
    const hidden = await create(s3Body({ name: 'private one' }));
    const shown = await create(s3Body({ name: 'public one', is_public: true }));
    const seen = await list({ apiKey: fileKey.key });
    expect(seen.map((config) => config.name)).toContain('public one');
    expect(seen.map((config) => config.name)).not.toContain('private one');
    expect(seen.every((config) => config.access_key_id === null)).toBe(true);
    expect((await expectOk(await t.request(`/api/s3-configs/${shown.id}`, { apiKey: fileKey.key }), storageConfigSchema)).name).toBe('public one');
    await expectError(await t.request(`/api/s3-configs/${hidden.id}`, { apiKey: fileKey.key }), 404);

    await expectError(await t.request('/api/s3-configs', { apiKey: textKey.key }), 403);
    await expectError(await t.request('/api/s3-configs'), 401);
    for (const [method, path, json] of [
      ['POST', '/api/s3-configs', { storage_type: 'LOCAL', name: 'mine' }],
      ['PUT', `/api/s3-configs/${shown.id}`, { name: 'taken over' }],
      ['DELETE', `/api/s3-configs/${shown.id}`, undefined],
      ['PUT', `/api/s3-configs/${shown.id}/set-default`, undefined],
      ['POST', `/api/s3-configs/${shown.id}/test`, undefined],
    ] as const) {
      const denied = await expectError(await t.request(path, { apiKey: fileKey.key, method, json }), 403);
      expect(denied.message).toBe('Only an administrator can do this');
    }
  });

  it('keeps exactly one default: set-default and is_default move it; unsetting it is refused', async () => {
    const a = await create(s3Body({ name: 'A' }));
    const b = await create({ storage_type: 'LOCAL', name: 'B', is_default: true });
    const defaults = async () => (await list({ token: t.token })).filter((config) => config.is_default).map((config) => config.id);
    expect(await defaults()).toEqual([b.id]);
    expect((await expectOk(await t.request(`/api/s3-configs/${a.id}/set-default`, { token: t.token, method: 'PUT' }), storageConfigSchema)).is_default).toBe(true);
    expect(await defaults()).toEqual([a.id]);
    await expectOk(await t.request(`/api/s3-configs/${b.id}`, { token: t.token, method: 'PUT', json: { is_default: true } }), storageConfigSchema);
    expect(await defaults()).toEqual([b.id]);
    await expectError(await t.request(`/api/s3-configs/${b.id}`, { token: t.token, method: 'PUT', json: { is_default: false } }), 409);
    // Back to the built-in one for the tests that follow.
    const local = (await list({ token: t.token })).find((config) => config.name === 'Local storage');
    await t.request(`/api/s3-configs/${local?.id}/set-default`, { token: t.token, method: 'PUT' });
    await expectError(await t.request('/api/s3-configs/nope/set-default', { token: t.token, method: 'PUT' }), 404);
  });

  it('ignores S3 fields on a LOCAL config', async () => {
    const local = await create({ storage_type: 'LOCAL', name: 'disk' });
    const updated = await expectOk(
      await t.request(`/api/s3-configs/${local.id}`, { token: t.token, method: 'PUT', json: { bucket_name: 'abc', secret_access_key: 'x', name: 'disk 2' } }),
      storageConfigSchema,
    );
    expect(updated).toMatchObject({ name: 'disk 2', bucket_name: null, secret_access_key: null });
  });

  it('refuses to delete a config with files, the default, the built-in one, or one behind a mount (409); deletes otherwise', async () => {
    const f = fileClient(t);
    const withFiles = await create({ storage_type: 'LOCAL', name: 'busy', is_public: true });
    await f.uploadOk(patternBytes(10), { token: t.token }, { fields: { s3_config_id: withFiles.id } });
    const busy = await expectError(await t.request(`/api/s3-configs/${withFiles.id}`, { token: t.token, method: 'DELETE' }), 409);
    expect(busy.message).toBe('Files are stored with this configuration (1); delete them first');
    const listed = (await list({ token: t.token })).find((config) => config.id === withFiles.id);
    expect(listed).toMatchObject({ used_storage_bytes: 10, file_count: 1 });
    expect(listed?.last_used).toBe(t.clock.now().toISOString());

    const builtin = (await list({ token: t.token })).find((config) => config.name === 'Local storage') as StorageConfig;
    expect((await expectError(await t.request(`/api/s3-configs/${builtin.id}`, { token: t.token, method: 'DELETE' }), 409)).message).toBe(
      'The built-in local storage cannot be deleted',
    );
    const def = await create({ storage_type: 'LOCAL', name: 'default one', is_default: true });
    expect((await expectError(await t.request(`/api/s3-configs/${def.id}`, { token: t.token, method: 'DELETE' }), 409)).message).toMatch(/default/);
    await t.request(`/api/s3-configs/${builtin.id}/set-default`, { token: t.token, method: 'PUT' });

    const mounted = await create({ storage_type: 'LOCAL', name: 'mounted' });
    const at = t.clock.now().toISOString();
    await t.db
      .insertInto('mounts')
      .values({ id: 'm1', name: 'M', mount_path: '/m', storage_type: 'LOCAL', storage_config_id: mounted.id, remark: null, sort_order: 0, cache_ttl: 300, is_active: 1, created_by: 'admin', created_at: at, updated_at: at })
      .execute();
    await expectError(await t.request(`/api/s3-configs/${mounted.id}`, { token: t.token, method: 'DELETE' }), 409);

    const idle = await create(s3Body({ name: 'idle' }));
    expect((await t.request(`/api/s3-configs/${idle.id}`, { token: t.token, method: 'DELETE' })).status).toBe(200);
    await expectError(await t.request(`/api/s3-configs/${idle.id}`, { token: t.token }), 404);
    await expectError(await t.request(`/api/s3-configs/${idle.id}`, { token: t.token, method: 'DELETE' }), 404);
  });

  describe('POST /:id/test', () => {
    const run = async (id: string, lang?: string) =>
      expectOk(
        await t.request(`/api/s3-configs/${id}/test`, { token: t.token, method: 'POST', headers: lang ? { 'accept-language': lang } : {} }),
        storageTestResultSchema,
      );

    it('passes every check on LOCAL storage', async () => {
      const builtin = (await list({ token: t.token })).find((config) => config.name === 'Local storage') as StorageConfig;
      const result = await run(builtin.id);
      expect(result.ok).toBe(true);
      expect(result.checks.cors.message).toBe('Served by this server, which allows any origin and exposes ETag');
    });

    it('passes every check on an S3 bucket with the right CORS rule, and leaves no probe behind', async () => {
      const config = await create(s3.configRequest({ default_folder: 'probe-test' }));
      const result = await run(config.id);
      expect(result).toEqual({
        ok: true,
        checks: {
          read: { ok: true, message: 'The storage can be listed' },
          write: { ok: true, message: 'A test object was written, read back and deleted' },
          cors: { ok: true, message: 'CORS allows uploads from http://localhost and exposes ETag' },
          presignedPut: { ok: true, message: 'An upload through a presigned URL worked' },
        },
        steps: [
          { step: 'connect', ok: true, message: 'Connected and signed in' },
          { step: 'list', ok: true, message: 'The base folder can be listed' },
          { step: 'write', ok: true, message: 'A test file was written' },
          { step: 'read', ok: true, message: 'The test file was read back unchanged' },
          { step: 'delete', ok: true, message: 'The test file was deleted' },
        ],
      });
      const { ListObjectsV2Command, S3Client } = await import('@aws-sdk/client-s3');
      const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
      const left = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'probe-test/' }));
      expect(left.KeyCount ?? 0).toBe(0);
    });

    it('reports CORS on its own when the bucket has no CORS rule', async () => {
      const config = await create(noCors.configRequest());
      const result = await run(config.id);
      expect(result.ok).toBe(false);
      expect(result.checks).toMatchObject({ read: { ok: true }, write: { ok: true }, presignedPut: { ok: true }, cors: { ok: false } });
      expect(result.checks.cors.message).toMatch(/^CORS does not allow PUT from http:\/\/localhost/);
    });

    it('reports wrong credentials on every check, with the reason, in the caller’s language', async () => {
      // s3rver checks the access key id (V4 signatures it takes on trust).
      const config = await create(s3.configRequest({ access_key_id: 'NOT-S3RVER' }));
      const result = await run(config.id, 'zh-CN');
      expect(result.ok).toBe(false);
      expect(result.checks.read.ok).toBe(false);
      expect(result.checks.read.message).toBe('无法列出存储内容：存储拒绝了凭据（访问密钥、用户名、密码或私钥）');
      expect(result.checks.write.ok).toBe(false);
      expect(result.checks.presignedPut.ok).toBe(false);
      expect(result.checks.presignedPut.message).toMatch(/HTTP 403 \(InvalidAccessKeyId\)$/);
    });

    it('reports an unreachable endpoint instead of failing the request', async () => {
      const config = await create(s3.configRequest({ endpoint_url: 'http://127.0.0.1:9' }));
      const result = await run(config.id);
      expect(result.ok).toBe(false);
      expect(Object.values(result.checks).every((check) => !check.ok)).toBe(true);
      expect(result.checks.read.message).toBe('The storage cannot be listed: no connection could be made');
      expect(result.steps.map((step) => step.message)).toEqual([
        'Could not connect or sign in: no connection could be made',
        ...Array.from({ length: 4 }, () => 'Not tried: an earlier step failed'),
      ]);
    });
  });
});

describe('ensureDefaultStorage', () => {
  const t = useTestApp({ login: false });

  it('is idempotent: one built-in LOCAL config and one /local mount on it, however often it runs', async () => {
    await ensureDefaultStorage(t.db, t.clock.now());
    await ensureDefaultStorage(t.db, t.clock.now());
    const configs = await t.db.selectFrom('storage_configs').selectAll().execute();
    const mounts = await t.db.selectFrom('mounts').selectAll().execute();
    expect(configs).toHaveLength(1);
    expect(configs[0]).toMatchObject({ storage_type: 'LOCAL', is_default: 1, is_public: 1, created_by: 'system' });
    expect(mounts).toHaveLength(1);
    expect(mounts[0]).toMatchObject({ mount_path: '/local', storage_config_id: configs[0]?.id, storage_type: 'LOCAL', is_active: 1 });
  });

  it('never takes the default from a config the admin chose, and restores one when none is left', async () => {
    const token = await t.login();
    const chosen = await expectOk(
      await t.request('/api/s3-configs', { token, json: { storage_type: 'LOCAL', name: 'chosen', is_default: true } }),
      storageConfigSchema,
      201,
    );
    await ensureDefaultStorage(t.db, t.clock.now());
    const defaults = await t.db.selectFrom('storage_configs').select('id').where('is_default', '=', 1).execute();
    expect(defaults).toEqual([{ id: chosen.id }]);

    await t.db.updateTable('storage_configs').set({ is_default: 0 }).execute();
    const builtin = await ensureDefaultStorage(t.db, t.clock.now());
    expect(builtin.is_default).toBe(1);
    expect(builtin.created_by).toBe('system');
  });
});
