import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIN_PART_BYTES } from '../../../contract/parts';
import { fsMultipartInitSchema, fsPartSchema, fsUploadResultSchema } from '../../../contract/fs';
import { storageConfigSchema } from '../../../contract/storage';
import { bytesOf, sha256, type Bytes } from '../../../tests/fixtures/files';
import { createMount, fsClient, mountOfKind } from '../../../tests/fixtures/fs';
import { ftpServerAvailable, startFtpServer } from '../../../tests/fixtures/ftp-server';
import { jobsClient } from '../../../tests/fixtures/jobs';
import { startSshd } from '../../../tests/fixtures/sftp-server';
import { usingPostgres } from '../../../tests/fixtures/test-database';
import { startWebdavServer } from '../../../tests/fixtures/webdav-server';
import type { RunningS3rver } from '../../../tests/fixtures/s3rver';
import { createTestApp, expectOk, type TestApp } from '../../../tests/fixtures/test-app';
import { jobsOf } from '../jobs/service';

/** A real server of one protocol, serving a folder of this machine, and the config body that reaches it. */
interface RemoteServer {
  config: Record<string, unknown>;
  /** The config's base folder on the server, when not `clips` below the server's root. */
  folder?: string;
  /** That base folder on this machine. */
  directory: string;
  /** Kills the server, cutting its connections, and starts it again on the same port. */
  cut?: () => Promise<void>;
  stop(): Promise<void>;
}

