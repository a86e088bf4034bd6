import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3rver } from '../tests/fixtures/s3rver';
import { adminToken, setMaxUploadSizeMb, startServer, type RunningServer } from '../tests/e2e/harness';
import { chunkAt, growthDuring, median, MiB } from './measure';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from './size';

const PART = 5 * MiB;

type Call = (path: string, init?: RequestInit) => Promise<{ status: number; data: Record<string, unknown> }>;

function apiOf(server: RunningServer, token: string): Call {
  return async (path, init = {}) => {
    const res = await fetch(`${server.url}/api${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });
    const body = (await res.json()) as { data: Record<string, unknown>; message: string };
    if (res.status >= 300) throw new Error(`${path} answered ${res.status}: ${body.message}`);
    return { status: res.status, data: body.data };
  };
}

/** `fs_list_ms_p50_{uncached,cached}`: a folder of 5,000 objects on s3rver, listed through `/fs/list`. */
async function listing(api: Call) {
  const objects = benchSize(5000, SMOKE_FILES);
  const rounds = benchSize(15, 1);
  const s3 = await startS3rver();
  try {
    const config = await api('/s3-configs', { method: 'POST', body: JSON.stringify(s3.configRequest()) });
    await api('/admin/mounts', {
      method: 'POST',
      body: JSON.stringify({ name: 'Bench', storage_type: 'S3', storage_config_id: config.data.id, mount_path: '/bench', cache_ttl: 300 }),
    });
    const client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    const keys = Array.from({ length: objects }, (_, index) => `many/file-${String(index).padStart(5, '0')}.txt`);
    const put = async () => {
      for (let key = keys.pop(); key; key = keys.pop()) await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: key }));
    };
    await Promise.all(Array.from({ length: 16 }, put));
    const time = async (refresh: boolean) => {
      const started = performance.now();
      const { data } = await api(`/admin/fs/list?path=/bench/many${refresh ? '&refresh=true' : ''}`);
      if ((data.items as unknown[]).length !== objects) throw new Error('the listing is incomplete');
      return performance.now() - started;
    };
    const uncached: number[] = [];
    const cached: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      uncached.push(await time(true));
      cached.push(await time(false));
    }
    console.log(`fs_list_ms_p50_uncached: ${median(uncached)}`);
    console.log(`fs_list_ms_p50_cached: ${median(cached)}`);
  } finally {
    await s3.stop();
  }
}

/** `fs_upload_rss_growth_mb`: a generated file (BENCH_SIZE_MB, default 1024) through fs multipart, 3 parts at a time. */
async function multipartUpload(server: RunningServer, api: Call, token: string) {
  const total = Math.round(benchSize(1024, SMOKE_FILE_MB, 'BENCH_SIZE_MB') * MiB);
  await setMaxUploadSizeMb(server.url, token, total / MiB + 1);
  const { data: init } = await api('/admin/fs/multipart/init', { method: 'POST', body: JSON.stringify({ path: '/local/bench', filename: 'big.bin', fileSize: total }) });
  const partCount = Math.ceil(total / PART);
  const upload = await growthDuring(server, async () => {
    const etags: { partNumber: number; etag: string }[] = [];
    let next = 1;
    const worker = async () => {
      for (let partNumber = next++; partNumber <= partCount; partNumber = next++) {
        const size = Math.min(PART, total - (partNumber - 1) * PART);
        const query = new URLSearchParams({ path: String(init.path), uploadId: String(init.uploadId), key: String(init.key), partNumber: String(partNumber) });
        const { data } = await api(`/admin/fs/multipart/part?${query}`, {
          method: 'POST',
          body: chunkAt(partNumber, size),
          headers: { 'content-type': 'application/octet-stream' },
        });
        etags.push({ partNumber, etag: String(data.etag) });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    etags.sort((a, b) => a.partNumber - b.partNumber);
    const { data } = await api('/admin/fs/multipart/complete', {
      method: 'POST',
      body: JSON.stringify({ path: init.path, uploadId: init.uploadId, key: init.key, parts: etags }),
    });
    return data;
  });
  if (upload.result.size !== total) throw new Error(`stored ${String(upload.result.size)} bytes, sent ${total}`);
  console.log(`fs_upload_rss_growth_mb: ${upload.growthMb}`);
}

export async function fsBench() {
  const server = await startServer();
  try {
    const token = await adminToken(server.url);
    const api = apiOf(server, token);
    await listing(api);
    await multipartUpload(server, api, token);
  } finally {
    await server.stop();
  }
}
