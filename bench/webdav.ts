import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { basicAuth } from '../tests/fixtures/dav';
import { ADMIN_PASSWORD, ADMIN_USERNAME, adminToken, setMaxUploadSizeMb, startServer, type RunningServer } from '../tests/e2e/harness';
import { chunkAt, median, MiB } from './measure';
import { benchSize, SMOKE_FILE_MB, SMOKE_FILES } from './size';

const CHUNK = MiB;

/** A generated body of `total` bytes, one MiB at a time, pulled as the connection takes it. */
function generated(total: number): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(CHUNK, total - index * CHUNK);
      if (size <= 0) return controller.close();
      controller.enqueue(chunkAt(index, size));
      index += 1;
    },
  });
}

/** The same body as one multipart form (the fs API's `/fs/upload`): form head, the bytes, form tail. */
function generatedForm(total: number, boundary: string, filename: string): { body: ReadableStream<Uint8Array>; length: number } {
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\n/local/bench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const bytes = generated(total).getReader();
  let stage: 'head' | 'bytes' | 'tail' | 'done' = 'head';
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (stage === 'head') {
        stage = 'bytes';
        return controller.enqueue(head);
      }
      if (stage === 'bytes') {
        const next = await bytes.read();
        if (!next.done) return controller.enqueue(next.value);
        stage = 'tail';
        return controller.enqueue(tail);
      }
      controller.close();
    },
  });
  return { body, length: head.length + total + tail.length };
}

const timed = async (work: () => Promise<void>) => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

async function drain(res: Response, expected: number) {
  let seen = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) seen += chunk.byteLength;
  if (res.status !== 200 || seen !== expected) throw new Error(`GET answered ${res.status} with ${seen} bytes`);
}

/** `webdav_propfind_ms_p50`: PROPFIND Depth 1 (allprop) of a LOCAL folder of 5,000 files. */
async function propfind(server: RunningServer, token: string) {
  const files = benchSize(5000, SMOKE_FILES);
  const propfindRounds = benchSize(15, 1);
  const configs = (await (await fetch(`${server.url}/api/s3-configs`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
    data: { items?: { id: string; storage_type: string }[] } | { id: string; storage_type: string }[];
  };
  const list = Array.isArray(configs.data) ? configs.data : (configs.data.items ?? []);
  const local = list.find((config) => config.storage_type === 'LOCAL');
  if (!local) throw new Error('no LOCAL storage config');
  const folder = join(server.dataDir, 'storage', local.id, 'many');
  mkdirSync(folder, { recursive: true });
  for (let index = 0; index < files; index += 1) writeFileSync(join(folder, `file-${String(index).padStart(5, '0')}.txt`), String(index));
  const times: number[] = [];
  for (let round = 0; round < propfindRounds; round += 1) {
    times.push(
      await timed(async () => {
        const res = await fetch(`${server.url}/dav/local/many/`, { method: 'PROPFIND', headers: { authorization: basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD), depth: '1' } });
        const text = await res.text();
        if (res.status !== 207 || text.split('<D:href>').length !== files + 2) throw new Error(`PROPFIND answered ${res.status}`);
      }),
    );
  }
  console.log(`webdav_propfind_5000_ms_p50: ${median(times)}`);
}

/** PUT and GET of one generated file (BENCH_SIZE_MB, default 1024) through /dav and through the fs API, interleaved. */
async function transfers(server: RunningServer, token: string) {
  const total = Math.round(benchSize(1024, SMOKE_FILE_MB, 'BENCH_SIZE_MB') * MiB);
  const transferRounds = benchSize(4, 1);
  await setMaxUploadSizeMb(server.url, token, total / MiB + 1);
  const dav = { authorization: basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD) };
  const api = { Authorization: `Bearer ${token}` };
  const put = { dav: [] as number[], fs: [] as number[] };
  const get = { dav: [] as number[], fs: [] as number[] };
  const putDav = async () => {
    const res = await fetch(`${server.url}/dav/local/bench/dav.bin`, { method: 'PUT', headers: { ...dav, 'content-length': String(total) }, body: generated(total), duplex: 'half' } as RequestInit);
    if (res.status >= 300) throw new Error(`PUT answered ${res.status}`);
  };
  const putFs = async (round: number) => {
    const boundary = `bench${round}`;
    const form = generatedForm(total, boundary, 'fs.bin');
    const res = await fetch(`${server.url}/api/admin/fs/upload`, {
      method: 'POST',
      headers: { ...api, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(form.length) },
      body: form.body,
      duplex: 'half',
    } as RequestInit);
    if (res.status >= 300) throw new Error(`fs upload answered ${res.status}: ${await res.text()}`);
  };
  const getDav = async () => drain(await fetch(`${server.url}/dav/local/bench/dav.bin`, { headers: dav }), total);
  const getFs = async () => drain(await fetch(`${server.url}/api/admin/fs/download?path=/local/bench/fs.bin`, { headers: api }), total);
  // Interleaved, and which goes first alternates, so that neither side always meets a warmer (or busier) machine.
  for (let round = 0; round < transferRounds; round += 1) {
    const davFirst = round % 2 === 0;
    for (const side of davFirst ? ['dav', 'fs'] : ['fs', 'dav']) {
      if (side === 'dav') put.dav.push(await timed(putDav));
      else put.fs.push(await timed(() => putFs(round)));
    }
    for (const side of davFirst ? ['dav', 'fs'] : ['fs', 'dav']) {
      if (side === 'dav') get.dav.push(await timed(getDav));
      else get.fs.push(await timed(getFs));
    }
  }
  const rate = (times: number[]) => Math.round((total / MiB / (median(times) / 1000)) * 10) / 10;
  console.log(`webdav_put_mb_s: ${rate(put.dav)}`);
  console.log(`fs_put_mb_s: ${rate(put.fs)}`);
  console.log(`webdav_put_ratio: ${Math.round((rate(put.dav) / rate(put.fs)) * 100) / 100}`);
  console.log(`webdav_get_mb_s: ${rate(get.dav)}`);
  console.log(`fs_get_mb_s: ${rate(get.fs)}`);
  console.log(`webdav_get_ratio: ${Math.round((rate(get.dav) / rate(get.fs)) * 100) / 100}`);
}

export async function webdavBench() {
  const server = await startServer();
  try {
    const token = await adminToken(server.url);
    await fetch(`${server.url}/api/admin/fs/mkdir`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ path: '/local/bench' }) });
    await propfind(server, token);
    await transfers(server, token);
  } finally {
    await server.stop();
  }
}
