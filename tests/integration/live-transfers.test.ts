/**
 * Two real server processes on one PostgreSQL and one s3rver: the admin connected to one instance sees, live and in
 * the list, a WebDAV PUT the other instance is receiving, then its end; a share's multipart upload started on one
 * and completed on the other is one transfer.
 */
import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { envelopeSchema } from '../../contract/envelope';
import { loginResponseSchema } from '../../contract/auth';
import { liveTransferListSchema, type LiveEvent, type LiveTransfer } from '../../contract/jobs';
import { multipartInitResponseSchema, multipartSignResponseSchema } from '../../contract/multipart';
import { MIN_PART_BYTES } from '../../contract/parts';
import { storageConfigSchema } from '../../contract/storage';
import { mountSchema } from '../../contract/mounts';
import { startInstance, type Instance } from '../fixtures/instances';
import { freshSchema, type FreshSchema } from '../fixtures/postgres';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';

const ADMIN_PASSWORD = 'two instances, one task manager';
const MIB = 1024 * 1024;

async function ok<S extends v.GenericSchema>(res: Promise<Response>, schema: S, status = 200): Promise<v.InferOutput<S>> {
  const answer = await res;
  const body: unknown = await answer.json();
  expect({ status: answer.status, body }).toMatchObject({ status, body: { success: true } });
  return v.parse(envelopeSchema(schema), body).data;
}

/** The `transfer` events of a Server-Sent Events answer, read as they come. */
function transferEvents(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async until(matches: (transfer: LiveTransfer) => boolean): Promise<LiveTransfer> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end < 0) {
          const { value, done } = await reader.read();
          if (done) throw new Error('the stream ended');
          buffer += decoder.decode(value, { stream: true });
          continue;
        }
        const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        const event = data ? (JSON.parse(data.slice(6)) as LiveEvent) : undefined;
        if (event?.type === 'transfer' && matches(event.transfer)) return event.transfer;
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe('live transfers across instances', () => {
  let schema: FreshSchema;
  let s3: RunningS3rver;
  let a: Instance;
  let b: Instance;
  let token: string;
  const json = (instance: Instance, path: string, body: unknown) =>
    fetch(`${instance.origin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const list = async (instance: Instance) =>
    (await ok(fetch(`${instance.origin}/api/admin/transfers`, { headers: { authorization: `Bearer ${token}` } }), liveTransferListSchema)).items;

  beforeAll(async () => {
    const cluster = inject('postgresUrl');
    if (!cluster) throw new Error('the integration project provides a PostgreSQL cluster');
    [schema, s3] = await Promise.all([freshSchema(cluster), startS3rver()]);
    const env = { DATABASE_URL: schema.url, ENCRYPTION_KEY: randomBytes(32).toString('hex'), ADMIN_PASSWORD, ALLOW_PRIVATE_URLS: '1' };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    const login = fetch(`${a.origin}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    token = (await ok(login, loginResponseSchema)).token;
    const config = await ok(json(a, '/api/s3-configs', s3.configRequest({ is_default: true, is_public: true })), storageConfigSchema, 201);
    await ok(json(a, '/api/admin/mounts', { name: 'Bucket', storage_type: 'S3', storage_config_id: config.id, mount_path: '/bucket' }), mountSchema, 201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await s3?.stop();
    await schema?.drop();
  });

  it('shows the admin on one instance a WebDAV PUT the other receives, while it runs and once it ended', async () => {
    const events = await fetch(`${a.origin}/api/admin/transfers/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(events.status).toBe(200);
    const stream = transferEvents(events);

    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void (feed = controller) });
    const put = fetch(`${b.origin}/dav/bucket/from-b.bin`, {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`, 'content-length': String(6 * MIB) },
      body,
      duplex: 'half',
    } as RequestInit);
    feed.enqueue(new Uint8Array(2 * MIB));
    const running = await stream.until((x) => x.name === '/bucket/from-b.bin' && x.bytesDone >= 2 * MIB);
    expect(running).toMatchObject({ kind: 'webdav-put', outcome: 'running', bytesTotal: 6 * MIB, who: { kind: 'admin', name: 'admin' } });
    // Instance a carries nothing itself: what its stream and its list show, it read from b's row.
    expect((await list(a)).find((x) => x.id === running.id)).toMatchObject({ outcome: 'running', instance: running.instance });

    feed.enqueue(new Uint8Array(4 * MIB));
    feed.close();
    expect((await put).status).toBe(201);
    expect(await stream.until((x) => x.id === running.id && x.outcome !== 'running')).toMatchObject({ outcome: 'completed', bytesDone: 6 * MIB });
    await stream.cancel();
  }, 60_000);

  it('follows a share upload begun on one instance and completed on the other as one transfer', async () => {
    const bytes = randomBytes(MIN_PART_BYTES + 1000);
    const init = await ok(json(a, '/api/s3/multipart/init', { filename: 'spread.bin', size: bytes.length, part_size: MIN_PART_BYTES }), multipartInitResponseSchema);
    const ref = { file_id: init.file_id, upload_id: init.upload_id };
    const signed = await ok(json(b, '/api/s3/multipart/sign', { ...ref, partNumbers: [1, 2] }), multipartSignResponseSchema);
    const started = (await list(b)).filter((x) => x.name === 'spread.bin');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ kind: 'share-upload', outcome: 'running', partsInFlight: 2 });
    const parts = await Promise.all(
      signed.urls.map(async ({ url, partNumber }) => {
        const slice = bytes.subarray((partNumber - 1) * MIN_PART_BYTES, partNumber * MIN_PART_BYTES);
        const res = await fetch(url, { method: 'PUT', body: new Uint8Array(slice) });
        return { partNumber, etag: (res.headers.get('etag') ?? '').replace(/"/g, '') };
      }),
    );
    expect((await json(a, '/api/s3/multipart/complete', { ...ref, parts })).status).toBeLessThan(300);
    // Instance a writes the end as it answers; b reads it from the table a moment later.
    await expect.poll(async () => (await list(b)).filter((x) => x.name === 'spread.bin'), { timeout: 5000 }).toEqual([
      expect.objectContaining({ outcome: 'completed', bytesDone: bytes.length }),
    ]);
  }, 60_000);
});