const remoteKinds: { kind: string; available: () => boolean; cuts?: true; start: () => Promise<RemoteServer> }[] = [
  {
    kind: 'WEBDAV',
    available: () => true,
    start: async () => {
      const server = await startWebdavServer();
      mkdirSync(join(server.directory, 'clips'));
      const { endpointUrl, username, password } = server;
      return { config: { storage_type: 'WEBDAV', endpoint_url: endpointUrl, username, password }, directory: join(server.directory, 'clips'), stop: () => server.stop() };
    },
  },
  {
    kind: 'SFTP',
    available: () => true,
    start: async () => {
      const server = await startSshd();
      const { host, port, username, privateKey, hostKeySha256 } = server;
      // No chroot: the config's folder is the server's absolute path of the folder its user owns.
      const folder = server.root.replace(/^\//, '');
      return { config: { storage_type: 'SFTP', host, port, username, private_key: privateKey, host_key_sha256: hostKeySha256 }, folder, directory: server.root, stop: () => server.stop() };
    },
  },
  {
    kind: 'FTP',
    available: ftpServerAvailable,
    cuts: true,
    start: async () => {
      const server = await startFtpServer();
      mkdirSync(join(server.directory, 'clips'));
      const { host, port, username, password } = server;
      const cut = async () => {
        await server.kill();
        await server.restart();
      };
      return { config: { storage_type: 'FTP', host, port, username, password, tls: 'none' }, directory: join(server.directory, 'clips'), cut, stop: () => server.stop() };
    },
  },
];

/** The sizes of the hidden files of writes in progress in `folder`. */
const partialSizes = (folder: string) =>
  readdirSync(folder)
    .filter((name) => name.startsWith('.clipstash-partial-'))
    .map((name) => statSync(join(folder, name)).size);

/**
 * The fs API and server jobs on a mount of each remote kind, against a real server of its protocol: what the
 * explorer does (list, upload, download with a range, edit, rename, delete) and copies to S3 and back.
 */
describe.each(remoteKinds)('a mount of a $kind storage', ({ available, cuts, start }) => {
  let t: TestApp;
  let token: string;
  let remote: RemoteServer;
  let s3: RunningS3rver | undefined;
  let fs: ReturnType<typeof fsClient>;
  let jobs: ReturnType<typeof jobsClient>;
  let bucketRoot: string;

  beforeAll(async () => {
    if (!available()) return;
    remote = await start();
    t = await createTestApp();
    token = await t.login();
    fs = fsClient(t, { token });
    jobs = jobsClient(t, { token });
    const config = await expectOk(
      await t.request('/api/s3-configs', {
        token,
        json: { name: 'Remote', default_folder: remote.folder ?? 'clips', allow_private_host: true, ...remote.config },
      }),
      storageConfigSchema,
      201,
    );
    await createMount(t, token, { name: 'Remote', storage_type: config.storage_type, storage_config_id: config.id, mount_path: '/remote', cache_ttl: 0 });
    const bucket = await mountOfKind(t, token, 'S3', { mount: { cache_ttl: 0 } });
    s3 = bucket.s3;
    bucketRoot = bucket.root;
  }, 60_000);
  afterAll(async () => {
    if (!t) return;
    await jobsOf(t.deps).stop();
    await t.close();
    await s3?.stop();
    await remote.stop();
  });

  it.skipIf(!available())('browses, uploads, reads a range, edits, renames and deletes', async () => {
    expect((await fs.mkdir('/remote/docs')).status).toBe(201);
    const bytes = randomBytes(70_000) as Bytes;
    await fs.uploadOk('/remote/docs', 'photo.bin', bytes);
    await fs.uploadOk('/remote/docs', 'notes.txt', Buffer.from('first') as Bytes);
    expect((await fs.names('/remote/docs')).sort()).toEqual(['notes.txt', 'photo.bin']);
    expect(await fs.names('/remote')).toEqual(['docs']);
    const ranged = await fs.download('/remote/docs/photo.bin', { range: 'bytes=100-199' });
    expect(ranged.status).toBe(206);
    expect(await bytesOf(ranged)).toEqual(Buffer.from(bytes.subarray(100, 200)));
    expect((await fs.update('/remote/docs/notes.txt', 'second')).status).toBe(200);
    expect((await bytesOf(await fs.download('/remote/docs/notes.txt'))).toString()).toBe('second');
    expect((await fs.rename('/remote/docs/notes.txt', '/remote/docs/renamed.txt')).status).toBe(200);
    expect((await fs.names('/remote/docs')).sort()).toEqual(['photo.bin', 'renamed.txt']);
    expect((await fs.remove('/remote/docs')).status).toBe(200);
    expect(await fs.names('/remote')).toEqual([]);
  });

  it.skipIf(!available())('writes a file’s parts on to the server while they arrive, then renames it into place whole', async () => {
    const parts = [randomBytes(MIN_PART_BYTES), randomBytes(MIN_PART_BYTES), randomBytes(1234)] as Bytes[];
    const init = await fs.post('multipart/init', { path: '/remote/parts', filename: 'big.bin', fileSize: MIN_PART_BYTES * 2 + 1234 });
    const { path, uploadId, key } = await expectOk(init, fsMultipartInitSchema.options[0], 201);
    const send = async (index: number) => {
      const { partNumber, etag } = await expectOk(await fs.part({ path, uploadId, key, partNumber: index + 1 }, parts[index]!), fsPartSchema);
      return { partNumber, etag };
    };
    const third = await send(2);
    const first = await send(0);
    // Part 1 reaches the server under a hidden name before the upload completes (its last bytes may still be on
    // their way: the write goes on); the target is not there yet.
    await vi.waitFor(
      () => {
        const sizes = partialSizes(join(remote.directory, 'parts'));
        expect(sizes).toHaveLength(1);
        expect(sizes[0]).toBeGreaterThan(MIN_PART_BYTES / 2);
        expect(sizes[0]).toBeLessThanOrEqual(MIN_PART_BYTES);
      },
      { timeout: 10_000 },
    );
    expect((await fs.names('/remote/parts', true))).toEqual([]);
    const second = await send(1);
    await expectOk(await fs.post('multipart/complete', { path, uploadId, key, parts: [first, second, third] }), fsUploadResultSchema, 201);
    expect(sha256(await bytesOf(await fs.download('/remote/parts/big.bin')))).toBe(sha256(Buffer.concat(parts)));
    expect(readdirSync(join(remote.directory, 'parts'))).toEqual(['big.bin']);
  });

  it.runIf(available() && cuts)('names the parts a cut connection lost when completing, and completes once they come again', async () => {
    const parts = [randomBytes(MIN_PART_BYTES), randomBytes(MIN_PART_BYTES), randomBytes(MIN_PART_BYTES), randomBytes(999)] as Bytes[];
    const init = await fs.post('multipart/init', { path: '/remote/cut', filename: 'big.bin', fileSize: MIN_PART_BYTES * 3 + 999 });
    const { path, uploadId, key } = await expectOk(init, fsMultipartInitSchema.options[0], 201);
    /** The ETag each part was last answered with, as the worker keeps them. */
    const answered = new Map<number, string>();
    const send = async (partNumber: number) => {
      const response = await fs.part({ path, uploadId, key, partNumber }, parts[partNumber - 1]!);
      if (response.ok) answered.set(partNumber, (await expectOk(response, fsPartSchema)).etag);
      return response.status;
    };
    const complete = () => fs.post('multipart/complete', { path, uploadId, key, parts: [1, 2, 3, 4].map((partNumber) => ({ partNumber, etag: answered.get(partNumber) ?? '0' })) });
    expect([await send(1), await send(2)]).toEqual([200, 200]);
    const [first, second] = [answered.get(1), answered.get(2)];
    // Both parts went on to the server unstaged; the connection that carries them is cut before the file ends.
    await vi.waitFor(() => expect(partialSizes(join(remote.directory, 'cut'))[0]).toBe(2 * MIN_PART_BYTES), { timeout: 10_000 });
    await remote.cut?.();
    // The relay's write fails with the connection; its partial file is removed once the server is back. The parts
    // after it are staged.
    await vi.waitFor(() => expect(partialSizes(join(remote.directory, 'cut'))).toEqual([]), { timeout: 10_000 });
    expect([await send(3), await send(4)]).toEqual([200, 200]);
    const refused = await complete();
    expect(refused.status).toBe(400);
    const { data } = (await refused.json()) as { data: { issue: string; partNumbers: number[] } };
    expect(data.issue).toBe('missing');
    expect(data.partNumbers).toEqual([1, 2]);
    expect(readdirSync(join(remote.directory, 'cut'))).toEqual([]);
    // Sent again as the worker sends them, each is staged and answers the ETag it had.
    for (const partNumber of data.partNumbers) expect(await send(partNumber)).toBe(200);
    expect([answered.get(1), answered.get(2)]).toEqual([first, second]);
    await expectOk(await complete(), fsUploadResultSchema, 201);
    expect(sha256(await bytesOf(await fs.download('/remote/cut/big.bin')))).toBe(sha256(Buffer.concat(parts)));
    expect(readdirSync(join(remote.directory, 'cut'))).toEqual(['big.bin']);
  });

  it.skipIf(!available())('copies a folder of 200 files to S3 and back as server jobs, byte for byte', async () => {
    // The large file spans several parts each way (bench `drivers` moves 512 MiB). The count tests the drivers, not
    // the database: the PostgreSQL rerun walks the same path with a tenth of the files.
    const count = usingPostgres() ? 20 : 200;
    const files = [
      ...Array.from({ length: count - 1 }, (_, i) => ({ relativePath: `${i % 4 === 0 ? 'sub/' : ''}f-${i}.bin`, bytes: randomBytes(1000 + i) as Bytes })),
      { relativePath: 'sub/large.bin', bytes: randomBytes(24 * 1024 * 1024) as Bytes },
    ];
    // One request takes at most 100 files, as the browser sends them.
    for (let i = 0; i < files.length; i += 100) {
      const sent = await fs.uploadBatch('/remote/set', files.slice(i, i + 100));
      // A 202 lists the files that failed and why.
      expect(sent.status, sent.status === 200 ? '' : await sent.text()).toBe(200);
    }
    const out = await jobs.createOk({ type: 'copy', items: [{ sourcePath: '/remote/set', targetPath: `${bucketRoot}/set` }] });
    expect((await jobs.ended(out.id)).status).toBe('completed');
    const back = await jobs.createOk({ type: 'copy', items: [{ sourcePath: `${bucketRoot}/set`, targetPath: '/remote/back' }] });
    expect((await jobs.ended(back.id)).status).toBe('completed');
    for (const file of files) {
      expect(sha256(await bytesOf(await fs.download(`/remote/back/${file.relativePath}`))), file.relativePath).toBe(sha256(file.bytes));
    }
  }, 240_000);
});
