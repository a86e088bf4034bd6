import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const MiB = 1024 * 1024;

/** Writes `size` bytes to `path`: 64 different random MiB, repeated (incompressible, and quick to make). */
export async function generateFile(path: string, size: number): Promise<void> {
  const chunks = Array.from({ length: 64 }, () => randomBytes(MiB));
  await pipeline(
    Readable.from(
      (function* () {
        for (let at = 0, index = 0; at < size; at += MiB, index++) {
          const chunk = chunks[index % chunks.length] as Buffer;
          yield size - at >= MiB ? chunk : chunk.subarray(0, size - at);
        }
      })(),
    ),
    createWriteStream(path),
  );
}
