/**
 * The drivers bench's floor: the least any server between an HTTP client and the storage can do. Each part's body
 * is piped, in order, into one upload by the protocol's own client library (parts that come early wait their turn),
 * with nothing else: no framework, checks, staging or digest. The last part is answered once the storage has the
 * file. Given a staging folder, it also keeps each part there as a file and takes its CRC-32, as Clipstash stages
 * parts so that a reload or a failed remote write loses none; a part is then answered once its file is written. It
 * runs as a process of its own, as Clipstash's server does, and prints its port:
 * `node --import tsx bench/drivers/bare-relay.ts <kind> <config json> <path> <part count> [<staging folder>]`.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { crc32 } from 'node:zlib';
import { remoteKinds } from './kinds';

const [kindName, configJson = '{}', path = '', partCountText, staging] = process.argv.slice(2);
const kind = remoteKinds.find((candidate) => candidate.name === kindName);
if (!kind) throw new Error(`bare-relay: no kind ${String(kindName)}`);
const partCount = Number(partCountText);
const client = await kind.direct({ config: JSON.parse(configJson) as Record<string, unknown>, directory: '', remotePath: '', stop: async () => {} });
const body = new PassThrough({ highWaterMark: 1024 * 1024 });
let uploaded: Promise<void> | undefined;
let next = 1;
const waiting = new Map<number, () => void>();

/** The part's file in `staging`, written and checksummed as the body passes; resolves once the file is closed. */
function staged(partNumber: number, req: IncomingMessage): Promise<number> {
  if (!staging) return Promise.resolve(0);
  let checksum = 0;
  req.on('data', (chunk: Buffer) => (checksum = crc32(chunk, checksum)));
  const file = createWriteStream(join(staging, `${partNumber}.part`), { highWaterMark: 1024 * 1024 });
  req.pipe(file);
  return once(file, 'close').then(() => checksum);
}

function relay(partNumber: number, req: IncomingMessage, res: ServerResponse) {
  uploaded ??= client.upload(path, body).catch((error: unknown) => {
    console.error('bare-relay: the upload failed', error);
    process.exit(1);
  });
  req.pipe(body, { end: false });
  const stored = staged(partNumber, req);
  req.on('end', () => {
    next += 1;
    const last = next > partCount;
    if (last) body.end();
    waiting.get(next)?.();
    waiting.delete(next);
    void (async () => {
      const checksum = await stored;
      if (last) await uploaded;
      res.end(JSON.stringify({ data: { etag: checksum.toString(16) } }));
    })();
  });
}

const server = createServer((req, res) => {
  const partNumber = Number(new URL(req.url ?? '/', 'http://relay').searchParams.get('partNumber'));
  if (partNumber === next) relay(partNumber, req, res);
  else waiting.set(partNumber, () => relay(partNumber, req, res));
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
