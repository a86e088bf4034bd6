import { createHash } from 'node:crypto';
import { adminToken, setMaxUploadSizeMb, startServer } from '../tests/e2e/harness';
import { chunkAt, growthDuring, MiB } from './measure';
import { benchSize, SMOKE_FILE_MB } from './size';

const CHUNK = MiB;

/**
 * `upload_rss_growth_mb` and `download_rss_growth_mb`: a generated file (BENCH_SIZE_MB, default 1024) goes
 * through `POST /api/upload` as a streamed multipart body of unknown length (made on the fly; the client
 * never holds it either), then comes back through `/api/file-download/<slug>`, while the server's RSS is
 * sampled. Streaming means the growth stays flat whatever the size.
 */
export async function streamingMemory() {
  const sizeMb = benchSize(1024, SMOKE_FILE_MB, 'BENCH_SIZE_MB');
  const total = Math.round(sizeMb * MiB);
  const server = await startServer();
  try {
    const token = await adminToken(server.url);
    const auth = { Authorization: `Bearer ${token}` };
    await setMaxUploadSizeMb(server.url, token, sizeMb + 1);

    const boundary = `bench-${Date.now()}`;
    const encoder = new TextEncoder();
    const sent = createHash('sha256');
    let index = 0;
    let offset = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          controller.enqueue(
            encoder.encode(
              `--${boundary}\r\nContent-Disposition: form-data; name="remark"\r\n\r\nbenchmark\r\n` +
                `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
                'Content-Type: application/octet-stream\r\n\r\n',
            ),
          );
        },
        pull(controller) {
          if (offset >= total) {
            controller.enqueue(encoder.encode(`\r\n--${boundary}--\r\n`));
            controller.close();
            return;
          }
          const chunk = chunkAt(index++, Math.min(CHUNK, total - offset));
          offset += chunk.length;
          sent.update(chunk);
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 2 },
    );

    const upload = await growthDuring(server, async () => {
      const res = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      const answer = (await res.json()) as { code: number; message: string; data: { slug: string; size: number } };
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${answer.message}`);
      return answer.data;
    });
    if (upload.result.size !== total) throw new Error(`stored ${upload.result.size} bytes, sent ${total}`);

    const download = await growthDuring(server, async () => {
      const res = await fetch(`${server.url}/api/file-download/${upload.result.slug}`, { headers: auth });
      if (res.status !== 200 || !res.body) throw new Error(`download answered ${res.status}`);
      const received = createHash('sha256');
      let bytes = 0;
      const reader = res.body.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        received.update(next.value);
        bytes += next.value.length;
      }
      return { bytes, sha256: received.digest('hex') };
    });
    if (download.result.bytes !== total || download.result.sha256 !== sent.digest('hex')) {
      throw new Error('the download differs from the upload');
    }

    console.log(`upload_rss_growth_mb: ${upload.growthMb}`);
    console.log(`download_rss_growth_mb: ${download.growthMb}`);
  } finally {
    await server.stop();
  }
}
