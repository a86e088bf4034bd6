import { beforeAll, describe, expect, it } from 'vitest';
import { mountListSchema, mountSchema } from '../../../contract/mounts';
import { storageConfigSchema } from '../../../contract/storage';
import { fileClient } from '../../../tests/fixtures/files';
import { createMount, fsClient } from '../../../tests/fixtures/fs';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

describe('mount management', () => {
  const t = useTestApp();
  let localId: string;

  beforeAll(async () => {
    localId = (await fileClient(t).builtinLocal(t.token)).id;
  });

  it('has the /local mount of a fresh install, browsable and writable at once', async () => {
    const mounts = await expectOk(await t.request('/api/admin/mounts', { token: t.token }), mountListSchema);
    expect(mounts).toEqual([
      expect.objectContaining({ name: 'Local', mount_path: '/local', storage_type: 'LOCAL', storage_config_id: localId, is_active: true, cache_ttl: 300, created_by: 'system' }),
    ]);
    const fs = fsClient(t, { token: t.token });
    expect((await fs.upload('/local/fresh', 'hello.txt', Buffer.from('hi'))).status).toBe(201);
    expect(await fs.names('/local/fresh')).toEqual(['hello.txt']);
  });

  it('creates, reads, updates, switches and deletes a mount; lists by sort order then name', async () => {
    const created = await createMount(t, t.token, { name: 'Photos', storage_config_id: localId, mount_path: '/media/photos', remark: 'family', sort_order: 2, cache_ttl: 0 });
    expect(created).toMatchObject({ name: 'Photos', mount_path: '/media/photos', remark: 'family', sort_order: 2, cache_ttl: 0, is_active: true, created_by: 'admin' });
    expect(created.storage_config_name).toBe('Local storage');
    await createMount(t, t.token, { name: 'Archive', storage_config_id: localId, mount_path: '/archive', sort_order: 2 });
    const order = (await expectOk(await t.request('/api/admin/mounts', { token: t.token }), mountListSchema)).map((mount) => mount.name);
    expect(order).toEqual(['Local', 'Archive', 'Photos']);

    const updated = await expectOk(
      await t.request(`/api/admin/mounts/${created.id}`, { token: t.token, method: 'PUT', json: { name: 'Pictures', mount_path: '/media/pictures', is_active: false } }),
      mountSchema,
    );
    expect(updated).toMatchObject({ name: 'Pictures', mount_path: '/media/pictures', is_active: false, remark: 'family' });
    expect(updated.updated_at >= created.updated_at).toBe(true);
    // A switched-off mount is not browsable.
    expect((await fsClient(t, { token: t.token }).listOk('/')).items.map((item) => item.name)).not.toContain('media');
    await expectError(await fsClient(t, { token: t.token }).list('/media/pictures'), 404);

    const gone = await t.request(`/api/admin/mounts/${created.id}`, { token: t.token, method: 'DELETE' });
    expect((await gone.json()).message).toBe('Mount point deleted');
    await expectError(await t.request(`/api/admin/mounts/${created.id}`, { token: t.token }), 404);
    await expectError(await t.request(`/api/admin/mounts/${created.id}`, { token: t.token, method: 'DELETE' }), 404);
  });

  it('names the field of every invalid value, refuses a taken path (409) and a config of another type', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ mount_path: 'no-slash' }, 'mount_path'],
      [{ mount_path: '/trailing/' }, 'mount_path'],
      [{ mount_path: '/a//b' }, 'mount_path'],
      [{ mount_path: '/a/../b' }, 'mount_path'],
      [{ mount_path: '/api/files' }, 'mount_path'],
      [{ mount_path: '/dav' }, 'mount_path'],
      [{ sort_order: -1 }, 'sort_order'],
      [{ sort_order: 1.5 }, 'sort_order'],
      [{ cache_ttl: -5 }, 'cache_ttl'],
      [{ storage_config_id: '' }, 'storage_config_id'],
      [{ storage_config_id: 'missing' }, 'storage_config_id'],
      [{ storage_type: 'FTP' }, 'storage_type'],
      [{ storage_type: 'S3' }, 'storage_type'],
    ];
    for (const [change, field] of cases) {
      const body = { name: 'Valid', storage_type: 'LOCAL', storage_config_id: localId, mount_path: '/valid', ...change };
      const refused = await expectError(await t.request('/api/admin/mounts', { token: t.token, json: body }), 400);
      expect({ change, field: refused.data.field }).toEqual({ change, field });
    }
    const taken = await expectError(await t.request('/api/admin/mounts', { token: t.token, json: { name: 'Again', storage_type: 'LOCAL', storage_config_id: localId, mount_path: '/LOCAL' } }), 409);
    expect(taken.message).toBe('A mount point already uses the path /LOCAL');
  });

  it('refuses to delete a storage config that mounts use, naming them (409)', async () => {
    const config = await expectOk(await t.request('/api/s3-configs', { token: t.token, json: { storage_type: 'LOCAL', name: 'used by mounts' } }), storageConfigSchema, 201);
    await createMount(t, t.token, { name: 'One', storage_config_id: config.id, mount_path: '/one' });
    await createMount(t, t.token, { name: 'Two', storage_config_id: config.id, mount_path: '/two' });
    const refused = await expectError(await t.request(`/api/s3-configs/${config.id}`, { token: t.token, method: 'DELETE' }), 409);
    expect(refused.message).toBe('This storage configuration is used by 2 mount points (/one, /two); remove them first');
    expect(refused.data).toMatchObject({ mounts: ['/one', '/two'] });
  });

  it('shows a key the active mounts its base path reaches; it can never create, change or delete one (403)', async () => {
    await createMount(t, t.token, { name: 'Team', storage_config_id: localId, mount_path: '/team' });
    const teamKey = await t.createKey(t.token, { mount_permission: true, basic_path: '/team/docs' });
    const visible = await expectOk(await t.request('/api/user/mounts', { apiKey: teamKey.key }), mountListSchema);
    expect(visible.map((mount) => mount.mount_path)).toEqual(['/team']);
    await expectOk(await t.request(`/api/user/mounts/${visible[0]?.id}`, { apiKey: teamKey.key }), mountSchema);
    const local = (await expectOk(await t.request('/api/admin/mounts', { token: t.token }), mountListSchema)).find((mount) => mount.mount_path === '/local');
    await expectError(await t.request(`/api/user/mounts/${local?.id}`, { apiKey: teamKey.key }), 404);
    await expectError(await t.request('/api/admin/mounts', { apiKey: teamKey.key }), 403);
    await expectError(await t.request('/api/admin/mounts', { apiKey: teamKey.key, json: { name: 'Mine', storage_type: 'LOCAL', storage_config_id: localId, mount_path: '/mine' } }), 403);
    await expectError(await t.request(`/api/admin/mounts/${local?.id}`, { apiKey: teamKey.key, method: 'PUT', json: { is_active: false } }), 403);
    await expectError(await t.request(`/api/admin/mounts/${local?.id}`, { apiKey: teamKey.key, method: 'DELETE' }), 403);
    const noMount = await t.createKey(t.token, { file_permission: true });
    await expectError(await t.request('/api/user/mounts', { apiKey: noMount.key }), 403);
    await expectError(await t.request('/api/user/mounts'), 401);
  });
});
