import { describe, expect, it } from 'vitest';
import { SECRET_MASK, storageConfigSchema, storageTestResultSchema } from '../../../contract/storage';
import { startRcloneSftp } from '../../../tests/fixtures/sftp-server';
import { startWebdavServer } from '../../../tests/fixtures/webdav-server';
import { ftpServerAvailable, startFtpServer } from '../../../tests/fixtures/ftp-server';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';

const PASSWORD = 'correct horse battery staple';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n-----END OPENSSH PRIVATE KEY-----';
/** Documentation addresses (RFC 5737) pass the guard as public; names resolve through the test's own resolver. */
const answers: Record<string, string> = { 'nas.lan': '192.168.1.20', 'dav.example.com': '203.0.113.7', 'rebind.example.com': '203.0.113.8' };
const resolve = async (hostname: string) => (answers[hostname] ? [{ address: answers[hostname], family: 4 }] : []);

describe('WebDAV, SFTP and FTP storage configs', () => {
  const t = useTestApp({ urlFetch: { resolve }, env: { ALLOW_PRIVATE_URLS: '0' } });
  const create = (body: Record<string, unknown>) => t.request('/api/s3-configs', { token: t.token, json: body });
  const sftp = (extra: Record<string, unknown> = {}) => ({ storage_type: 'SFTP', name: 'Box', host: '203.0.113.9', username: 'clip', password: PASSWORD, ...extra });
  const sealedOf = (id: string) => t.db.selectFrom('storage_configs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('creates each kind with its defaults, seals every secret and never answers one', async () => {
    const res = await create(sftp({ private_key: KEY, passphrase: 'pass phrase', host_key_sha256: `SHA256:${'x'.repeat(43)}` }));
    const text = await res.clone().text();
    for (const secret of [PASSWORD, 'not-a-real-key', 'pass phrase']) expect(text).not.toContain(secret);
    const box = await expectOk(res, storageConfigSchema, 201);
    expect(box).toMatchObject({ storage_type: 'SFTP', host: '203.0.113.9', port: 22, username: 'clip', password: SECRET_MASK, private_key: SECRET_MASK, passphrase: SECRET_MASK });
    const row = await sealedOf(box.id);
    expect(t.deps.secrets.open(row.password_encrypted ?? '')).toBe(PASSWORD);
    expect(t.deps.secrets.open(row.private_key_encrypted ?? '')).toBe(KEY);
    expect(row.password_encrypted).not.toContain(PASSWORD);

    const ftp = await expectOk(await create({ storage_type: 'FTP', name: 'Old', host: '203.0.113.10', username: 'u', password: 'p' }), storageConfigSchema, 201);
    expect(ftp).toMatchObject({ port: 21, tls: 'explicit', passive: true, password: SECRET_MASK, private_key: null });
    const dav = await expectOk(
      await create({ storage_type: 'WEBDAV', name: 'Dav', endpoint_url: 'https://dav.example.com/remote/', username: 'u', password: 'p', default_folder: 'clips' }),
      storageConfigSchema,
      201,
    );
    expect(dav).toMatchObject({ endpoint_url: 'https://dav.example.com/remote', host: null, default_folder: 'clips' });
  });

  it('keeps secrets an edit leaves blank or masked, and replaces one that is typed', async () => {
    const box = await expectOk(await create(sftp({ name: 'Keeper' })), storageConfigSchema, 201);
    const edit = (json: Record<string, unknown>) => t.request(`/api/s3-configs/${box.id}`, { token: t.token, method: 'PUT', json });
    for (const body of [{ password: '' }, { password: SECRET_MASK }, { port: 2222, host_key_sha256: '' }]) {
      await expectOk(await edit(body), storageConfigSchema);
      expect(t.deps.secrets.open((await sealedOf(box.id)).password_encrypted ?? '')).toBe(PASSWORD);
    }
    expect((await sealedOf(box.id)).port).toBe(2222);
    await expectOk(await edit({ password: 'new one' }), storageConfigSchema);
    expect(t.deps.secrets.open((await sealedOf(box.id)).password_encrypted ?? '')).toBe('new one');
  });

  it('refuses bad input in the envelope, naming the field', async () => {
    for (const [body, field, issue] of [
      [sftp({ password: '', private_key: '' }), 'password', 'password_or_key_required'],
      [sftp({ port: 70_000 }), 'port', 'invalid_port'],
      [sftp({ host: 'bad host!' }), 'host', 'invalid_host'],
      [sftp({ host_key_sha256: 'MD5:00:11' }), 'host_key_sha256', 'invalid_host_key'],
      [{ storage_type: 'FTP', name: 'x', host: '203.0.113.1', username: 'u', password: 'p', tls: 'sometimes' }, 'tls', 'invalid_choice'],
      [{ storage_type: 'WEBDAV', name: 'x', endpoint_url: 'ftp://dav.example.com', username: 'u', password: 'p' }, 'endpoint_url', 'invalid_url'],
      [{ storage_type: 'WEBDAV', name: 'x', endpoint_url: 'https://dav.example.com', username: 'u' }, 'password', undefined],
    ] as const) {
      const refused = await expectError(await create(body), 400);
      expect(refused.success).toBe(false);
      expect(refused.data.field).toBe(field);
      if (issue) expect(refused.data.issue).toBe(issue);
    }
    expect(await t.db.selectFrom('storage_configs').select('id').where('name', '=', 'x').execute()).toEqual([]);
  });

  it('refuses a host on a private or loopback address unless the config allows it, and metadata always', async () => {
    const refused = await expectError(await create(sftp({ host: 'nas.lan' })), 400);
    expect(refused.message).toBe('Private or loopback addresses are not allowed (nas.lan → 192.168.1.20)');
    expect(refused.data).toMatchObject({ field: 'host', issue: 'private' });
    const dav = await expectError(await create({ storage_type: 'WEBDAV', name: 'x', endpoint_url: 'http://127.0.0.1:8080/dav', username: 'u', password: 'p' }), 400);
    expect(dav.data).toMatchObject({ field: 'endpoint_url', issue: 'loopback' });
    const allowed = await expectOk(await create(sftp({ name: 'NAS', host: 'nas.lan', allow_private_host: true })), storageConfigSchema, 201);
    expect(allowed.allow_private_host).toBe(true);
    // Taking the permission away again is refused while the host is private.
    const edit = await expectError(await t.request(`/api/s3-configs/${allowed.id}`, { token: t.token, method: 'PUT', json: { allow_private_host: false } }), 400);
    expect(edit.data.field).toBe('host');
    const metadata = await expectError(await create(sftp({ host: '169.254.169.254', allow_private_host: true })), 400);
    expect(metadata.data.issue).toBe('metadata');
  });

  it('tests the connection step by step, in words, in the caller’s language', async () => {
    const server = await startRcloneSftp();
    try {
      const body = sftp({ name: 'Tested', host: server.host, port: server.port, username: server.username, password: 'not the password', allow_private_host: true });
      const box = await expectOk(await create(body), storageConfigSchema, 201);
      const run = async (lang: string) =>
        expectOk(await t.request(`/api/s3-configs/${box.id}/test`, { token: t.token, method: 'POST', headers: { 'accept-language': lang } }), storageTestResultSchema);
      const result = await run('en');
      expect(result.ok).toBe(false);
      expect(result.steps.map((step) => [step.step, step.ok, step.message])).toEqual([
        ['connect', false, 'Could not connect or sign in: the storage refused the credentials (access key, user name, password or key)'],
        ['list', false, 'Not tried: an earlier step failed'],
        ['write', false, 'Not tried: an earlier step failed'],
        ['read', false, 'Not tried: an earlier step failed'],
        ['delete', false, 'Not tried: an earlier step failed'],
      ]);
      expect((await run('zh-CN')).steps[0]?.message).toBe('无法连接或登录：存储拒绝了凭据（访问密钥、用户名、密码或私钥）');
      // A new version of the config (drivers are kept per config and `updated_at`): the app's clock moves on.
      t.clock.advance(1000);
      const right = await t.request(`/api/s3-configs/${box.id}`, { token: t.token, method: 'PUT', json: { password: server.password } });
      expect(right.status).toBe(200);
      expect((await run('en')).steps.map((step) => [step.step, step.ok])).toEqual([
        ['connect', true],
        ['list', true],
        ['write', true],
        ['read', true],
        ['delete', true],
      ]);
    } finally {
      await server.stop();
    }
  });

  it('checks the address again at every connection: a name that turns private later reaches nothing', async () => {
    const [sftpServer, davServer, ftpServer] = await Promise.all([
      startRcloneSftp(),
      startWebdavServer(),
      ftpServerAvailable() ? startFtpServer({ tls: 'none' }) : undefined,
    ]);
    try {
      const davPort = new URL(davServer.endpointUrl).port;
      // The test servers listen on loopback, allowed for these configs for now; no system DNS knows the name, so a
      // working listing shows that connections go to the address the guard checked.
      answers['rebind.example.com'] = '127.0.0.1';
      const allowed = { allow_private_host: true };
      const configs = [
        sftp({ name: 'Rebind SFTP', host: 'rebind.example.com', port: sftpServer.port, username: sftpServer.username, password: sftpServer.password, ...allowed }),
        { storage_type: 'WEBDAV', name: 'Rebind DAV', endpoint_url: `http://rebind.example.com:${davPort}/`, username: davServer.username, password: davServer.password, ...allowed },
        ...(ftpServer
          ? [{ storage_type: 'FTP', name: 'Rebind FTP', host: 'rebind.example.com', port: ftpServer.port, username: ftpServer.username, password: ftpServer.password, tls: 'none', ...allowed }]
          : []),
      ];
      const saved = await Promise.all(configs.map(async (body) => expectOk(await create(body), storageConfigSchema, 201)));
      const paths = await Promise.all(
        saved.map(async (config, i) => {
          const json = { name: config.name, storage_type: config.storage_type, storage_config_id: config.id, mount_path: `/rebind-${i}` };
          expect((await t.request('/api/admin/mounts', { token: t.token, json })).status).toBe(201);
          return `/rebind-${i}`;
        }),
      );
      const list = (path: string) => t.request(`/api/admin/fs/list?path=${path}&refresh=true`, { token: t.token });
      for (const path of paths) expect((await list(path)).status).toBe(200);

      // The name looks public when the admin takes the permission away, and turns private afterwards.
      answers['rebind.example.com'] = '203.0.113.8';
      t.clock.advance(1000);
      for (const config of saved) {
        const edit = await t.request(`/api/s3-configs/${config.id}`, { token: t.token, method: 'PUT', json: { allow_private_host: false } });
        expect(edit.status).toBe(200);
      }
      answers['rebind.example.com'] = '127.0.0.1';
      for (const path of paths) {
        const refused = await expectError(await list(path), 502);
        expect(refused.message).toContain("the server's address is in a private or local network, which this storage may not reach");
      }
    } finally {
      await Promise.all([sftpServer.stop(), davServer.stop(), ftpServer?.stop()]);
    }
  });
});
