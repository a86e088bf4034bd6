/**
 * Three real server processes on one PostgreSQL (a schema of their own in the run's cluster) and one s3rver, as
 * docs/operations.md ("Several instances") sets them up: sessions, uploads, view limits, rate limits and directory
 * caches hold across them, and killing one mid-upload loses nothing it acknowledged.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { apiKeySchema, createdApiKeySchema } from '../../contract/api-keys';
import { envelopeSchema } from '../../contract/envelope';
import { fileShareSchema, presignResponseSchema } from '../../contract/files';
import { publicFileSchema } from '../../contract/public-file';
import { fsListingSchema, fsUploadResultSchema } from '../../contract/fs';
import { loginResponseSchema } from '../../contract/auth';
import { mountSchema } from '../../contract/mounts';
import { multipartInitResponseSchema, multipartSignResponseSchema } from '../../contract/multipart';
import { MIN_PART_BYTES } from '../../contract/parts';
import { createdPasteSchema } from '../../contract/pastes';
import { publicPasteSchema } from '../../contract/public-paste';
import { storageConfigSchema } from '../../contract/storage';
import { startInstance, type Instance } from '../fixtures/instances';
import { freshSchema, type FreshSchema } from '../fixtures/postgres';
import { startS3rver, type RunningS3rver } from '../fixtures/s3rver';

const ADMIN_PASSWORD = 'several instances, one admin';

interface CallOptions {
  token?: string;
  apiKey?: string;
  json?: unknown;
  body?: BodyInit;
  method?: string;
  headers?: Record<string, string>;
}

function call(instance: Instance, path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers(options.headers);
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  if (options.apiKey) headers.set('authorization', `ApiKey ${options.apiKey}`);
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('content-type', 'application/json');
  }
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const streaming = body instanceof ReadableStream ? { duplex: 'half' } : {};
  return fetch(`${instance.origin}${path}`, { method, headers, body, ...streaming } as RequestInit);
}

/** The `data` of a success answer with this status, validated by the contract. */
async function ok<S extends v.GenericSchema>(res: Response | Promise<Response>, schema: S, status = 200): Promise<v.InferOutput<S>> {
  const answer = await res;
  const body: unknown = await answer.json();
  expect({ status: answer.status, body }).toMatchObject({ status, body: { success: true } });
  return v.parse(envelopeSchema(schema), body).data;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('three instances on one PostgreSQL and one S3', () => {
  let schema: FreshSchema;
  let s3: RunningS3rver;
  let instances: Instance[];
  let a: Instance;
  let b: Instance;
  let c: Instance;
  let token: string;

  beforeAll(async () => {
    const cluster = inject('postgresUrl');
    if (!cluster) throw new Error('the integration project provides a PostgreSQL cluster');
    [schema, s3] = await Promise.all([freshSchema(cluster), startS3rver()]);
    const env = {
      DATABASE_URL: schema.url,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      ADMIN_PASSWORD,
      ALLOW_PRIVATE_URLS: '1',
    };
    // Started together on an empty database: they take turns migrating and creating the admin.
    instances = await Promise.all([startInstance(env), startInstance(env), startInstance(env)]);
    [a, b, c] = instances as [Instance, Instance, Instance];
    token = (await ok(call(a, '/api/admin/login', { json: { username: 'admin', password: ADMIN_PASSWORD } }), loginResponseSchema)).token;
    await ok(call(b, '/api/s3-configs', { token, json: s3.configRequest({ is_default: true, is_public: true }) }), storageConfigSchema, 201);
  });

  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await s3?.stop();
    await schema?.drop();
  });

  it('made no LOCAL storage and makes none: files would live on one machine only', async () => {
    const configs = await ok(call(c, '/api/s3-configs', { token }), v.array(storageConfigSchema));
    expect(configs.map((config) => config.storage_type)).toEqual(['S3']);
    const refused = await call(a, '/api/s3-configs', { token, json: { storage_type: 'LOCAL', name: 'disk' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ data: { field: 'storage_type', issue: 'not_shared' } });
  });

  it('takes a login on one instance on the others, and a logout on one everywhere', async () => {
    for (const instance of instances) expect((await call(instance, '/api/admin/check', { token })).status).toBe(200);
    const other = (await ok(call(c, '/api/admin/login', { json: { username: 'admin', password: ADMIN_PASSWORD } }), loginResponseSchema)).token;
    expect((await call(a, '/api/admin/logout', { method: 'POST', token: other })).status).toBe(200);
    for (const instance of instances) expect((await call(instance, '/api/admin/check', { token: other })).status).toBe(401);
  });

  it('shares the login rate limit: ten failures spread over the instances block the eleventh on any', async () => {
    const attempt = (instance: Instance, password: string) =>
      call(instance, '/api/admin/login', { json: { username: 'nobody', password } });
    for (let i = 0; i < 10; i++) expect((await attempt(instances[i % 3] as Instance, `wrong-${i}`)).status).toBe(401);
    for (const instance of instances) expect((await attempt(instance, 'wrong again')).status).toBe(429);
  });

  it('updates an API key’s last use whichever instance it is used on', async () => {
    const key = await ok(call(a, '/api/admin/api-keys', { token, json: { name: 'spread', text_permission: true } }), createdApiKeySchema, 201);
    expect((await call(b, '/api/test/api-key', { apiKey: key.key })).status).toBe(200);
    const keys = await ok(call(c, '/api/admin/api-keys', { token }), v.array(apiKeySchema));
    expect(keys.find((k) => k.id === key.id)?.last_used).not.toBeNull();
  });

  it('runs one multipart upload over all three: started on one, signed on another, completed on the third', async () => {
    const bytes = randomBytes(MIN_PART_BYTES + 123_456);
    const init = await ok(
      call(a, '/api/s3/multipart/init', { token, json: { filename: 'spread.bin', size: bytes.length, part_size: MIN_PART_BYTES } }),
      multipartInitResponseSchema,
    );
    expect(init.part_count).toBe(2);
    const ref = { file_id: init.file_id, upload_id: init.upload_id };
    const signed = await ok(call(b, '/api/s3/multipart/sign', { token, json: { ...ref, partNumbers: [1, 2] } }), multipartSignResponseSchema);
    const parts = await Promise.all(
      signed.urls.map(async ({ partNumber, url }) => {
        const chunk = bytes.subarray((partNumber - 1) * MIN_PART_BYTES, partNumber * MIN_PART_BYTES);
        const put = await fetch(url, { method: 'PUT', body: chunk });
        expect(put.status).toBe(200);
        return { partNumber, etag: put.headers.get('etag') ?? '' };
      }),
    );
    const share = await ok(call(c, '/api/s3/multipart/complete', { token, json: { ...ref, parts, slug: 'spread-upload' } }), fileShareSchema, 201);
    expect(share).toMatchObject({ slug: 'spread-upload', size: bytes.length });

    const info = await ok(call(a, '/api/public/files/spread-upload'), publicFileSchema);
    const download = await fetch(info.downloadUrl ?? '');
    expect(download.status).toBe(200);
    expect(sha(new Uint8Array(await download.arrayBuffer()))).toBe(sha(bytes));
  });

  it('commits on one instance a single PUT presigned on another', async () => {
    const bytes = randomBytes(50_000);
    const presign = await ok(call(b, '/api/s3/presign', { token, json: { filename: 'single.bin', size: bytes.length } }), presignResponseSchema);
    expect((await fetch(presign.upload_url, { method: 'PUT', body: bytes, headers: { 'content-type': presign.contentType } })).status).toBe(200);
    const share = await ok(call(a, '/api/s3/commit', { token, json: { file_id: presign.file_id } }), fileShareSchema, 201);
    expect(share.size).toBe(bytes.length);
  });

  it('counts views across instances exactly: 200 concurrent reads of a 5-view paste give 5 contents', async () => {
    const paste = await ok(call(a, '/api/paste', { token, json: { content: 'five times only', maxViews: 5 } }), createdPasteSchema, 201);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => call(instances[i % 3] as Instance, `/api/paste/${paste.slug}`)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(195);
    await Promise.all(answers.map((res) => res.body?.cancel()));
  });

  it('drops every instance’s cached listing of a folder written through another', async () => {
    await ok(call(a, '/api/admin/mounts', { token, json: { name: 'Shared', storage_type: 'S3', storage_config_id: await defaultConfigId(), mount_path: '/shared', cache_ttl: 300 } }), mountSchema, 201);
    const names = async (instance: Instance) =>
      (await ok(call(instance, `/api/admin/fs/list?path=${encodeURIComponent('/shared/cached')}`, { token }), fsListingSchema)).items.map((item) => item.name);
    expect((await call(a, '/api/admin/fs/mkdir', { token, json: { path: '/shared/cached' } })).status).toBe(201);
    for (const instance of instances) expect(await names(instance)).toEqual([]);
    const form = new FormData();
    form.append('file', new Blob(['hello']), 'hello.txt');
    form.append('path', '/shared/cached');
    await ok(call(c, '/api/admin/fs/upload', { token, body: form }), fsUploadResultSchema, 201);
    for (const instance of instances) expect(await names(instance)).toEqual(['hello.txt']);
  });

  async function defaultConfigId(): Promise<string> {
    const configs = await ok(call(a, '/api/s3-configs', { token }), v.array(storageConfigSchema));
    return configs.find((config) => config.is_default)?.id ?? '';
  }

  it('loses no acknowledged share when an instance is killed mid-upload', async () => {
    // Shares created through b, some of them while b dies: each one b acknowledged must be there afterwards.
    const acknowledged: string[] = [];
    const creating = (async () => {
      for (let i = 0; ; i++) {
        const res = await call(b, '/api/paste', { token, json: { content: `note ${i}` } }).catch(() => undefined);
        if (!res) return;
        if (res.status === 201) acknowledged.push((v.parse(envelopeSchema(createdPasteSchema), await res.json())).data.slug);
      }
    })();
    // A form upload streaming through b: half a file sent, then b is killed.
    const boundary = 'clipstash-kill-test';
    let sendMore: (() => void) | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`));
        controller.enqueue(randomBytes(256 * 1024));
        sendMore = () => controller.enqueue(randomBytes(256 * 1024));
      },
    });
    const upload = call(b, '/api/upload', { token, body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).then(
      (res) => res.status,
      () => 'connection lost',
    );
    await vi.waitFor(() => expect(acknowledged.length).toBeGreaterThanOrEqual(5), { timeout: 30_000, interval: 20 });
    sendMore?.();
    await b.kill();
    expect(await upload).toBe('connection lost');
    await creating;

    expect(acknowledged.length).toBeGreaterThanOrEqual(5);
    for (const slug of acknowledged) {
      const paste = await ok(call(a, `/api/paste/${slug}`, { token }), publicPasteSchema);
      expect(paste.content).toMatch(/^note \d+$/);
    }
    // The half upload left no share; the client tries again on another instance.
    const files = await ok(call(c, '/api/admin/files?limit=100', { token }), v.object({ items: v.array(fileShareSchema) }), 200);
    expect(files.items.map((file) => file.filename)).not.toContain('half.bin');
    const form = new FormData();
    form.append('file', new Blob([randomBytes(300_000)]), 'half.bin');
    const retried = await ok(call(c, '/api/upload', { token, body: form }), fileShareSchema, 201);
    expect((await ok(call(a, `/api/public/files/${retried.slug}`), publicFileSchema)).size).toBe(300_000);
  });
});
